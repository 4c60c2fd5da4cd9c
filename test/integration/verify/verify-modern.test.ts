import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lintTranscript } from '../../../src/lint/lint-transcript.js';
import { recordCall } from '../../../src/record/record-call.js';
import type { Scenario } from '../../../src/record/scenario.js';
import { startReferenceServer } from '../../../src/server/http-server.js';
import { readGolden, writeGolden } from '../../../src/store/golden-file.js';
import { verifyGoldens } from '../../../src/verify/verify-goldens.js';
import { SDK_V2_SCENARIOS, type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

let dir: string;
let live: SdkV2Server;
const files: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-modern-'));
  live = await startSdkV2Server({ legacy: 'reject' });
  for (const scenario of SDK_V2_SCENARIOS as Scenario[]) {
    const file = join(dir, `${scenario.name}.jsonl`);
    await writeGolden(file, await recordCall(live.url, { ...scenario, era: 'modern' }));
    files.push(file);
  }
});
afterAll(async () => {
  await live.close();
  await rm(dir, { recursive: true, force: true });
});

const text = (verdicts: Awaited<ReturnType<typeof verifyGoldens>>) => JSON.stringify(verdicts, null, 1);

describe('verify in the modern era', () => {
  test('re-runs modern goldens as a modern client against the live server: passes twice', async () => {
    for (let run = 0; run < 2; run++) {
      const verdicts = await verifyGoldens(files, { target: live.url, concurrency: 1 });
      expect(
        verdicts.map((v) => v.pass),
        text(verdicts),
      ).toEqual([true, true, true]);
    }
  });

  test('fails naming both texts when the server changes its answer', async () => {
    const changed = await startSdkV2Server({ legacy: 'reject', confirmWord: 'approved' });
    try {
      const [verdict] = await verifyGoldens([join(dir, 'modern-confirm.jsonl')], { target: changed.url });
      expect(verdict?.pass).toBe(false);
      expect(verdict?.differences).toEqual([
        {
          where: 'tools/call result',
          path: '$.result.content[0].text',
          expected: 'confirmed: {"ok":true}',
          actual: 'approved: {"ok":true}',
          kind: 'changed',
        },
      ]);
    } finally {
      await changed.close();
    }
  });

  test('classes -32022 when a 2025 golden meets a 2026-07-28-only server', async () => {
    const reference = await startReferenceServer();
    const file = join(dir, 'legacy-chatty.jsonl');
    try {
      await writeGolden(file, await recordCall(reference.url, { name: 'legacy-chatty', tool: 'chatty' }));
    } finally {
      await reference.close();
    }
    const [verdict] = await verifyGoldens([file], { target: live.url });
    expect(verdict?.pass).toBe(false);
    expect(verdict?.error).toContain(
      '-32022 UnsupportedProtocolVersion: the server does not speak the protocol version',
    );
  });
});

describe('lint in the modern era', () => {
  test('passes the modern goldens, with the resumption rules skipped as not in this era', async () => {
    for (const file of files) {
      const report = lintTranscript(await readGolden(file));
      expect(report.violations, file).toEqual([]);
      expect(report.skipped.map((s) => s.rule)).toEqual(['event-ids', 'resume-lossless']);
    }
  });

  test('names x-accel-buffering for a server whose SSE responses omit X-Accel-Buffering: no', async () => {
    const omitting = await startSdkV2Server({ legacy: 'reject', omitAccelHeader: true });
    try {
      const golden = await recordCall(omitting.url, {
        tool: 'progress',
        arguments: { steps: 2, step_ms: 10 },
        progressToken: 'p',
        era: 'modern',
      });
      const report = lintTranscript(golden);
      expect(report.violations.map((v) => v.rule)).toEqual(['x-accel-buffering']);
      expect(report.violations[0]?.got).toBe('no such header');
    } finally {
      await omitting.close();
    }
  });

  test('a legacy golden is not judged on the modern header', async () => {
    const reference = await startReferenceServer({ accelHeader: false });
    try {
      const golden = await recordCall(reference.url, {
        tool: 'progress',
        arguments: { steps: 2, step_ms: 10 },
        progressToken: 'p',
      });
      expect(lintTranscript(golden).violations.map((v) => v.rule)).not.toContain('x-accel-buffering');
    } finally {
      await reference.close();
    }
  });
});
