// Preloaded (`node --import`) into a third-party server that listens on a fixed port on every
// interface: every listen binds 127.0.0.1 on a free port instead, and the port is printed to
// stderr as `mcp-golden-listening <port>` so the test can connect to it.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const callback = typeof args.at(-1) === 'function' ? args.at(-1) : undefined;
  this.once('listening', () => process.stderr.write(`mcp-golden-listening ${this.address().port}\n`));
  return listen.call(this, 0, '127.0.0.1', callback);
};
