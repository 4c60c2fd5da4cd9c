// The byte-streaming forwarding of the test gateways (faithful-gateway.mjs, crashing-gateway.mjs).
import { request } from 'node:http';

/**
 * Sends `req` (method, path, headers) to `upstream` and streams every response byte back on `res`
 * as it arrives; a client that drops its stream drops the upstream stream too, as a real gateway
 * would. Returns the upstream request: the caller writes the body to it (`req.pipe(it)`, `it.end(body)`).
 */
export function forwardRequest(upstream, req, res, name) {
  const forward = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.on('data', (chunk) => res.write(chunk));
      answer.on('end', () => res.end());
      answer.on('error', () => res.destroy());
    },
  );
  forward.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`${name}: upstream failed: ${error.message}\n`);
  });
  res.on('close', () => forward.destroy());
  return forward;
}
