import { parseArgs } from 'node:util';
import { formatReport, timelineSvg } from '../check/report.js';
import { MIN_CHECK_TIMEOUT_MS, runGatewayCheck } from '../check/run-check.js';
import { GoldenError } from '../errors.js';
import { writeFileAtomic } from '../store/golden-file.js';
import { parseIntegerOption } from './parse-integer-option.js';
import { stopOnSignal } from './stop-on-signal.js';

export const CHECK_USAGE = `Usage: mcp-golden check --gateway '<command with {upstream} and {port}>' [options]
       mcp-golden check --gateway-url URL --upstream-port N [options]

Starts the reference upstream and the gateway, runs the streaming battery through the gateway,
stops everything it started, and prints one row per property. Exit code 1 on any failure.
  --gateway CMD               gateway command, run by /bin/sh -c (quotes, pipes, && and $VARS work as
                              in a terminal) in its own process group, stopped as a group at the end;
                              {upstream} becomes the upstream URL (or stdio command, shell-quoted),
                              {port} the port it must listen on
  --gateway-url URL           a gateway already running, forwarding to 127.0.0.1:--upstream-port
  --upstream-port N           port for the reference upstream (default: a free one)
  --upstream-transport T      http (default) or stdio: how the gateway reaches the upstream
  --client-transport T        http (default) or stdio: how the client reaches the gateway
  --gateway-path PATH         MCP endpoint path on the gateway (default /mcp)
  --no-accel-header           the upstream omits "X-Accel-Buffering: no"
  --timeout MS                longest wait for any message or for the gateway to listen
                              (default 10000, minimum ${MIN_CHECK_TIMEOUT_MS})
  --only TEXT                 run only properties whose name contains TEXT (repeatable)
  --long                      also run the long-call row (opt-in profile): one call of --long-ms
                              (default 75000, at least 70 s outlives common proxy timeouts) with
                              progress every --long-every ms (default 5000)
  --json FILE                 write the report as JSON
  --svg FILE                  write a timeline (upstream send vs client arrival) as SVG`;

function transport(name: string, value: string | undefined): 'http' | 'stdio' | undefined {
  if (value === undefined || value === 'http' || value === 'stdio') return value;
  throw new GoldenError('E_USAGE', `Invalid --${name} "${value}": expected http or stdio.`);
}

/** `mcp-golden check`. */
export async function checkCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      gateway: { type: 'string' },
      'gateway-url': { type: 'string' },
      'upstream-port': { type: 'string' },
      'upstream-transport': { type: 'string' },
      'client-transport': { type: 'string' },
      'gateway-path': { type: 'string' },
      'no-accel-header': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      only: { type: 'string', multiple: true },
      long: { type: 'boolean', default: false },
      'long-ms': { type: 'string' },
      'long-every': { type: 'string' },
      json: { type: 'string' },
      svg: { type: 'string' },
    },
  });
  if (values['gateway-url'] && values['upstream-port'] === undefined) {
    throw new GoldenError(
      'E_USAGE',
      '--gateway-url needs --upstream-port N: the port the running gateway forwards to, where the check starts the reference upstream.',
    );
  }
  const upstreamPort = parseIntegerOption('upstream-port', values['upstream-port'], 1, 65535);
  const timeoutMs = parseIntegerOption('timeout', values.timeout, MIN_CHECK_TIMEOUT_MS, 600_000);
  const longMs = parseIntegerOption('long-ms', values['long-ms'], 1000, 3_600_000) ?? 75_000;
  const longEvery = parseIntegerOption('long-every', values['long-every'], 100, 10_000) ?? 5000;
  const upstreamTransport = transport('upstream-transport', values['upstream-transport']);
  const clientTransport = transport('client-transport', values['client-transport']);
  const release = stopOnSignal('check');
  const report = await runGatewayCheck({
    ...(values.gateway !== undefined && { gateway: values.gateway }),
    ...(values['gateway-url'] !== undefined && { gatewayUrl: values['gateway-url'] }),
    ...(upstreamPort !== undefined && { upstreamPort }),
    ...(upstreamTransport && { upstreamTransport }),
    ...(clientTransport && { clientTransport }),
    ...(values['gateway-path'] !== undefined && { gatewayPath: values['gateway-path'] }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(values.only && { only: values.only }),
    ...(values.long && { long: { totalMs: longMs, everyMs: longEvery } }),
    upstream: { accelHeader: !values['no-accel-header'] },
    onProgress: ({ index, total, property, result }) => {
      const step = `[${index + 1}/${total}]`;
      process.stderr.write(result ? ` ${result.verdict}\n` : `[mcp-golden] ${step} ${property} ...`);
    },
  }).finally(release);
  process.stdout.write(`${formatReport(report)}\n`);
  if (values.json) await writeFileAtomic(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.svg) await writeFileAtomic(values.svg, timelineSvg(report));
  return report.pass ? 0 : 1;
}
