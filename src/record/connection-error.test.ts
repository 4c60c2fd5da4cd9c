import { describe, expect, test } from 'vitest';
import { statusHint } from './connection-error.js';

describe('statusHint', () => {
  test('401 without --header asks for credentials', () => {
    expect(statusHint(401)).toContain("pass them with --header 'Authorization: Bearer $TOKEN'");
  });

  test('403 with --header given says the credentials were refused, naming the header but not its value', () => {
    const hint = statusHint(403, { Authorization: 'Bearer s3cret' });
    expect(hint).toContain('refused the credentials sent (header Authorization)');
    expect(hint).not.toContain('pass them with --header');
    expect(hint).not.toContain('s3cret');
  });

  test('404 points at the path; other statuses get no hint', () => {
    expect(statusHint(404)).toContain('check the path in --target');
    expect(statusHint(500, { Authorization: 'x' })).toBe('');
  });
});
