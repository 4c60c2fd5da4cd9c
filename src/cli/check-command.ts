import type { CheckReport } from '../check/vocabulary.js';
import { GoldenError } from '../errors.js';
import { runClientCheckCommand } from './check-client.js';
import { pathIn } from './cli-io.js';
import { defineCommand } from './command-spec.js';

/**
 * The battery's floor for `--timeout` (check/run-check.ts `MIN_CHECK_TIMEOUT_MS`, which refuses less;
 * run-cli.test.ts holds the two equal): declared here so that `check --help` loads no check code.
 */
export const MIN_TIMEOUT_MS = 2000;

const TRANSPORTS = ['http', 'stdio'];
const ERAS = ['legacy', 'modern'];

/** An era option's value; the declaration's `choices` already refused anything else. */
function era(value: string | undefined): 'legacy' | 'modern' | undefined {
  return value === 'legacy' || value === 'modern' ? value : undefined;
}

/** An upstream era option's value; the declaration's `choices` already refused anything else. */
function upstreamEraValue(value: string | undefined): 'legacy' | 'modern' | 'dual' | undefined {
  return value === 'dual' ? value : era(value);
}

/** The combinations `--eras all` runs, client era first: each era on its own, both mixed ones, and a modern client before a server of both eras. */
const ALL_ERAS = [
  ['legacy', 'legacy'],
  ['legacy', 'modern'],
  ['modern', 'legacy'],
  ['modern', 'modern'],
  ['modern', 'dual'],
] as const;

/** A transport option's value; the declaration's `choices` already refused anything else. */
function transport(value: string | undefined): 'http' | 'stdio' | undefined {
  return value === 'http' || value === 'stdio' ? value : undefined;
}

