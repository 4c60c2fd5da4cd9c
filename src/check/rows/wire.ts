/**
 * The wire family: what gateways shipped in 2025 got wrong on the wire itself (SSE re-serialised
 * without its `event:` field, a rewritten body under its old Content-Length), and the 2026-07-28
 * `Mcp-*` headers that must reach the upstream agreeing with the body.
 */
import type { Scenario } from '../../record/scenario.js';
import type { Frame } from '../../transcript/frame.js';
import { MODERN_PROTOCOL_VERSION } from '../../transcript/frame.js';
import { sseBlock } from '../../transcript/frame-content.js';
import { decodeHeaderValue } from '../../transcript/modern-envelope.js';
import { rowsTagged } from '../audit.js';
import {
  callFailure,
  clientEraOf,
  LEG,
  messageEvents,
  newTag,
  notExercised,
  quote,
  recordThrough,
  result,
  row,
  seenNumbers,
  withSession,
} from '../kit.js';
import type { PropertyResult } from '../vocabulary.js';

const NO_SSE_ON_STDIO = 'stdio has no SSE stream';

/**
 * The upstream (the MCP SDK's transport) names every event `event: message`. A gateway that
 * re-serialises SSE without the field is read the same by a spec reader (no field means
 * "message"), but clients that listen for the named event hang at initialize.
 */
export const eventField = row(
  'SSE events keep their event: field',
  'light',
  (context, name) =>
    withSession(context, async (session) => {
      const tag = newTag('event');
      const seen = await session.call({
        tool: 'progress',
        arguments: { steps: 2, step_ms: 10 },
        id: 'check-event',
        token: tag,
      });
      const events = messageEvents(session.frames());
      if (events.length === 0)
        return notExercised(
          name,
          'the gateway answered with JSON, not SSE: there are no event fields to keep',
          seenNumbers(seen),
        );
      const bare = events.filter((f) => sseBlock(f)?.event === undefined);
      const renamed = events.filter((f) => {
        const event = sseBlock(f)?.event;
        return event !== undefined && event !== 'message';
      });
      const numbers = { events: events.length, withoutEventField: bare.length, renamed: renamed.length };
      if (bare.length === 0 && renamed.length === 0)
        return result(
          name,
          'pass',
          `${events.length} of ${events.length} SSE events carry "event: message", as the upstream sent them`,
          numbers,
        );
      const example = bare[0] ?? renamed[0];
      return result(
        name,
        'fail',
        `${LEG.client}: ${bare.length} of ${events.length} SSE events arrived without an event: field${renamed.length > 0 ? ` and ${renamed.length} under another name` : ''} (the upstream sends "event: message" on every one): clients that listen for the named message event hang at initialize. First such event: ${quote(sseBlock(example as Frame)?.text ?? '')}`,
        numbers,
      );
    }),
  { needs: { clientTransport: { is: 'http', why: NO_SSE_ON_STDIO } } },
);

/**
 * A gateway that rewrites a body (renumbers ids, renames tools) must send the new body's length. A
 * long string id makes any renumbering change the length; the check's upstream answers a body
 * shorter than its Content-Length with HTTP 400 after 2 s, naming both numbers, and one cut short
 * (a longer rewritten body) with a parse error.
 */
export const contentLength = row(
  'Content-Length matches a rewritten body',
  'light',
  (context, name) => {
    const refused = (said: string): PropertyResult =>
      result(name, 'fail', `${LEG.upstream}: the upstream refused the gateway's request: ${quote(said, 400)}`);
    return withSession(context, async (session) => {
      const id = `check-content-length-${'x'.repeat(40)}`;
      const seen = await session.call({ tool: 'progress', arguments: { steps: 1, step_ms: 1 }, id });
      if (seen.response !== undefined)
        return result(
          name,
          'pass',
          `a call with a ${id.length}-character id reached the upstream whole and its result came back (any rewritten body carried its own length)`,
          seenNumbers(seen),
        );
      const said = seen.error ?? 'no result and no error';
      if (/Content-Length/.test(said)) return refused(said);
      return result(
        name,
        'fail',
        `${LEG.client}: a call with a ${id.length}-character id got no result: ${quote(said, 300)}`,
        seenNumbers(seen),
      );
    }).catch((error: unknown) => {
      // The session's own initialize (a string id too) may meet the stale header first.
      const said = error instanceof Error ? error.message : String(error);
      if (/Content-Length/.test(said)) return refused(said.split('\n')[0] ?? said);
      throw error;
    });
  },
  {
    needs: {
      upstreamTransport: { is: 'http', why: 'a stdio upstream reads lines: there is no Content-Length to keep' },
    },
  },
);

const HEADERS_ROW = 'Mcp-* headers reach the upstream (2026-07-28)';

/** `Mcp-Method`, `Mcp-Name` and `MCP-Protocol-Version` reach a modern upstream and agree with the body it receives. */
export const mcpHeaders = row(
  HEADERS_ROW,
  'light',
  async (context) => {
    // Not ASCII: the tag's Mcp-Param-Tag header goes in the =?base64?…?= form.
    const tag = `${newTag('headers')}-é🚀`;
    const scenario: Scenario = {
      tool: 'progress_tight',
      arguments: { steps: 2, step_ms: 10, tag },
      progressToken: tag,
      era: clientEraOf(context),
      timeoutMs: context.timeoutMs,
    };
    let clientSide: string;
    try {
      const recording = await recordThrough(context, scenario);
      clientSide = `${LEG.client}: the call returned ${recording.outcome.response ? 'its result' : 'no result'}`;
    } catch (error) {
      clientSide = `${LEG.client}: the call was refused: ${callFailure(context, error)}`;
    }
    const row = (await rowsTagged(context, tag, 1000)).at(-1);
    if (!row) {
      return result(
        HEADERS_ROW,
        'fail',
        `${LEG.upstream}: no call tagged ${tag} reached the tool (the upstream refused the request before running it); ${clientSide}`,
        { headersChecked: 0 },
      );
    }
    const got = row.mcpHeaders ?? {};
    const want: Record<string, string> = {
      'mcp-method': 'tools/call',
      'mcp-name': row.tool,
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      // The check tools mark `tag` with x-mcp-header: Tag.
      'mcp-param-tag': tag,
    };
    const wrong = Object.entries(want)
      .filter(([name, value]) => got[name] === undefined || decodeHeaderValue(got[name] as string) !== value)
      .map(
        ([name, value]) =>
          `${name} ${got[name] === undefined ? 'missing' : JSON.stringify(got[name])}, the body says ${JSON.stringify(value)}`,
      );
    const seen = Object.entries(got)
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ');
    if (wrong.length > 0) {
      return result(
        HEADERS_ROW,
        'fail',
        `${LEG.upstream}: ${wrong.join('; ')} (received ${seen || 'no Mcp-* header'}); ${clientSide}`,
        {
          headersChecked: Object.keys(want).length,
          headersWrong: wrong.length,
        },
      );
    }
    return result(
      HEADERS_ROW,
      'pass',
      `${LEG.upstream}: received ${seen}, agreeing with the body's method, name and arguments.tag (non-ASCII, sent base64); ${clientSide}`,
      { headersChecked: Object.keys(want).length, headersWrong: 0 },
    );
  },
  {
    era: 'modern',
    needs: {
      eras: { upstream: { is: 'modern', why: 'a 2025-11-25 upstream takes no Mcp-* headers' } },
      upstreamTransport: { is: 'http', why: 'a stdio upstream reads lines: there are no Mcp-* headers to keep' },
    },
  },
);
