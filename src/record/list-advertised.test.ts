import { expect, test } from 'vitest';
import { advertisedLists } from './list-advertised.js';

test('lists what the server advertises: resources and their templates, prompts; nothing else', () => {
  expect(advertisedLists({ tools: {}, resources: {}, prompts: {}, logging: {} })).toEqual([
    'resources/list',
    'resources/templates/list',
    'prompts/list',
  ]);
  expect(advertisedLists({ tools: {}, prompts: { listChanged: true } })).toEqual(['prompts/list']);
  expect(advertisedLists({ tools: {} })).toEqual([]);
  expect(advertisedLists(undefined)).toEqual([]);
});
