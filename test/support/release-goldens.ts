import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordCall } from '../../src/record/record-call.js';
import { writeGolden } from '../../src/store/golden-file.js';

/** The server whose releases change its tools (test/support/release-server.mjs). */
export const RELEASE_SERVER = fileURLToPath(new URL('./release-server.mjs', import.meta.url));

/** The command line that serves `release` of it over stdio. */
export const releaseStdio = (release: string): string => `node ${RELEASE_SERVER} --stdio ${release}`;

/** Records release v1's `report` call and its `count` call (`countSteps` progress steps, token 7) into `dir`. */
export async function recordReleaseGoldens(dir: string, countSteps: number): Promise<void> {
  const target = { command: process.execPath, args: [RELEASE_SERVER, '--stdio', 'v1'], label: 'release-server v1' };
  await writeGolden(
    join(dir, 'report.jsonl'),
    await recordCall(target, { name: 'report', tool: 'report', arguments: { topic: 'golden' } }),
  );
  await writeGolden(
    join(dir, 'count.jsonl'),
    await recordCall(target, { name: 'count', tool: 'count', arguments: { steps: countSteps }, progressToken: 7 }),
  );
}
