import { resolve } from 'node:path';
import { GoldenError } from '../errors.js';
import type { LoadedProjectConfig } from './project-config.js';

/**
 * The `record` section of the project config, resolved: what `mcp-golden record` with no target
 * options records, so `npm run goldens` is one line. Strings may use `${NAME}` to take a value from
 * the environment (a token, say) without writing it into the file.
 */
export interface RecordConfig {
  /** Command line of a stdio server, as for `--stdio`. */
  readonly stdio?: string;
  /** Streamable HTTP endpoint, as for `--target`. */
  readonly target?: string;
  /** Headers for `target`, as for `--header`. @default [] */
  readonly headers?: readonly string[];
  /** Scenario list file, resolved against the config file's folder. */
  readonly scenarios?: string;
  /** Output directory, resolved against the config file's folder. */
  readonly out?: string;
}

/** Replaces `${NAME}` with the environment variable, refusing unset ones (a silent empty token would record a 401). */
export function expandEnv(text: string, source: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) {
      throw new GoldenError(
        'E_USAGE',
        `Config ${source} uses \${${name}}, but the environment variable ${name} is not set. Expected it set; run \`${name}=... npm run goldens\` or export it first.`,
      );
    }
    return value;
  });
}

/**
 * The project config's `record` section with its paths resolved and its `${NAME}`s expanded;
 * `undefined` without a config or with a package.json that has no `record`. A config file of its
 * own without `record` is refused: `record` would otherwise fall back to the reference server and
 * write its goldens into this project.
 */
export function recordConfigOf(
  loaded: LoadedProjectConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
): RecordConfig | undefined {
  if (!loaded) return undefined;
  const { source, baseDir } = loaded;
  const record = loaded.config.record;
  if (!record && !loaded.inPackageJson) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid config in ${source}: no "record" section. Expected {"record": {"stdio" | "target", "headers", "scenarios", "out"}}, or pass --stdio or --target; see "One config file" in docs/server-authors.md.`,
    );
  }
  if (!record) return undefined;
  const config: Record<string, unknown> = {
    stdio: record.stdio === undefined ? undefined : expandEnv(record.stdio, source, env),
    target: record.target === undefined ? undefined : expandEnv(record.target, source, env),
    headers: record.headers?.map((h) => expandEnv(h, source, env)),
    scenarios: record.scenarios === undefined ? undefined : resolve(baseDir, record.scenarios),
    out: record.out === undefined ? undefined : resolve(baseDir, record.out),
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as RecordConfig;
}
