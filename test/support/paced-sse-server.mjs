// The plainest paced stream: a node:http server that writes one SSE event at each offset (ms, from
// argv, comma-separated) after the request, chaining setTimeout from one start as a careful
// hand-written server would. Prints its URL on stdout. Run beside a replay under test, it shows how
// late this machine's timers are at that moment, so a pacing test can tell the product from the load.
import { createServer } from 'node:http';

const offsets = (process.argv[2] ?? '').split(',').map(Number);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  const start = performance.now();
  let next = 0;
  const tick = () => {
    while (next < offsets.length && start + offsets[next] <= performance.now()) {
      response.write(`data: ${next}\n\n`);
      next++;
    }
    if (next >= offsets.length) {
      response.end();
      return;
    }
    setTimeout(tick, Math.max(0, start + offsets[next] - performance.now()));
  };
  setTimeout(tick, 0);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
process.on('SIGTERM', () => process.exit(0));
