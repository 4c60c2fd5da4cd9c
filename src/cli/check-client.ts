import { GoldenError } from '../errors.js';
import { type CliIo, pathIn } from './cli-io.js';

/** What `check --client` reads from the parsed arguments. */
export interface ClientCheckArgs {
  readonly client: string;
  /** `--client-era` (legacy, modern or all) or `--eras all`. */
  readonly era: string | undefined;
  readonly only: readonly string[];
  readonly long: boolean;
  readonly json: string | undefined;
  readonly junit: string | undefined;
  readonly html: string | undefined;
  /** Options of the gateway check given with `--client`, which they do not go with. */
  readonly gatewayOptions: readonly string[];
}

/**
 * `mcp-golden check --client CMD`: judges an MCP client's streaming (each row starts its own
 * fault-injecting server and runs CMD against it). Exit 0 when no row fails, 1 when one does, 3
 * when the shell could not run CMD (no rows).
 */
export async function runClientCheckCommand(args: ClientCheckArgs, io: CliIo): Promise<number> {
  if (args.gatewayOptions.length > 0) {
    throw new GoldenError(
      'E_USAGE',
      `--client judges a client; ${args.gatewayOptions.map((o) => `--${o}`).join(', ')} ${args.gatewayOptions.length === 1 ? 'goes' : 'go'} with --gateway or --gateway-url. Run the two checks apart.`,
    );
  }
  const eras = args.era === 'legacy' || args.era === 'modern' ? ([args.era] as const) : (['legacy', 'modern'] as const);
  // The implementation loads here, after parsing: `--help` and usage errors load none of it.
  const impl = await import('./check-client-implementation.js');
  const release = impl.stopOnSignal('check', io);
  let report: Awaited<ReturnType<typeof impl.runClientCheck>>;
  try {
    report = await impl.runClientCheck({
      command: args.client,
      eras,
      ...(args.only.length > 0 && { only: args.only }),
      long: args.long,
      onProgress: ({ id, era, result }) => {
        if (result) io.stderr.write(`[mcp-golden] ${id} (${era}): ${result.verdict}\n`);
      },
    });
  } catch (error) {
    if (!(error instanceof impl.ClientSetupError)) throw error;
    io.stderr.write(`[mcp-golden] ${error.message}\n`);
    return 3;
  } finally {
    release();
  }
  io.stdout.write(`${impl.formatClientReport(report)}\n`);
  if (args.json) await impl.writeFileAtomic(pathIn(io, args.json), `${JSON.stringify(report, null, 2)}\n`);
  if (args.junit) await impl.writeFileAtomic(pathIn(io, args.junit), impl.junitXml(impl.clientJunit(report)));
  if (args.html) {
    const html = impl.timelineHtml(
      `mcp-golden check --client: ${report.client}`,
      impl.clientSummary(report),
      impl.clientSections(report),
    );
    await impl.writeFileAtomic(pathIn(io, args.html), html);
  }
  return report.pass ? 0 : 1;
}
