import { isJsonObject } from '../transcript/json-object.js';

/** Whether a change to a listed tool (prompt, resource) breaks existing clients. */
export type ChangeClass = 'breaking' | 'compatible';

/** One change to the server's tool list, classified. */
export interface SchemaChange {
  readonly class: ChangeClass;
  /** `tools/list`, `prompts/list`, `resources/list`. */
  readonly list: string;
  /** The tool (prompt, resource) it concerns. */
  readonly item: string;
  /** The argument it concerns (`options.limit` for a nested one), when there is one. */
  readonly argument?: string;
  /** What changed, in words: `new required argument`, `enum narrowed: removed "csv"`. */
  readonly change: string;
}

type Schema = Record<string, unknown>;

const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)];
const show = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** A JSON Schema type set accepts every value of another: `number` accepts `integer`, none given accepts all. */
function accepts(wide: readonly string[], narrow: readonly string[]): boolean {
  if (wide.length === 0) return true;
  if (narrow.length === 0) return false;
  return narrow.every((t) => wide.includes(t) || (t === 'integer' && wide.includes('number')));
}

function compareArgument(
  expected: Schema,
  actual: Schema,
  name: string,
  push: (cls: ChangeClass, change: string, argument?: string) => void,
): void {
  const te = typesOf(expected);
  const ta = typesOf(actual);
  if (!accepts(ta, te)) push('breaking', `type narrowed: ${show(te)} -> ${show(ta)}`, name);
  else if (!accepts(te, ta)) push('compatible', `type widened: ${show(te)} -> ${show(ta)}`, name);
  const ee = Array.isArray(expected.enum) ? expected.enum : undefined;
  const ea = Array.isArray(actual.enum) ? actual.enum : undefined;
  if (ee && ea) {
    const removed = ee.filter((v) => !ea.some((w) => Object.is(v, w)));
    const added = ea.filter((v) => !ee.some((w) => Object.is(v, w)));
    if (removed.length > 0) push('breaking', `enum narrowed: removed ${show(removed)}`, name);
    if (added.length > 0) push('compatible', `enum widened: added ${show(added)}`, name);
  } else if (!ee && ea) push('breaking', `enum added: only ${show(ea)}`, name);
  else if (ee && !ea) push('compatible', 'enum removed', name);
  for (const [bound, tighter] of [
    ['minimum', 1],
    ['exclusiveMinimum', 1],
    ['minLength', 1],
    ['minItems', 1],
    ['maximum', -1],
    ['exclusiveMaximum', -1],
    ['maxLength', -1],
    ['maxItems', -1],
  ] as const) {
    const e = expected[bound];
    const a = actual[bound];
    if (e === a) continue;
    if (typeof a === 'number' && (typeof e !== 'number' || Math.sign(a - e) === tighter)) {
      push('breaking', `${bound} tightened: ${e ?? 'none'} -> ${a}`, name);
    } else push('compatible', `${bound} relaxed: ${e} -> ${a ?? 'none'}`, name);
  }
  if (expected.description !== actual.description) push('compatible', 'description changed', name);
  if (isJsonObject(expected.properties) || isJsonObject(actual.properties))
    compareObject(expected, actual, `${name}.`, push);
}

function compareObject(
  expected: Schema,
  actual: Schema,
  prefix: string,
  push: (cls: ChangeClass, change: string, argument?: string) => void,
): void {
  const pe = isJsonObject(expected.properties) ? expected.properties : {};
  const pa = isJsonObject(actual.properties) ? actual.properties : {};
  const re = new Set(Array.isArray(expected.required) ? expected.required.map(String) : []);
  const ra = new Set(Array.isArray(actual.required) ? actual.required.map(String) : []);
  for (const [name, schema] of Object.entries(pe)) {
    const arg = `${prefix}${name}`;
    const other = pa[name];
    if (other === undefined) {
      push('breaking', 'argument removed', arg);
      continue;
    }
    if (!re.has(name) && ra.has(name)) push('breaking', 'argument became required', arg);
    if (re.has(name) && !ra.has(name)) push('compatible', 'argument became optional', arg);
    compareArgument(isJsonObject(schema) ? schema : {}, isJsonObject(other) ? other : {}, arg, push);
  }
  for (const name of Object.keys(pa)) {
    if (name in pe) continue;
    push(
      ra.has(name) ? 'breaking' : 'compatible',
      `new ${ra.has(name) ? 'required' : 'optional'} argument`,
      `${prefix}${name}`,
    );
  }
  if (expected.additionalProperties !== false && actual.additionalProperties === false && prefix === '') {
    push('breaking', 'no longer accepts additional arguments');
  }
}

