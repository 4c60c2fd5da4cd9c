import { describe, expect, test } from 'vitest';
import { isAllowedOrigin } from './origin-policy.js';

describe('isAllowedOrigin', () => {
  test('allows requests without an Origin and loopback origins on any port', () => {
    expect(isAllowedOrigin(undefined, [])).toBe(true);
    for (const origin of ['http://localhost', 'http://localhost:5173', 'https://127.0.0.1:8443', 'http://[::1]:3000'])
      expect(isAllowedOrigin(origin, []), origin).toBe(true);
  });

  test('refuses foreign, opaque and malformed origins unless listed', () => {
    for (const origin of [
      'https://evil.example',
      'null',
      'not a url',
      'http://localhost.evil.example',
      'file://localhost',
    ])
      expect(isAllowedOrigin(origin, []), origin).toBe(false);
    expect(isAllowedOrigin('https://app.example', ['https://app.example'])).toBe(true);
    expect(isAllowedOrigin('https://app.example:444', ['https://app.example'])).toBe(false);
    expect(isAllowedOrigin('https://anything.example', ['*'])).toBe(true);
  });
});
