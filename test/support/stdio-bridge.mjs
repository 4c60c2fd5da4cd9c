// A stdio gateway for the fault zoo: spawns its upstream (a stdio MCP server command, run by the
// shell) and relays lines both ways, on one process for the whole session.
//   node stdio-bridge.mjs <faithful|utf8-per-read> '<upstream command>'
// faithful:      bytes relayed as they are.
// utf8-per-read: each read from the upstream decoded as UTF-8 on its own and re-encoded, the bug that
//                turns characters split across reads into U+FFFD.
import { spawn } from 'node:child_process';

const [mode, command] = process.argv.slice(2);
if ((mode !== 'faithful' && mode !== 'utf8-per-read') || !command) {
  process.stderr.write("usage: stdio-bridge.mjs <faithful|utf8-per-read> '<upstream command>'\n");
  process.exit(2);
}
const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.on('data', (chunk) => {
  process.stdout.write(mode === 'faithful' ? chunk : chunk.toString('utf8'));
});
child.on('exit', (code) => process.exit(code ?? 1));
process.on('SIGTERM', () => child.kill('SIGTERM'));
