// Preloaded (node --import) into a third-party server that listens on all interfaces: binds it to
// 127.0.0.1 instead, and prints the port it got on stderr so a test can use port 0.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const callback = typeof args.at(-1) === 'function' ? args.pop() : undefined;
    this.once('listening', () => process.stderr.write(`LISTENING ${this.address().port}\n`));
    return listen.call(this, Number(args[0]), '127.0.0.1', callback);
  }
  return listen.apply(this, args);
};
