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

/**
 * Where the matrix's own run differs from a user's project, and only there: the nginx script a user
 * saves from docs/gateway-authors.md (a test keeps that copy equal to test/support/nginx-gateway.sh),
 * `npx NAME` (which runs the project's node_modules/.bin/NAME, as here), and mcp-proxy 6.7.19 in a folder
 * of its own (here under the system temp folder; see npmGatewayAt).
 */
function asRunHere(gateway) {
  return gateway
    .replace('bash nginx-gateway.sh ', `bash ${join(root, 'test/support/nginx-gateway.sh')} `)
    .replace(/^npx ([\w-]+) /, (_, name) => `${bin(name)} `)
    .replace(
      `node ${MCP_PROXY_MODERN_MAIN} `,
      () => `node ${join(npmGatewayAt('mcp-proxy', MCP_PROXY_MODERN), 'dist/bin/mcp-proxy.mjs')} `,
    );
}

/** Where a user's project installs mcp-proxy 6.7.19 (its own folder: its tunnel dependency declares Node >= 22). */
const MCP_PROXY_MODERN_DIR = `mcp-proxy-${MCP_PROXY_MODERN}`;
const MCP_PROXY_MODERN_MAIN = `${MCP_PROXY_MODERN_DIR}/node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs`;

/** The commands a user's project runs once before the matrix's command lines work. */
export const SETUP = [
  `npm install --save-dev mcp-golden supergateway@${npmVersion('supergateway')} mcp-proxy@${npmVersion('mcp-proxy')} mcp-remote@${npmVersion('mcp-remote')}`,
  `npm install --prefix ${MCP_PROXY_MODERN_DIR} --no-save --engine-strict=false mcp-proxy@${MCP_PROXY_MODERN}`,
];

const FLAGS = [
  ['clientTransport', '--client-transport'],
  ['upstreamTransport', '--upstream-transport'],
  ['clientEra', '--client-era'],
  ['upstreamEra', '--upstream-era'],
];

/** A matrix column: its `npx mcp-golden check` command line as run from a user's project, and the options the matrix runs here. */
function column(id, name, mode, gateway, eras = {}) {
  const flags = FLAGS.filter(([key]) => eras[key]).map(([key, flag]) => `${flag} ${eras[key]}`);
  return {
    id,
    name,
    mode,
    command: `npx mcp-golden check ${[...flags, `--gateway '${gateway}'`].join(' ')}`,
    get options() {
      return { ...eras, gateway: asRunHere(gateway) };
    },
  };
}

/** Every gateway configuration of the compatibility matrix. */
export function realGateways() {
  const nginxV = nginxVersion();
  const nginx = `nginx ${nginxV} (Debian)`;
  const sg = `supergateway ${npmVersion('supergateway')}`;
  const remote = `mcp-remote ${npmVersion('mcp-remote')}`;
  const proxy67 = `mcp-proxy ${MCP_PROXY_MODERN}`;
  const remoteCmd = 'npx mcp-remote {upstream} --allow-http --transport http-only';
  const proxy67Cmd = `node ${MCP_PROXY_MODERN_MAIN} --host 127.0.0.1 --port {port} --server stream -- {upstream}`;
  const stdioUp = { upstreamTransport: 'stdio' };
  const stdioClient = { clientTransport: 'stdio' };
  return [
    ...(nginxV
      ? [
          column(
            'nginx-faithful',
            nginx,
            'reverse proxy, proxy_buffering off',
            'bash nginx-gateway.sh {upstream} {port} faithful',
          ),
          column(
            'nginx-faithful-modern',
            nginx,
            'reverse proxy, proxy_buffering off; client and upstream 2026-07-28',
            'bash nginx-gateway.sh {upstream} {port} faithful',
            { clientEra: 'modern', upstreamEra: 'modern' },
          ),
          column(
            'nginx-buffering',
            nginx,
            'reverse proxy, gzip + buffering on',
            'bash nginx-gateway.sh {upstream} {port} buffering',
          ),
        ]
      : []),
    column(
      'supergateway-stdio-to-http',
      sg,
      'stdio server → Streamable HTTP (stateful)',
      'npx supergateway --stdio "{upstream}" --outputTransport streamableHttp --stateful --port {port} --logLevel none',
      stdioUp,
    ),
    column(
      'supergateway-http-to-stdio',
      sg,
      'Streamable HTTP server → stdio client',
      'npx supergateway --streamableHttp {upstream} --logLevel none',
      stdioClient,
    ),
    column(
      'mcp-proxy-stdio-to-http',
      `mcp-proxy ${npmVersion('mcp-proxy')}`,
      'stdio server → Streamable HTTP',
      'npx mcp-proxy --host 127.0.0.1 --port {port} --server stream -- {upstream}',
      stdioUp,
    ),
    column('mcp-remote-http-to-stdio', remote, 'Streamable HTTP server → stdio client', remoteCmd, stdioClient),
    // The dual-era bridges (the check's client or upstream speaks 2026-07-28 on its leg). A stdio client
    // leg is always 2025-11-25 (the check's client speaks 2026-07-28 over HTTP only); a stdio upstream
    // speaks the era `serve --stdio --era` serves.
    column(
      'mcp-remote-auto-modern-upstream',
      remote,
      'Streamable HTTP server → stdio client, `--protocol auto`; upstream 2026-07-28, client 2025-11-25',
      `${remoteCmd} --protocol auto`,
      { ...stdioClient, upstreamEra: 'modern' },
    ),
    // The legacy upstream is 2025-11-25 only (it refuses server/discover as SDK v1 does): mcp-remote's
    // probe finds no 2026-07-28 there and it falls back to the 2025 handshake.
    column(
      'mcp-remote-auto-legacy-upstream',
      remote,
      'Streamable HTTP server → stdio client, `--protocol auto`; upstream 2025-11-25 only (its fallback), client 2025-11-25',
      `${remoteCmd} --protocol auto`,
      { ...stdioClient, upstreamEra: 'legacy' },
    ),
    // An upstream serving both eras, as SDK v2 servers do: the probe finds 2026-07-28 there, so the
    // upstream leg speaks 2026-07-28 (its audit rows carry the Mcp-* headers and no session).
    column(
      'mcp-remote-auto-dual-upstream',
      remote,
      'Streamable HTTP server → stdio client, `--protocol auto`; upstream dual-era (it picks 2026-07-28), client 2025-11-25',
      `${remoteCmd} --protocol auto`,
      { ...stdioClient, upstreamEra: 'dual' },
    ),
    column(
      'mcp-proxy-modern-client',
      proxy67,
      'stdio server → Streamable HTTP (`--modern`, its default); upstream 2025-11-25, client 2026-07-28',
      proxy67Cmd,
      { ...stdioUp, clientEra: 'modern' },
    ),
    // mcp-proxy in front of a 2026-07-28 stdio server, the deployment its `--upstreamProtocol auto` is
    // for: it probes the spawned server with server/discover and speaks 2026-07-28 to it.
    column(
      'mcp-proxy-auto-modern-upstream',
      proxy67,
      'stdio server → Streamable HTTP, `--upstreamProtocol auto`; upstream and client 2026-07-28',
      proxy67Cmd.replace(' -- {upstream}', ' --upstreamProtocol auto -- {upstream}'),
      { ...stdioUp, clientEra: 'modern', upstreamEra: 'modern' },
    ),
    column(
      'mcp-proxy-modern-legacy-client',
      proxy67,
      'stdio server → Streamable HTTP (`--modern`, its default); upstream and client 2025-11-25',
      proxy67Cmd,
      stdioUp,
    ),
  ];
}
