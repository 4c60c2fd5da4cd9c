/** The GET stream family: with the standalone GET stream open, progress and results still come on the call's own stream, once. */
import { setTimeout as sleep } from 'node:timers/promises';
import { frameMessage } from '../../transcript/frame-content.js';
import { isResponse } from '../../transcript/json-rpc.js';
import { LEG, lane, newTag, quote, result, row, withSession } from '../kit.js';
import type { Need } from '../vocabulary.js';

/** Both rows open the standalone GET stream, which only Streamable HTTP has. */
const HTTP_CLIENT: Need<'http'> = { is: 'http', why: 'stdio has one stream; there is no standalone GET stream' };

/** Where progress arrives when a full client also holds the standalone GET stream open. */
export const getStream = row(
  'progress on the call stream (GET stream open)',
  'light',
  (context, name) =>
    withSession(context, async (session) => {
      const get = session.openGetStream();
      await sleep(100);
      const tag = newTag('get');
      // The result follows the last step by 30 ms: losing a notification next to the result is another row's concern.
      const seen = await session.call({
        tool: 'progress',
        arguments: { steps: 3, step_ms: 30 },
        id: 'check-get',
        token: tag,
      });
      await sleep(300);
      const onGet = get.messages.filter((m) => m.message.method === 'notifications/progress').length;
      const onCall = seen.progress.length;
      const where = onGet > 0 ? (onCall > 0 ? 'split' : 'GET only') : onCall > 0 ? 'call stream' : 'nowhere';
      const numbers = { onCall, onGet, getStatus: get.status, where };
      const calls = [lane('3 steps, GET open', seen)];
      const sent = ` (the upstream sends 3; GET stream: ${get.status ? `HTTP ${get.status}` : 'no response headers yet'})`;
      if (where === 'call stream')
        return result(
          name,
          'pass',
          `${onCall} of 3 notifications on the call's own stream, none on the GET stream${sent}`,
          numbers,
          calls,
        );
      if (where === 'nowhere')
        return result(
          name,
          'fail',
          `${LEG.client}: no notification on the call's stream nor on the standalone GET stream: they arrived nowhere${sent}`,
          numbers,
          calls,
        );
      return result(
        name,
        'fail',
        `${LEG.client}: ${onGet} notifications arrived on the standalone GET stream${where === 'split' ? `, ${onCall} on the call's stream` : " and none on the call's stream"}: a client that only POSTs misses them (the spec says they SHOULD go on the request's stream)${sent}. Quoted from the GET stream: ${quote(JSON.stringify(get.messages[0]?.message))}`,
        numbers,
        calls,
      );
    }),
  {
    needs: {
      clientTransport: HTTP_CLIENT,
      eras: { client: { is: 'legacy', why: 'the 2026-07-28 era has no standalone GET stream (no sessions)' } },
    },
  },
);

/** A response must arrive once: on the call's POST stream, not again on the standalone GET stream. */
export const deliveredOnce = row(
  'each response delivered once (GET stream open)',
  'light',
  (context, name) =>
    withSession(context, async (session) => {
      const get = session.openGetStream();
      await sleep(100);
      const id = 'check-once';
      const seen = await session.call({
        tool: 'progress',
        arguments: { steps: 2, step_ms: 20 },
        id,
        token: newTag('once'),
      });
      // A copy on the GET stream may come after the one on the call's stream.
      await sleep(300);
      const isOurs = (m: ReturnType<typeof frameMessage>): boolean => m !== undefined && isResponse(m) && m.id === id;
      const total = session
        .frames()
        .filter((f) => (f.channel === 'sse' || f.channel === 'json') && isOurs(frameMessage(f))).length;
      const onGet = get.messages.filter((m) => isOurs(m.message)).length;
      const numbers = { responses: total, onGet, onCall: total - onGet, getStatus: get.status };
      const calls = [lane('2 steps, GET open', seen)];
      if (total === 1 && onGet === 0)
        return result(
          name,
          'pass',
          `the result arrived once, on the call's own stream (GET stream: ${get.status ? `HTTP ${get.status}` : 'no response headers yet'})`,
          numbers,
          calls,
        );
      if (total === 0)
        return result(
          name,
          'fail',
          `${LEG.client}: the result never arrived${seen.error ? ` (${seen.error})` : ''}`,
          numbers,
          calls,
        );
      return result(
        name,
        'fail',
        `${LEG.client}: the result of request ${JSON.stringify(id)} arrived ${total} times: ${total - onGet} on the call's stream, ${onGet} on the standalone GET stream; a client sees one answer twice (or, matching by id, answers a later request with it)`,
        numbers,
        calls,
      );
    }),
  { needs: { clientTransport: HTTP_CLIENT } },
);
