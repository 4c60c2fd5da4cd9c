import type { RecordTarget } from '../record/record-call.js';
import { REDACTED } from '../transcript/redact.js';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The secret values a target carries: the values of its headers (and the credential after a
 * scheme such as `Bearer`), the userinfo and query values of its URL. Short values (under 4
 * characters) are left alone: replacing every "1" in a report would hide more than it protects.
 */
export function targetSecrets(target: RecordTarget): string[] {
  const out: string[] = [];
  const url =
    typeof target === 'string' || target instanceof URL ? String(target) : 'url' in target ? target.url : undefined;
  if (typeof target === 'object' && 'url' in target && !(target instanceof URL)) {
    for (const value of Object.values(target.headers ?? {})) {
      out.push(value, ...value.split(/\s+/).slice(1));
    }
  }
  if (url !== undefined) {
    try {
      const parsed = new URL(url);
      out.push(
        decodeURIComponent(parsed.username),
        decodeURIComponent(parsed.password),
        parsed.username,
        parsed.password,
      );
      for (const value of parsed.searchParams.values()) out.push(value, encodeURIComponent(value));
    } catch {
      // Not a URL: the recorder reports it; there is nothing to take secrets from.
    }
  }
  return [...new Set(out.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
}

/** Patterns of the target's secrets, for the recorder's redaction of re-recorded goldens. */
export function secretPatterns(target: RecordTarget): RegExp[] {
  return targetSecrets(target).map((secret) => new RegExp(escapeRegExp(secret), 'g'));
}

/** `text` with every secret of the target replaced by `<redacted>`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}
