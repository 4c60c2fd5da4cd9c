import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { GoldenError } from '../errors.js';
import { memberOf } from '../transcript/json-object.js';

/** The config file `mcp-golden record` reads from the working directory. */
export const CONFIG_FILE = 'mcp-golden.config.json';

/**
 * The `record` section of `mcp-golden.config.json` (or of the `"mcp-golden"` key in package.json):
 * what `mcp-golden record` with no target options records, so `npm run goldens` is one line.
 * Strings may use `${NAME}` to take a value from the environment (a token, say) without writing
 * it into the file.
 */
export interface RecordConfig {
  /** Command line of a stdio server, as for `--stdio`. */
  readonly stdio?: string;
  /** Streamable HTTP endpoint, as for `--target`. */
  readonly target?: string;
  /** Headers for `target`, as for `--header`. @default [] */
  readonly headers?: readonly string[];
  /** Scenario list file, relative to the config file. */
  readonly scenarios?: string;
  /** Output directory, relative to the config file. */
  readonly out?: string;
}

const KEYS = ['stdio', 'target', 'headers', 'scenarios', 'out'];

function invalid(source: string, problem: string): GoldenError {
  return new GoldenError(
    'E_USAGE',
    `Invalid config in ${source}: ${problem}. Expected {"record": {"stdio" | "target", "headers", "scenarios", "out"}}; see README "Record your own server".`,
  );
}

/** Replaces `${NAME}` with the environment variable, refusing unset ones (a silent empty token would record a 401). */
export function expandEnv(text: string, source: string, env: NodeJS.ProcessEnv = process.env): string {
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

/** Checks a parsed `record` section and resolves its paths against `baseDir`; `${NAME}`s are expanded. */
export function parseRecordConfig(value: unknown, source: string, baseDir: string): RecordConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalid(source, '"record" must be an object');
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KEYS.includes(key)) throw invalid(source, `unknown key "${key}" in "record"`);
  }
  for (const key of ['stdio', 'target', 'scenarios', 'out'] as const) {
    if (record[key] !== undefined && typeof record[key] !== 'string')
      throw invalid(source, `"${key}" must be a string`);
  }
  const headers = record.headers;
  if (headers !== undefined && !(Array.isArray(headers) && headers.every((h) => typeof h === 'string'))) {
    throw invalid(source, '"headers" must be an array of "Name: value" strings');
  }
  const text = (key: 'stdio' | 'target'): string | undefined =>
    typeof record[key] === 'string' ? expandEnv(record[key] as string, source) : undefined;
  const path = (key: 'scenarios' | 'out'): string | undefined =>
    typeof record[key] === 'string' ? resolve(baseDir, record[key] as string) : undefined;
  const config: Record<string, unknown> = {
    stdio: text('stdio'),
    target: text('target'),
    headers: (headers as string[] | undefined)?.map((h) => expandEnv(h, source)),
    scenarios: path('scenarios'),
    out: path('out'),
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as RecordConfig;
}

async function readJson(path: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid config in ${path}: not valid JSON (${(error as Error).message}). Fix the file.`,
    );
  }
}

/**
 * Finds the record config: `path` if given, else `mcp-golden.config.json` in `cwd`, else the
 * `"mcp-golden"` key of `cwd/package.json`. `undefined` when there is none.
 */
export async function loadRecordConfig(cwd: string, path?: string): Promise<RecordConfig | undefined> {
  const file = resolve(cwd, path ?? CONFIG_FILE);
  const value = await readJson(file);
  if (value === undefined && path !== undefined) {
    throw new GoldenError('E_USAGE', `Cannot read config "${path}": no such file. Expected a JSON file; fix --config.`);
  }
  if (value !== undefined) {
    const section = memberOf(value, 'record');
    if (section === undefined) throw invalid(file, 'no "record" section');
    return parseRecordConfig(section, file, dirname(file));
  }
  const pkgPath = resolve(cwd, 'package.json');
  const section = memberOf(memberOf(await readJson(pkgPath), 'mcp-golden'), 'record');
  return section === undefined ? undefined : parseRecordConfig(section, `${pkgPath} ("mcp-golden")`, cwd);
}
