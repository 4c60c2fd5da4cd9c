// `verify` over 100 goldens of a fast local server (the reference server's chatty tool over HTTP),
// sequential and concurrent, beside what a peer recorder does: re-record each session and compare the
// server's messages with a plain JSON diff (no normalisation, no streaming or schema checks).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGolden, recordCall, verifyGoldens, writeGolden } from '../../dist/index.js';
import { scenarioOfGolden } from '../../dist/record/scenario-of-golden.js';
import { frameMessage } from '../../dist/transcript/frame-content.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `mcp-golden serve` in its own process, as a server under test would run. */
async function serveInChild() {
  const child = spawn(process.execPath, [`${root}dist/bin/mcp-golden.js`, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`mcp-golden serve exited with ${code}`)));
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** Adds the verify rows. */
export async function run(rows) {
  const server = await serveInChild();
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-bench-verify-'));
  try {
    const files = [];
    for (let i = 0; i < 100; i++) {
      const file = join(dir, `chatty-${String(i).padStart(3, '0')}.jsonl`);
      await writeGolden(file, await recordCall(server.url, { name: `chatty-${i}`, tool: 'chatty', requestId: i + 1 }));
      files.push(file);
    }
    const timed = async (fn) => {
      const started = performance.now();
      const out = await fn();
      return { s: (performance.now() - started) / 1000, out };
    };
    const serverMessages = (t) =>
      t.frames
        .filter((f) => f.dir === 'server->client')
        .map(frameMessage)
        .filter(Boolean)
        .map((m) => JSON.stringify(m));
    const peer = await timed(async () => {
      let differing = 0;
      for (const file of files) {
        const golden = await readGolden(file);
        const live = await recordCall(server.url, scenarioOfGolden(golden));
        if (JSON.stringify(serverMessages(golden)) !== JSON.stringify(serverMessages(live))) differing++;
      }
      return differing;
    });
    const sequential = await timed(() => verifyGoldens(files, { target: server.url, concurrency: 1 }));
    const cores = cpus().length;
    const concurrent = await timed(() => verifyGoldens(files, { target: server.url, concurrency: cores }));
    const failed = (run) => run.out.filter((v) => !v.pass).length;
    rows.add({
      figure: 'verify 100 chatty goldens over HTTP, sequential',
      samples: sequential.s,
      unit: 's',
      target: { op: '<', value: 20 },
      peer: { name: 're-record + JSON diff', samples: peer.s },
      note: `${failed(sequential)} failed; the peer flagged ${peer.out}`,
    });
    rows.add({
      figure: `verify 100 chatty goldens over HTTP, --concurrency ${cores}`,
      samples: concurrent.s,
      unit: 's',
      target: { op: '<', value: 20 },
      peer: { name: 'sequential', samples: sequential.s },
      note: `${failed(concurrent)} failed`,
    });
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
