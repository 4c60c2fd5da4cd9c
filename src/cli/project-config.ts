import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { GoldenError, suggest } from '../errors.js';
import { isLintRuleId, LINT_RULES } from '../lint/lint-rules.js';
import { CONFIG_FILE } from './config-file.js';

const strings = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
const volatile = { ignore: strings.optional(), mask: strings.optional() };
const wholeNumber = z
  .int({ error: 'a whole number >= 1' })
  .min(1, { error: 'a whole number >= 1' })
  .max(3_600_000, { error: 'at most 3600000' });

/**
 * The project config, declared once: `mcp-golden.config.json` in the working directory, or else the
 * `"mcp-golden"` key of its package.json. `record`, `verify` and `lint` each read their own section;
 * every object is closed, so a misspelt key is an error, not a silent default.
 */
export const ProjectConfigSchema = z.strictObject(
  {
    record: z
      .strictObject(
        {
          stdio: z.string({ error: 'a string' }).optional(),
          target: z.string({ error: 'a string' }).optional(),
          headers: z.array(z.string(), { error: 'an array of "Name: value" strings' }).optional(),
          scenarios: z.string({ error: 'a string' }).optional(),
          out: z.string({ error: 'a string' }).optional(),
        },
        { error: 'an object with "stdio" or "target", "headers", "scenarios" and "out"' },
      )
      .optional(),
    verify: z
      .strictObject(
        {
          ...volatile,
          goldens: z
            .record(z.string(), z.strictObject(volatile, { error: 'an object with "ignore" and "mask"' }), {
              error: 'an object from golden name to { "ignore": [...], "mask": [...] }',
            })
            .optional(),
        },
        { error: 'an object with "ignore", "mask" and "goldens"' },
      )
      .optional(),
    lint: z
      .strictObject(
        {
          rules: z
            .record(
              z.string().refine(isLintRuleId, { error: `a rule id: ${LINT_RULES.map((r) => r.id).join(', ')}` }),
              z.boolean({ error: 'true or false' }),
              { error: (issue) => (issue.code === 'invalid_type' ? 'an object of rule id → true/false' : undefined) },
            )
            .optional(),
          minIntervalMs: wholeNumber.optional(),
          maxSilenceMs: wholeNumber.optional(),
          rateWindow: wholeNumber.optional(),
          keepAliveMs: wholeNumber.optional(),
        },
        { error: 'an object with "rules", "minIntervalMs", "maxSilenceMs", "rateWindow" and "keepAliveMs"' },
      )
      .optional(),
  },
  { error: 'an object with "record", "verify" and "lint"' },
);

/** The project config as written (paths and `${NAME}`s not yet resolved). */
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

/** The project config and where it came from. */
export interface LoadedProjectConfig {
  readonly config: ProjectConfig;
  /** The file it was read from, as error messages name it (package.json with its key). */
  readonly source: string;
  /** The folder its relative paths are resolved against. */
  readonly baseDir: string;
  /** Read from the `"mcp-golden"` key of package.json rather than a config file of its own. */
  readonly inPackageJson: boolean;
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

/** A JSON Schema node, as `z.toJSONSchema` writes an object: its properties, and the schema of any other key. */
interface JsonSchemaNode {
  readonly properties?: Record<string, JsonSchemaNode>;
  readonly additionalProperties?: JsonSchemaNode | boolean;
}

/** The keys the config takes at `path` (an object's own keys), for a did-you-mean on an unknown one. */
function keysAt(path: readonly PropertyKey[]): string[] {
  let node: JsonSchemaNode | undefined = z.toJSONSchema(ProjectConfigSchema, { io: 'input' }) as JsonSchemaNode;
  for (const segment of path) {
    const other: JsonSchemaNode | boolean | undefined = node?.additionalProperties;
    node = node?.properties?.[String(segment)] ?? (typeof other === 'object' ? other : undefined);
  }
  return Object.keys(node?.properties ?? {});
}

function checked(value: unknown, source: string, baseDir: string, inPackageJson: boolean): LoadedProjectConfig {
  const result = ProjectConfigSchema.safeParse(value);
  if (result.success) return { config: result.data, source, baseDir, inPackageJson };
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const where = (path: readonly PropertyKey[]): string =>
    path.length === 0 ? 'the config' : `"${path.map(String).join('.')}"`;
  let problem = `${where(issue.path)} must be ${issue.message}`;
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(issue.path);
    const named = issue.keys.map((k) => {
      const near = suggest(k, known);
      return `"${k}"${near ? ` (did you mean "${near}"?)` : ''}`;
    });
    problem = `unknown key${issue.keys.length > 1 ? 's' : ''} ${named.join(', ')} in ${where(issue.path)}${known.length > 0 ? `, which takes ${known.map((k) => `"${k}"`).join(', ')}` : ''}`;
  } else if (issue.code === 'invalid_key') {
    const key = String(issue.path.at(-1));
    problem = `key "${key}" in ${where(issue.path.slice(0, -1))} must be ${issue.issues[0]?.message ?? 'valid'}`;
  }
  throw new GoldenError(
    'E_USAGE',
    `Invalid config in ${source}: ${problem}. Fix the file: its sections are "record", "verify" and "lint" (see "One config file" in docs/server-authors.md).`,
  );
}

/**
 * The one loader of the project config, for `record`, `verify` and `lint`: `path` if given (it must
 * exist), else `mcp-golden.config.json` in `cwd`, else the `"mcp-golden"` key of `cwd/package.json`.
 * `undefined` when there is none. Invalid JSON or an invalid shape is a usage error naming the file.
 */
export async function loadProjectConfig(cwd: string, path?: string): Promise<LoadedProjectConfig | undefined> {
  const file = resolve(cwd, path ?? CONFIG_FILE);
  const value = await readJson(file);
  if (value === undefined && path !== undefined) {
    throw new GoldenError('E_USAGE', `Cannot read config "${path}": no such file. Expected a JSON file; fix --config.`);
  }
  if (value !== undefined) return checked(value, file, dirname(file), false);
  const pkgPath = resolve(cwd, 'package.json');
  const pkg = await readJson(pkgPath);
  const section =
    pkg !== null && typeof pkg === 'object' && !Array.isArray(pkg)
      ? (pkg as Record<string, unknown>)['mcp-golden']
      : undefined;
  return section === undefined ? undefined : checked(section, `${pkgPath} ("mcp-golden")`, cwd, true);
}
