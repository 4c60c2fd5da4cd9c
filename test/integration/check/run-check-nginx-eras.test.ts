import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCli } from '../../support/cli.js';

const NGINX = fileURLToPath(new URL('../../support/nginx-gateway.sh', import.meta.url));
const hasNginx = spawnSync('nginx', ['-v']).status === 0;

/** The table of one era combination in `--eras all` output. */
function table(stdout: string, client: string, upstream: string): string {
  return stdout.split(`== client era ${client}, upstream era ${upstream}\n`)[1]?.split('\n== ')[0] ?? '';
}

describe.skipIf(!hasNginx)('a plain nginx, --eras all', () => {
  test('no FAIL where the eras agree or the upstream speaks both; "does not bridge eras" once for each combination it cannot bridge', async () => {
    const result = await runCli(['check', '--gateway', `bash ${NGINX} {upstream} {port} faithful`, '--eras', 'all'], {
      timeoutMs: 600_000,
    });
    for (const [client, upstream] of [
      ['legacy', 'legacy'],
      ['modern', 'modern'],
      ['modern', 'dual'],
    ]) {
      const shown = table(result.stdout, client as string, upstream as string);
      expect(shown, `${client} -> ${upstream}`).toMatch(/\d+ passed, 0 failed/);
      expect(shown).not.toMatch(/\| FAIL \|/);
    }
    for (const [client, upstream] of [
      ['legacy', 'modern'],
      ['modern', 'legacy'],
    ]) {
      const shown = table(result.stdout, client as string, upstream as string);
      expect(shown.match(/does not bridge/g) ?? []).toHaveLength(2); // the finding, and the last line
      expect(shown).toMatch(/^finding: the gateway does not bridge /m);
      expect(shown).toMatch(/0 passed, 0 failed, \d+ not applicable: the gateway does not bridge eras/);
    }
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(
      /^overall, 5 tables: 5 passed \(2 of them do not bridge eras/,
    );
    expect(result.code).toBe(0);
  }, 620_000);
});
