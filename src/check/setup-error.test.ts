import { describe, expect, test } from 'vitest';
import { startFix } from './setup-error.js';

const SUPERGATEWAY = "supergateway --stdio '{upstream}' --outputTransport streamableHttp --port {port}";
// What supergateway 4.0.0 wrote when the check gave it the upstream's URL for a stdio command.
const RAN_URL = '[supergateway] Child stderr: /bin/sh: 1: http://127.0.0.1:37419/mcp: not found\n';

describe('startFix: the likely fix of a gateway that did not start', () => {
  test('a gateway that ran the upstream URL as a command is told to use --upstream-transport stdio', () => {
    const fix = startFix(SUPERGATEWAY, 'http', 'http', { silent: false, timeoutMs: 5000, output: RAN_URL });
    expect(fix).toMatch(/^Likely fix: the gateway ran \{upstream\}, the upstream's URL, as a command/);
    expect(fix).toContain('Add --upstream-transport stdio');
    const spawned = 'Error: spawn http://127.0.0.1:40001/mcp ENOENT';
    expect(startFix(SUPERGATEWAY, 'http', 'http', { silent: false, timeoutMs: 5000, output: spawned })).toContain(
      '--upstream-transport stdio',
    );
  });

  test('other output, or a stdio upstream already, keeps the general fix', () => {
    for (const [transport, output] of [
      ['http', 'listening on 127.0.0.1:1234\n'],
      ['stdio', RAN_URL],
    ] as const) {
      const fix = startFix(SUPERGATEWAY, transport, 'http', { silent: false, timeoutMs: 5000, output });
      expect(fix).not.toContain('ran {upstream}');
      expect(fix).toContain('Run the command above in a terminal');
    }
  });
});
