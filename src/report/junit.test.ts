import { expect, test } from 'vitest';
import { junitXml } from './junit.js';

test('junitXml writes a failure with its evidence, a skipped case, and escapes what XML cannot hold', () => {
  const xml = junitXml([
    {
      name: 'mcp-golden check: gw <a & b>',
      ms: 1500,
      cases: [
        { name: 'unicode "é"', classname: 'check', ms: 20 },
        { name: 'tokens', classname: 'check', failure: { message: 'token 7 came back as "7"', details: 'a\nb\u0001' } },
        { name: 'resume', classname: 'check', skipped: 'stdio has no Last-Event-ID' },
      ],
    },
  ]);
  expect(xml).toContain('<testsuites name="mcp-golden" tests="3" failures="1" skipped="1" errors="0" time="1.500">');
  expect(xml).toContain('<testsuite name="mcp-golden check: gw &#60;a &#38; b&#62;" tests="3"');
  expect(xml).toContain('<testcase name="unicode &#34;é&#34;" classname="check" time="0.020"/>');
  expect(xml).toContain('<failure message="token 7 came back as &#34;7&#34;">a\nb</failure>');
  expect(xml).toContain('<skipped message="stdio has no Last-Event-ID"/>');
});
