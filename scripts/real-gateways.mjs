// Real third-party gateways the check runs against: one list for `npm run matrix` and the e2e tests.
// Each runs here offline on 127.0.0.1; versions are read from what is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);
const npmVersion = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/**
 * A gateway pinned at a version other than the devDependency of its name (mcp-proxy 6.7 serves the
 * 2026-07-28 era; the matrix keeps 6.2.0 too): installed once from npm into the matrix's own prefix
 * under the system temp folder, outside this package's node_modules and lock (its own dependencies are
 * resolved at install time). Engines are not enforced there, as this repository's .npmrc does: mcp-proxy
 * 6.7.19 runs on Node 20, but its tunnel dependency pipenet 1.4.3 declares Node >= 22. Returns the
 * package's folder; throws a clear error when npm cannot install it.
 */
export function npmGatewayAt(name, version) {
  const prefix = join(tmpdir(), 'mcp-golden-matrix', `${name}@${version}`);
  const dir = join(prefix, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) {
    process.stderr.write(`[matrix] installing ${name}@${version} into ${prefix}\n`);
    const run = spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--engine-strict=false', `${name}@${version}`],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) {
      throw new Error(`[mcp-golden] npm could not install ${name}@${version} into ${prefix}:\n${run.stderr}`);
    }
  }
  const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  if (installed !== version) {
    throw new Error(`[mcp-golden] ${prefix} holds ${name} ${installed}, expected ${version}: delete that folder`);
  }
  return dir;
}

/** The mcp-proxy release whose stream endpoint serves 2026-07-28 clients beside 2025 ones (`--modern`). */
export const MCP_PROXY_MODERN = '6.7.19';

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
    // The dual-era bridges (the check's client or upstream speaks 2026-07-28 on its leg). An era on a
    // stdio leg is always 2025-11-25: the check speaks 2026-07-28 over HTTP only.
    {
      id: 'mcp-remote-auto-modern-upstream',
      name: `mcp-remote ${npmVersion('mcp-remote')}`,
      mode: 'Streamable HTTP server → stdio client, `--protocol auto`; upstream 2026-07-28, client 2025-11-25',
      options: {
        gateway: `${bin('mcp-remote')} {upstream} --allow-http --transport http-only --protocol auto`,
        clientTransport: 'stdio',
        upstreamEra: 'modern',
      },
    },
    {
      id: 'mcp-remote-auto-legacy-upstream',
      name: `mcp-remote ${npmVersion('mcp-remote')}`,
      // The check's default upstream serves both eras, as SDK v2 servers do: mcp-remote's server/discover
      // probe finds 2026-07-28 there, so this column's upstream leg speaks 2026-07-28 too (its audit rows
      // carry the Mcp-* headers and no session). The check has no 2025-only HTTP upstream to fall back on.
      mode: 'Streamable HTTP server → stdio client, `--protocol auto`; upstream dual-era (it picks 2026-07-28), client 2025-11-25',
      options: {
        gateway: `${bin('mcp-remote')} {upstream} --allow-http --transport http-only --protocol auto`,
        clientTransport: 'stdio',
      },
    },
    {
      id: 'mcp-proxy-modern-client',
      name: `mcp-proxy ${MCP_PROXY_MODERN}`,
      mode: 'stdio server → Streamable HTTP (`--modern`, its default); upstream 2025-11-25, client 2026-07-28',
      get options() {
        return { ...mcpProxyModern(), clientEra: 'modern' };
      },
    },
    {
      id: 'mcp-proxy-modern-legacy-client',
      name: `mcp-proxy ${MCP_PROXY_MODERN}`,
      mode: 'stdio server → Streamable HTTP (`--modern`, its default); upstream and client 2025-11-25',
      get options() {
        return mcpProxyModern();
      },
    },
  ];
}

/** mcp-proxy 6.7 in front of the check's stdio upstream (installed on first use; see npmGatewayAt). */
function mcpProxyModern() {
  const main = join(npmGatewayAt('mcp-proxy', MCP_PROXY_MODERN), 'dist/bin/mcp-proxy.mjs');
  return {
    gateway: `node ${main} --host 127.0.0.1 --port {port} --server stream -- {upstream}`,
    upstreamTransport: 'stdio',
  };
}
