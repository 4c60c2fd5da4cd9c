// An upstream in a process of its own for the bench (scripts/bench/session-upstream.mjs), driven over
// IPC, so the clients measuring it never share its event loop. Every child is killed if the bench exits.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const UPSTREAM = fileURLToPath(new URL('./session-upstream.mjs', import.meta.url));
/** Longest a child may take to answer one message (a 1,000-session run included). */
const ASK_TIMEOUT_MS = 180_000;

const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts an upstream child of `kind` serving the golden file `golden` (see session-upstream.mjs);
 * resolves once it is listening, with its URL, `ask(message, key)` and `stop()`. `profileDir`: write
 * a CPU profile of its measured part there.
 */
export async function startUpstream(kind, golden, profileDir) {
  const child = fork(UPSTREAM, [kind, golden], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--expose-gc', ...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : [])],
    env: { ...process.env, BENCH_CPU_PROF: profileDir ?? '' },
  });
  children.add(child);
  const ask = (message, key) =>
    new Promise((resolve, reject) => {
      const settle = (fn, value) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        fn(value);
      };
      const timer = setTimeout(
        () =>
          settle(reject, new Error(`[mcp-golden] bench upstream ${kind} gave no ${key} within ${ASK_TIMEOUT_MS} ms`)),
        ASK_TIMEOUT_MS,
      );
      const onMessage = (reply) => {
        if (reply !== null && typeof reply === 'object' && key in reply) settle(resolve, reply[key]);
      };
      const onExit = (code) => settle(reject, new Error(`[mcp-golden] bench upstream ${kind} exited (${code})`));
      child.on('message', onMessage);
      child.on('exit', onExit);
      if (message !== undefined) child.send(message);
    });
  const url = await ask(undefined, 'url');
  return {
    url,
    ask,
    async stop() {
      const exited = new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve),
      );
      if (child.connected) child.send('close');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}