/** `mcp-golden check`. */
export const checkCommand = defineCommand({
  name: 'check',
  summary: 'check whether a gateway forwards MCP streaming faithfully, or a client survives streaming faults',
  description: `Starts the reference upstream and the gateway, runs the streaming battery through the gateway,
stops everything it started, and prints one row per property. Exit code 1 on any failure; 3 when the
gateway could not be set up (it did not start, exited, or did not take a first call), with no rows.
With --client CMD: for each row, starts a fault-injecting MCP server and runs CMD against it (the
contract: docs/client-authors.md, "Checking a client"); exit 1 when a row fails, 3 when CMD never
started as a client (the first row's client exited before any request or contract line), with no rows.`,
  options: {
    client: {
      type: 'string',
      value: 'CMD',
      description:
        'judge an MCP client instead of a gateway: CMD runs by /bin/sh -c once per row and era, {url} becoming the MCP endpoint URL (appended as the last argument when CMD has no {url}), with MCP_GOLDEN_PLAN, MCP_GOLDEN_SCENARIO and MCP_CONFORMANCE_PROTOCOL_VERSION set; it prints one JSON line per progress, result, error or abort',
    },
    gateway: {
      type: 'string',
      value: 'CMD',
      description:
        'gateway command, run by /bin/sh -c (quotes, pipes, && and $VARS work as in a terminal) in its own process group, stopped as a group at the end; {upstream} becomes the upstream URL (or stdio command, shell-quoted), {port} the port it must listen on; {upstream2}, if present, the URL of a second upstream replica (the session affinity row)',
    },
    'gateway-url': {
      type: 'string',
      value: 'URL',
      description: 'a gateway already running, forwarding to 127.0.0.1:--upstream-port',
    },
    'upstream-port': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 65535 },
      description: 'port for the reference upstream (default: a free one)',
    },
    'upstream2-port': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 65535 },
      description:
        'with --gateway-url: port of a second upstream replica the running gateway also forwards to (runs the session affinity row)',
    },
    'idle-budget-ms': {
      type: 'string',
      value: 'MS',
      integer: { min: 100, max: 600_000 },
      description:
        "how long the idle row's call stays silent before its result (modern upstream: no response headers until then) (default 3000)",
    },
    'upstream-transport': {
      type: 'string',
      value: 'T',
      choices: TRANSPORTS,
      description: 'how the gateway reaches the upstream (default http)',
    },
    'client-transport': {
      type: 'string',
      value: 'T',
      choices: TRANSPORTS,
      description: 'how the client reaches the gateway (default http)',
    },
    'client-era': {
      type: 'string',
      value: 'ERA',
      choices: [...ERAS, 'all'],
      description:
        "protocol era the check's client speaks to the gateway: legacy (2025-11-25) or modern (2026-07-28, HTTP only) (default legacy); with --client, the era the client under check must speak: legacy, modern or all (default all: each row in every era it applies to)",
    },
    'upstream-era': {
      type: 'string',
      value: 'ERA',
      choices: [...ERAS, 'dual'],
      description:
        'era of the reference upstream, over HTTP or stdio: legacy (2025-11-25 only), modern (2026-07-28 only) or dual (both; over stdio the first message picks the era of each upstream process) (default legacy)',
    },
    'require-bridge': {
      type: 'boolean',
      description:
        'a gateway that does not bridge the client era to the upstream era fails (exit 1); without it that finding alone exits 0',
    },
    eras: {
      type: 'string',
      value: 'all',
      choices: ['all'],
      description:
        'run the client/upstream era combinations a bridge is judged on (legacy/legacy, legacy/modern, modern/legacy, modern/modern, modern/dual), one table each, then an overall line (exit 1 if any fails); --json, --junit and --html hold every table',
    },
    'gateway-path': { type: 'string', value: 'PATH', description: 'MCP endpoint path on the gateway (default /mcp)' },
    'no-accel-header': { type: 'boolean', description: 'the upstream omits "X-Accel-Buffering: no"' },
    timeout: {
      type: 'string',
      value: 'MS',
      integer: { min: MIN_TIMEOUT_MS, max: 600_000 },
      description: 'longest wait for any message or for the gateway to listen (default 10000)',
    },
    only: {
      type: 'string',
      value: 'TEXT',
      multiple: true,
      description: 'run only properties whose name contains TEXT',
    },
    long: {
      type: 'boolean',
      description:
        'also run the long rows (opt-in, minutes): the long-call row, one call of --long-ms with progress every --long-every ms; with --client, progress-keeps-alive, progress-endless, silent-then-result(-comments), timeout-cancels',
    },
    'long-ms': {
      type: 'string',
      value: 'MS',
      integer: { min: 1000, max: 3_600_000 },
      default: '75000',
      description: 'length of the --long call (at least 70 s outlives common proxy timeouts)',
    },
    'long-every': {
      type: 'string',
      value: 'MS',
      integer: { min: 100, max: 10_000 },
      default: '5000',
      description: 'progress interval of the --long call',
    },
    json: { type: 'string', value: 'FILE', description: 'write the report as JSON' },
    junit: { type: 'string', value: 'FILE', description: 'write a JUnit XML report: one test case per row' },
    html: {
      type: 'string',
      value: 'FILE',
      description: "write one self-contained HTML page: each call's upstream and client lanes on a shared time axis",
    },
    svg: { type: 'string', value: 'FILE', description: 'write a timeline (upstream send vs client arrival) as SVG' },
  },
  epilog: `Examples:
  mcp-golden check --gateway '<command with {upstream} and {port}>' [options]
  mcp-golden check --gateway-url URL --upstream-port N [options]
  mcp-golden check --client 'node my-client.mjs' [--client-era legacy|modern|all] [--only TEXT] [--json FILE]`,
  async run(args, io) {
    const client = args.string('client');
    if (client !== undefined) {
      const gatewayOnly = ['gateway', 'gateway-url', 'upstream-port', 'upstream2-port', 'upstream-era', 'svg'] as const;
      return runClientCheckCommand(
        {
          client,
          era: args.string('client-era') ?? args.string('eras'),
          only: args.strings('only'),
          long: args.boolean('long'),
          json: args.string('json'),
          junit: args.string('junit'),
          html: args.string('html'),
          gatewayOptions: gatewayOnly.filter((name) => args.string(name) !== undefined),
        },
        io,
      );
    }
    if (args.string('client-era') === 'all') {
      throw new GoldenError(
        'E_USAGE',
        '--client-era all goes with --client; the gateway check runs every era combination with --eras all.',
      );
    }
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const {
      formatReport,
      overallLine,
      timelineSvg,
      runGatewayCheck,
      CheckSetupError,
      timelineHtml,
      junitXml,
      writeFileAtomic,
      checkJunit,
      checkSections,
      stopOnSignal,
    } = await import('./check-implementation.js');
    if (args.string('gateway-url') && args.string('upstream-port') === undefined) {
      throw new GoldenError(
        'E_USAGE',
        '--gateway-url needs --upstream-port N: the port the running gateway forwards to, where the check starts the reference upstream.',
      );
    }
    const upstreamPort = args.integer('upstream-port');
    const upstream2Port = args.integer('upstream2-port');
    const idleBudgetMs = args.integer('idle-budget-ms');
    if (upstream2Port !== undefined && !args.string('gateway-url')) {
      throw new GoldenError(
        'E_USAGE',
        '--upstream2-port goes with --gateway-url (a gateway already running); with --gateway, put {upstream2} in the command where the gateway takes its second upstream.',
      );
    }
    const timeoutMs = args.integer('timeout');
    const longMs = args.integer('long-ms') ?? 75_000;
    const longEvery = args.integer('long-every') ?? 5000;
    const upstreamTransport = transport(args.string('upstream-transport'));
    const clientTransport = transport(args.string('client-transport'));

    const gateway = args.string('gateway');
    const gatewayUrl = args.string('gateway-url');
    const gatewayPath = args.string('gateway-path');
    const only = args.strings('only');
    const clientEra = era(args.string('client-era'));
    const upstreamEra = upstreamEraValue(args.string('upstream-era'));
    if (args.string('eras') !== undefined) {
      if (clientEra || upstreamEra) {
        throw new GoldenError(
          'E_USAGE',
          '--eras all runs every combination: give it without --client-era and --upstream-era, or give those without --eras.',
        );
      }
      if (upstreamTransport === 'stdio' || clientTransport === 'stdio') {
        throw new GoldenError(
          'E_USAGE',
          "--eras all runs over HTTP legs only: the check's client speaks 2026-07-28 over HTTP only, and a stdio upstream's refusal of the other era is not read as the 'does not bridge eras' finding. Drop --client-transport stdio and --upstream-transport stdio, or run one combination with --client-era and --upstream-era (--upstream-transport stdio --upstream-era modern|dual works).",
        );
      }
      if (args.string('svg') !== undefined) {
        throw new GoldenError(
          'E_USAGE',
          '--eras all draws no single SVG timeline (one per combination would overwrite each other); got --svg. Use --html, which holds every table, or run one combination (--client-era E --upstream-era E) with --svg.',
        );
      }
    }
    const combinations = args.string('eras') !== undefined ? ALL_ERAS : [[clientEra, upstreamEra] as const];
    let pass = true;
    const reports: CheckReport[] = [];
    for (const [client, upstreamOf] of combinations) {
      const release = stopOnSignal('check', io);
      const outcome = await runGatewayCheck({
        ...(gateway !== undefined && { gateway }),
        ...(gatewayUrl !== undefined && { gatewayUrl }),
        ...(upstreamPort !== undefined && { upstreamPort }),
        ...(upstream2Port !== undefined && { upstream2Port }),
        ...(idleBudgetMs !== undefined && { idleBudgetMs }),
        ...(upstreamTransport && { upstreamTransport }),
        ...(clientTransport && { clientTransport }),
        ...(gatewayPath !== undefined && { gatewayPath }),
        ...(timeoutMs !== undefined && { timeoutMs }),
        ...(only.length > 0 && { only }),
        ...(args.boolean('long') && { long: { totalMs: longMs, everyMs: longEvery } }),
        ...(client && { clientEra: client }),
        ...(upstreamOf && { upstreamEra: upstreamOf }),
        upstream: { accelHeader: !args.boolean('no-accel-header') },
        ...(args.boolean('require-bridge') && { requireBridge: true }),
        onProgress: ({ index, total, property, result }) => {
          const step = `[${index + 1}/${total}]`;
          io.stderr.write(result ? ` ${result.verdict}\n` : `[mcp-golden] ${step} ${property} ...`);
        },
      })
        .catch((error: unknown) => {
          if (error instanceof CheckSetupError) return error;
          throw error;
        })
        .finally(release);
      if (outcome instanceof CheckSetupError) {
        // Nothing was judged: one message, no table, and an exit code apart from a verdict's 1.
        io.stderr.write(`[mcp-golden] ${outcome.message}\n`);
        return 3;
      }
      reports.push(outcome);
      if (combinations.length > 1) io.stdout.write(`\n== client era ${client}, upstream era ${upstreamOf}\n`);
      io.stdout.write(`${formatReport(outcome)}\n`);
      pass &&= outcome.pass;
    }
    const [report] = reports;
    if (!report) return 1;
    // After several tables, one line says what the exit code says.
    const summary = reports.length > 1 ? overallLine(reports) : (formatReport(report).split('\n').at(-1) ?? '');
    if (reports.length > 1) io.stdout.write(`\n${summary}\n`);
    const json = args.string('json');
    const svg = args.string('svg');
    const several = { pass, reports };
    if (json)
      await writeFileAtomic(pathIn(io, json), `${JSON.stringify(reports.length > 1 ? several : report, null, 2)}\n`);
    if (svg) await writeFileAtomic(pathIn(io, svg), timelineSvg(report));
    const junit = args.string('junit');
    if (junit) await writeFileAtomic(pathIn(io, junit), junitXml(reports.flatMap(checkJunit)));
    const html = args.string('html');
    if (html) {
      const sections = reports.flatMap(checkSections);
      await writeFileAtomic(pathIn(io, html), timelineHtml(`mcp-golden check: ${report.gateway}`, summary, sections));
    }
    return pass ? 0 : 1;
  },
});
