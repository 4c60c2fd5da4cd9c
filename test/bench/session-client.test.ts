import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { progressCounter, rawConnection, responseReader } from '../../scripts/bench/session-client.mjs';

// The sessions bench judges a server by what this client counts and times: a miscount would show as
// an error of the server under test, so the client is tested here on its own.

const event = (n: number): string =>
  `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":${n}}}\n\n`;
const stream = Buffer.from(`${event(1)}${event(2)}${event(3)}data: {"result":{}}\n\n`);

describe('progressCounter', () => {
  it('counts every notification wherever the reads are cut', () => {
    for (let a = 0; a <= stream.length; a++) {
      for (let b = a; b <= stream.length; b += 7) {
        const count = progressCounter();
        const total = [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)].reduce(
          (sum, read) => sum + count(read),
          0,
        );
        expect(total, `cut at ${a} and ${b}`).toBe(3);
      }
    }
  });

  it('counts a name read a byte at a time, and no beginning of it that goes on otherwise', () => {
    const count = progressCounter();
    let total = 0;
    for (const byte of Buffer.from('notifications/prognotifications/progress')) total += count(Buffer.from([byte]));
    expect(total).toBe(1);
  });
});

/** The body `responseReader` hands on for `bytes` read in pieces cut at `cuts`, and the head it ends with. */
async function readCut(bytes: Buffer, cuts: number[]) {
  const reader = responseReader();
  const pieces: Buffer[] = [];
  const done = reader.expect((piece) => pieces.push(Buffer.from(piece)));
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(at, cut));
    at = cut;
  }
  const { status, headers } = await done;
  return { status, headers, body: Buffer.concat(pieces).toString() };
}

describe('responseReader', () => {
  const body = 'data: café\n\n';
  const chunked = Buffer.from(
    `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nMcp-Session-Id: s1\r\n\r\n5\r\ndata:\r\n${(Buffer.byteLength(body) - 5).toString(16)};ext=1\r\n${body.slice(5)}\r\n0\r\n\r\n`,
  );

  it('reads a chunked body cut at every byte', async () => {
    for (let cut = 0; cut <= chunked.length; cut++) {
      const read = await readCut(chunked, [cut]);
      expect(read, `cut at ${cut}`).toEqual({
        status: 200,
        headers: { 'transfer-encoding': 'chunked', 'mcp-session-id': 's1' },
        body,
      });
    }
  });

  it('reads a body of a given length, and an empty one', async () => {
    const sized = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    for (let cut = 0; cut <= sized.length; cut += 3) expect((await readCut(sized, [cut])).body).toBe(body);
    expect(await readCut(Buffer.from('HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n'), [])).toMatchObject({
      status: 202,
      body: '',
    });
  });

  it('fails the response on a chunk size that is not hex', async () => {
    const reader = responseReader();
    const done = reader.expect(() => undefined);
    reader.push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'));
    await expect(done).rejects.toThrow(/\[mcp-golden\] bench client: bad chunk size line "zz"/);
  });
});

describe('rawConnection', () => {
  it('sends requests one after another on one keep-alive connection, and stamps each read with its arrival', async () => {
    const sockets = new Set<unknown>();
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      let text = '';
      req.on('data', (chunk: Buffer) => {
        text += chunk;
      });
      req.on('end', () => {
        if (text === 'ack') {
          res.writeHead(202).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': req.headers['x-n'] ?? '' });
        res.write(event(1));
        setTimeout(() => res.end(event(2)), 30);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const connection = await rawConnection(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
      try {
        const reads: { text: string; t: number }[] = [];
        const sent = performance.now();
        const first = await connection.post('{}', { 'x-n': 'seven' }, (bytes, t) =>
          reads.push({ text: bytes.toString(), t }),
        );
        const ended = performance.now();
        expect(first).toEqual({ status: 200, session: 'seven' });
        expect(reads.map((r) => r.text).join('')).toBe(event(1) + event(2));
        // Each read carries the time it arrived: in order, between sending and the response's end.
        const times = reads.map((r) => r.t);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(Math.min(...times)).toBeGreaterThanOrEqual(sent);
        expect(Math.max(...times)).toBeLessThanOrEqual(ended);
        expect(await connection.post('ack', {}, () => undefined)).toEqual({ status: 202, session: undefined });
        expect(sockets.size).toBe(1);
      } finally {
        connection.close();
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
