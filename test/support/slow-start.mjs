#!/usr/bin/env node
// A start-up delay in front of any gateway command, as `npx -y` on a cold cache adds one: sleeps,
// then runs the command (by the shell) with this process's stdin, stdout and stderr.
//   node slow-start.mjs <delay-ms> '<command>' [<count-file> <fast-starts>]
// With a count file, the first <fast-starts> starts (counted across processes in that file) run
// at once, and every later one sleeps: a gateway that is ready for the check's first call and
// slow for the sessions after it.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const [delayArg, command, countFile, fastArg] = process.argv.slice(2);
if (!delayArg || !command) {
  process.stderr.write("usage: slow-start.mjs <delay-ms> '<command>' [<count-file> <fast-starts>]\n");
  process.exit(2);
}
let delay = Number(delayArg);
if (countFile) {
  appendFileSync(countFile, 'x');
  if (readFileSync(countFile, 'utf8').length <= Number(fastArg ?? 0)) delay = 0;
}
let child;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (child) child.kill(signal);
    else process.exit(0);
  });
}
await sleep(delay);
child = spawn(command, { shell: true, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
