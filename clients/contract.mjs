// The client side of `mcp-golden check --client`'s contract, shared by the shipped wrappers: read the
// URL, the era and the plan; print one JSON line per progress, result, error or abort; run the calls
// one after another or all at once. A wrapper for another client library only supplies `callTool`.

/** The protocol revisions a client under check may be asked to speak. */
export const ERAS = ['2025-11-25', '2026-07-28'];

function usage(name, what) {
  process.stderr.write(
    `[mcp-golden] ${name}: ${what}. Run it as \`mcp-golden check --client 'node ${name}'\` (the check appends the URL and sets MCP_GOLDEN_PLAN), or by hand: MCP_GOLDEN_PLAN='{"calls":[{"name":"chatty","arguments":{}}]}' node ${name} http://127.0.0.1:PORT/mcp\n`,
  );
  process.exit(2);
}

/**
 * Reads what the check hands a client: the MCP endpoint URL (the last argument), the era
 * (MCP_CONFORMANCE_PROTOCOL_VERSION, 2025-11-25 when unset) and the plan (MCP_GOLDEN_PLAN).
 */
export function readContract(name, argv = process.argv.slice(2), env = process.env) {
  const url = argv.at(-1);
  if (!url || !/^https?:\/\//.test(url))
    usage(name, `the last argument must be the MCP endpoint URL, got ${url ?? 'none'}`);
  const era = env.MCP_CONFORMANCE_PROTOCOL_VERSION || '2025-11-25';
  if (!ERAS.includes(era)) usage(name, `MCP_CONFORMANCE_PROTOCOL_VERSION must be ${ERAS.join(' or ')}, got ${era}`);
  if (!env.MCP_GOLDEN_PLAN) usage(name, 'MCP_GOLDEN_PLAN is not set');
  let plan;
  try {
    plan = JSON.parse(env.MCP_GOLDEN_PLAN);
  } catch (error) {
    usage(name, `MCP_GOLDEN_PLAN is not JSON (${error.message})`);
  }
  if (!Array.isArray(plan?.calls)) usage(name, 'MCP_GOLDEN_PLAN has no "calls" array');
  const calls = plan.calls.map((call, index) => {
    if (typeof call?.name !== 'string') usage(name, `MCP_GOLDEN_PLAN calls[${index}] has no "name"`);
    return {
      name: call.name,
      arguments: call.arguments ?? {},
      progress: call.progress === true,
      abortAfterMs: typeof call.abortAfterMs === 'number' ? call.abortAfterMs : null,
    };
  });
  return { url, era, calls, concurrent: plan.concurrent === true, scenario: env.MCP_GOLDEN_SCENARIO ?? '' };
}

/** Prints one contract line on stdout. */
export function emit(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** The text blocks of a tool result joined with "\n", as the `result` line carries them. */
export function textOf(result) {
  const content = Array.isArray(result?.content) ? result.content : [];
  return content
    .filter((block) => block?.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** The message of anything thrown, on one line. */
export function messageOf(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text || (error?.name ?? 'error');
}

/**
 * Runs one planned call through `callTool(call, hooks)` and prints its lines. `hooks.signal` aborts
 * `abortAfterMs` after the call starts; `hooks.onProgress(progress, total)` prints a progress line.
 * `callTool` resolves with the tool result or rejects; a result with `isError` prints an `error` line
 * with its text. Resolves when the call has ended (its last line printed).
 */
export async function runCall(index, call, callTool) {
  const abort = new AbortController();
  const timer = call.abortAfterMs === null ? undefined : setTimeout(() => abort.abort(), call.abortAfterMs);
  const onProgress = (progress, total) =>
    emit(total === undefined ? { call: index, progress } : { call: index, progress, total });
  try {
    const result = await callTool(call, { signal: abort.signal, onProgress: call.progress ? onProgress : undefined });
    if (result?.isError === true) emit({ call: index, error: textOf(result) || 'the tool returned isError' });
    else emit({ call: index, result: textOf(result) });
  } catch (error) {
    if (abort.signal.aborted) emit({ call: index, aborted: true });
    else emit({ call: index, error: messageOf(error) });
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every planned call (one after another, or all at once when the plan says `concurrent`). */
export async function runPlan(contract, callTool) {
  if (contract.concurrent) {
    await Promise.all(contract.calls.map((call, index) => runCall(index, call, callTool)));
    return;
  }
  for (const [index, call] of contract.calls.entries()) await runCall(index, call, callTool);
}

/** Prints an `error` line for every call: what a client that could not connect reports. */
export function failEveryCall(contract, error) {
  for (const index of contract.calls.keys()) emit({ call: index, error: messageOf(error) });
}

/** Closes the client (at most `graceMs` waited), then exits: every call has ended. */
export async function finish(close, code = 0, graceMs = 1000) {
  let timer;
  await Promise.race([
    Promise.resolve()
      .then(close)
      .catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
  await flushStdout();
  process.exit(code);
}

/** Resolves once everything written to stdout so far has left: a pipe takes a large line in pieces, and exit would cut it. */
export function flushStdout() {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}
