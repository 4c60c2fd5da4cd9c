import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { parseScenario, parseScenarioList } from './scenario.js';
import { sessionScenarioJsonSchema } from './scenario-session.js';

const SESSION = {
  name: 'session',
  answers: { 'roots/list': { roots: [] } },
  steps: [
    { method: 'resources/read', params: { uri: 'demo://x' } },
    { tool: 'echo', arguments: { message: 'hi' }, progressToken: 'p' },
    { tool: 'echo', arguments: { message: 'again' } },
  ],
};

test('a session scenario reads as one Scenario: its steps kept, its first call on top', () => {
  const scenario = parseScenario(SESSION, '"session"');
  expect(scenario.steps).toHaveLength(3);
  expect(scenario).toMatchObject({ name: 'session', tool: 'echo', arguments: { message: 'hi' }, progressToken: 'p' });
  // Given back (as verify and recordCall do), it reads the same.
  expect(parseScenario(scenario, 'again')).toEqual(scenario);
});

test.each([
  [{ tool: 'echo', progressToken: 1.5 }, '"progressToken": must be a string or a safe integer'],
  [{ tool: 'echo', surprise: 1 }, 'unknown field "surprise"; expected one of name, description'],
  [{ tool: '' }, '"tool": a non-empty string'],
  [{ tool: 'p', progressToken: 't', dropAfter: 1, transport: 'stdio' }, '"dropAfter" needs the http transport'],
  [{ tool: 'p', timeoutMs: 0 }, '"timeoutMs": must be a whole number >= 1'],
  [{ tool: 'p', ignore: ['$..['] }, 'ignore'],
])('refuses a bad plain scenario through the same declaration: %j', (value, message) => {
  expect(() => parseScenario(value, '#2 in list.json')).toThrow(message);
});

test('a plain scenario stays valid and has no steps', () => {
  const [plain] = parseScenarioList([{ name: 'echo', tool: 'echo', arguments: { message: 'hi' } }], 'list');
  expect(plain).toEqual({ name: 'echo', tool: 'echo', arguments: { message: 'hi' } });
});

test.each([
  [{ name: 's', steps: [] }, '"steps": Too small'],
  [{ name: 's', steps: [{ method: 'resources/list' }] }, 'a session needs at least one step with "tool"'],
  [{ name: 's', steps: [{ method: 'tools/call', params: {} }] }, 'a tools/call is a step with "tool"'],
  [{ name: 's', steps: [{ tool: 'echo', cancelAfter: 2 }] }, 'need a "progressToken"'],
  [
    { name: 's', transport: 'stdio', steps: [{ tool: 'p', progressToken: 1, dropAfter: 1 }] },
    '"dropAfter" needs the http transport',
  ],
  [{ name: 's', tool: 'other', steps: [{ tool: 'echo' }] }, 'unknown field "tool"; expected one of name'],
  [{ name: 's', steps: [{ tool: 'echo', extra: 1 }] }, '"steps[0]"'],
])('refuses a bad session with E_SCENARIO naming the field: %j', (value, message) => {
  expect(() => parseScenario(value, '#1 in list.json')).toThrow(message);
  expect(() => parseScenario(value, '#1 in list.json')).toThrow('Invalid scenario #1 in list.json');
});

test('the published JSON Schema of a session comes from the same declaration', () => {
  const schema = sessionScenarioJsonSchema() as {
    anyOf: { properties: Record<string, unknown>; required: string[] }[];
  };
  const [plain, session] = schema.anyOf;
  expect(plain?.required).toEqual(['tool']);
  expect(session?.required).toEqual(['steps']);
  expect(JSON.stringify(session?.properties.steps)).toContain('"method"');
});

test('the published scenario.schema.json is the one generated from the zod declaration (`npm run schema`)', () => {
  const published: unknown = JSON.parse(readFileSync(new URL('./scenario.schema.json', import.meta.url), 'utf8'));
  expect(published).toEqual(JSON.parse(JSON.stringify(sessionScenarioJsonSchema())));
});
