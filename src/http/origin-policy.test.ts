import { describe, expect, test } from 'vitest';
import { isAllowedOrigin } from './origin-policy.js';

describe('isAllowedOrigin', () => {
  test.each([
    [undefined, [], true],
    ['http://localhost:5173', [], true],
    ['http://127.0.0.1', [], true],
    ['http://[::1]:8080', [], true],
    ['https://evil.example', [], false],
    ['http://localhost.evil.example', [], false],
    ['http://127.0.0.1.nip.io', [], false],
    ['null', [], false],
    ['not a url', [], false],
    ['file:///etc/passwd', [], false],
    ['https://app.example', ['https://app.example'], true],
    ['https://app.example:443', ['https://app.example'], true],
    ['https://app.example:8443', ['https://app.example'], false],
    ['http://app.example', ['https://app.example'], false],
    ['https://other.example', ['*'], true],
    ['null', ['*'], true],
  ] as const)('%s with %j -> %s', (origin, allowed, expected) => {
    expect(isAllowedOrigin(origin, allowed)).toBe(expected);
  });
});
