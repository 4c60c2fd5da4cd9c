import { type RecordTarget, secretsOfTarget } from '../record/open-target.js';
import { REDACTED } from '../transcript/redact.js';

/**
 * The secret values of a target, found as `record` finds them (URL userinfo and query values,
 * header values and their credentials, secret-named arguments and environment variables of a
 * stdio command), longest first. Each is also given JSON-escaped, as it would appear in `--json`.
 */
export function targetSecrets(target: RecordTarget): string[] {
  let values: readonly string[] = [];
  try {
    values = secretsOfTarget(target).values;
  } catch {
    // An unparsable URL is reported by the recorder with the fix; it carries nothing to hide here.
  }
  const all = values.flatMap((value) => [value, JSON.stringify(value).slice(1, -1)]);
  return [...new Set(all.filter((s) => s.length >= 3))].sort((a, b) => b.length - a.length);
}

/** `text` with every secret of the target replaced by `<redacted>`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}
