// Real third-party gateways the check runs against: one list for `npm run matrix` and the e2e tests.
// Each runs here offline on 127.0.0.1; versions are read from what is installed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);
const npmVersion = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** nginx's version, or undefined when nginx is not installed. */
export function nginxVersion() {
  const run = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  return `${run.stdout ?? ''}${run.stderr ?? ''}`.match(/nginx\/(\S+)/)?.[1];
}

/** Every gateway configuration of the compatibility matrix, with the check options that start it. */
export function realGateways() {
  const nginx = `bash ${join(root, 'test/support/nginx-gateway.sh')}`;
  const nginxV = nginxVersion();
  const sg = `supergateway ${npmVersion('supergateway')}`;
  return [
    ...(nginxV
      ? [
          {
            id: 'nginx-faithful',
            name: `nginx ${nginxV} (Debian)`,
            mode: 'reverse proxy, proxy_buffering off',
            options: { gateway: `${nginx} {upstream} {port} faithful` },
          },
          {
            id: 'nginx-buffering',
            name: `nginx ${nginxV} (Debian)`,
            mode: 'reverse proxy, gzip + buffering on',
            options: { gateway: `${nginx} {upstream} {port} buffering` },
          },
        ]
      : []),
    {
      id: 'supergateway-stdio-to-http',
      name: sg,
      mode: 'stdio server → Streamable HTTP (stateful)',
      options: {
        gateway: `${bin('supergateway')} --stdio "{upstream}" --outputTransport streamableHttp --stateful --port {port} --logLevel none`,
        upstreamTransport: 'stdio',
      },
    },
    {
      id: 'supergateway-http-to-stdio',
      name: sg,
      mode: 'Streamable HTTP server → stdio client',
      options: {
        gateway: `${bin('supergateway')} --streamableHttp {upstream} --logLevel none`,
        clientTransport: 'stdio',
      },
    },
    {
      id: 'mcp-proxy-stdio-to-http',
      name: `mcp-proxy ${npmVersion('mcp-proxy')}`,
      mode: 'stdio server → Streamable HTTP',
      options: {
        gateway: `${bin('mcp-proxy')} --host 127.0.0.1 --port {port} --server stream -- {upstream}`,
        upstreamTransport: 'stdio',
      },
    },
    {
      id: 'mcp-remote-http-to-stdio',
      name: `mcp-remote ${npmVersion('mcp-remote')}`,
      mode: 'Streamable HTTP server → stdio client',
      options: {
        gateway: `${bin('mcp-remote')} {upstream} --allow-http --transport http-only`,
        clientTransport: 'stdio',
      },
    },
  ];
}
