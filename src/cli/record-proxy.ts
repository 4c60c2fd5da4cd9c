import { join } from 'node:path';
import { GoldenError } from '../errors.js';
import { startRecordingProxy } from '../record/recording-proxy.js';
import { splitSessions } from '../record/split-sessions.js';
import { httpTargetParts, secretPatterns } from '../record/target-secrets.js';
import { writeGolden } from '../store/golden-file.js';
import { SECRET_HEADERS } from '../transcript/redact.js';

/**
 * `mcp-golden record --proxy --target URL`: serves a real client (the Inspector, an IDE, an agent)
 * through a recording reverse proxy, prints the URL to connect to, and on SIGINT or SIGTERM writes
 * one golden per client session to `out` (each atomically: a temporary file renamed), with the
 * secrets of the target redacted as `record` does.
 */
export async function recordThroughProxy(target: string, port: number, out: string): Promise<number> {
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid --target "${target.replace(/[?#].*$/s, '')}" for --proxy: expected the http:// URL of a running MCP server. Run \`mcp-golden record --help\` for usage.`,
    );
  }
  const parts = httpTargetParts(target);
  const proxy = await startRecordingProxy({
    upstream: parts.url,
    port,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(parts.values) },
  });
  process.stdout.write(`${proxy.url}\n`);
  process.stderr.write(
    `[mcp-golden] recording proxy for ${parts.label} on ${proxy.url}: point your client here; Ctrl-C writes one golden per session to ${out}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const recorded = await proxy.close();
  const sessions = splitSessions({ ...recorded, header: { ...recorded.header, target: parts.label } });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const [index, session] of sessions.entries()) {
    const path = join(out, `proxy-${stamp}-${index + 1}.jsonl`);
    await writeGolden(path, session);
    process.stderr.write(`[mcp-golden] recorded ${path} (${session.frames.length} frames)\n`);
  }
  process.stderr.write(`[mcp-golden] ${sessions.length} session(s) written to ${out}\n`);
  return 0;
}