const itemsOf = (list: string, result: unknown): Map<string, Schema> => {
  const key =
    list === 'resources/list'
      ? 'resources'
      : list === 'resources/templates/list'
        ? 'resourceTemplates'
        : list.split('/')[0];
  const items =
    isJsonObject(result) && Array.isArray(result[key as string]) ? (result[key as string] as unknown[]) : [];
  const id = list.startsWith('resources/')
    ? (i: Schema) => String(i.uri ?? i.uriTemplate ?? i.name)
    : (i: Schema) => String(i.name);
  return new Map(items.filter(isJsonObject).map((item) => [id(item), item]));
};

/** Prompt arguments as a JSON Schema object, so they are judged by the same rules as tool arguments. */
const promptSchema = (prompt: Schema): Schema => {
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isJsonObject) : [];
  return {
    properties: Object.fromEntries(args.map((a) => [String(a.name), { description: a.description }])),
    required: args.filter((a) => a.required === true).map((a) => String(a.name)),
  };
};

/**
 * Compares a listing answer's result (`tools/list`, `prompts/list`, `resources/list`) item by item:
 * a removed item, a new required argument, a removed argument, a narrowed type, enum or bound are
 * breaking; a new item, a new optional argument, a widened type and a changed description are
 * compatible.
 *
 * @example
 * classifyListChanges('tools/list', golden.result, live.result)
 * // [{ class: 'breaking', list: 'tools/list', item: 'search', argument: 'limit', change: 'new required argument' }]
 */
export function classifyListChanges(list: string, expected: unknown, actual: unknown): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const want = itemsOf(list, expected);
  const got = itemsOf(list, actual);
  for (const [name, item] of want) {
    const push = (cls: ChangeClass, change: string, argument?: string): void => {
      changes.push({ class: cls, list, item: name, ...(argument !== undefined && { argument }), change });
    };
    const other = got.get(name);
    if (!other) {
      push('breaking', `${list.split('/')[0]?.replace(/s$/, '')} removed`);
      continue;
    }
    if (item.description !== other.description) push('compatible', 'description changed');
    if (item.title !== other.title) push('compatible', 'title changed');
    if (list === 'tools/list') {
      compareObject(
        isJsonObject(item.inputSchema) ? item.inputSchema : {},
        isJsonObject(other.inputSchema) ? other.inputSchema : {},
        '',
        push,
      );
      if (JSON.stringify(item.outputSchema) !== JSON.stringify(other.outputSchema)) {
        push(item.outputSchema === undefined ? 'compatible' : 'breaking', 'output schema changed');
      }
      if (JSON.stringify(item.annotations) !== JSON.stringify(other.annotations))
        push('compatible', 'annotations changed');
    } else if (list === 'prompts/list') {
      compareObject(promptSchema(item), promptSchema(other), '', push);
    } else if (item.mimeType !== other.mimeType)
      push('breaking', `mime type changed: ${String(item.mimeType)} -> ${String(other.mimeType)}`);
  }
  for (const name of got.keys()) {
    if (!want.has(name))
      changes.push({ class: 'compatible', list, item: name, change: `new ${list.split('/')[0]?.replace(/s$/, '')}` });
  }
  return changes;
}

/** A schema change as one line: `breaking: tool "search" argument "limit": new required argument`. */
export function formatSchemaChange(change: SchemaChange): string {
  const kind = change.list.split('/')[0]?.replace(/s$/, '') ?? 'item';
  const argument = change.argument !== undefined ? ` argument "${change.argument}"` : '';
  return `${change.class}: ${kind} "${change.item}"${argument}: ${change.change}`;
}
