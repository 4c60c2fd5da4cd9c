import { expect, test } from 'vitest';
import { acceptRefusal } from './mcp-http-rules.js';

test('an Accept is judged for the method it comes with, also when the same header was judged just before', () => {
  const sseOnly = 'text/event-stream';
  const both = 'application/json, text/event-stream';
  // The verdict of the last Accept is kept for the next request that repeats it: the method is part of it.
  expect(acceptRefusal('GET', sseOnly)).toBeUndefined();
  expect(acceptRefusal('POST', sseOnly)?.status).toBe(406);
  expect(acceptRefusal('GET', sseOnly)).toBeUndefined();
  expect(acceptRefusal('POST', both)).toBeUndefined();
  expect(acceptRefusal('POST', both)).toBeUndefined();
  expect(acceptRefusal('POST', 'application/json')?.message).toBe(
    'Not Acceptable: expected Accept to list both application/json and text/event-stream, got "application/json".',
  );
  expect(acceptRefusal('POST', undefined)?.status).toBe(406);
  expect(acceptRefusal('GET', undefined)?.status).toBe(406);
});
