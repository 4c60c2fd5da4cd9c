// The careful client's SSE reader: the WHATWG event-stream rules, byte for byte. Each `--fault` that
// concerns framing breaks exactly one of them (see faults.mjs).

const MIB = 1024 * 1024;

/**
 * Reads one `text/event-stream` body to its end (or until the read fails, as a reset does) and calls
 * `onMessage(data)` for every `message` event with non-empty data. `state.lastEventId` and
 * `state.retry` follow the stream's `id:` and `retry:` fields and carry over from a previous stream
 * of the same request (a resumption). Never dispatches a half event at the end of the stream.
 */
export async function readSse(body, state, onMessage, faults) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let partial = [];
  let pendingCr = false;
  let data = [];
  let dataChars = 0;
  let type = '';

  const dispatch = () => {
    const lines = data;
    const event = type;
    data = [];
    dataChars = 0;
    type = '';
    if (lines.length === 0) return;
    if (faults.has('event-required') ? event !== 'message' : (event || 'message') !== 'message') return;
    const text = lines.join('\n');
    // A priming event (an id, empty data) only moves the cursor.
    if (text === '') return;
    onMessage(text);
  };

  const line = (text) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) {
      if (faults.has('comments-as-data')) data.push(text.slice(1).trim());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      if (faults.has('first-data-line-only') && data.length > 0) return;
      data.push(value);
      dataChars += value.length;
      if (faults.has('max-event-1mib') && dataChars > MIB) throw new OversizedEvent();
    } else if (field === 'event') type = value;
    else if (field === 'id') {
      if (!value.includes('\0')) state.lastEventId = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) state.retry = Number(value);
    }
  };

  // Line ends: CRLF, LF or CR; a CR at the end of one read may pair with an LF at the start of the next.
  const feed = (text) => {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (pendingCr) {
        pendingCr = false;
        if (c === 10) {
          start = i + 1;
          continue;
        }
      }
      if (c !== 10 && c !== 13) continue;
      if (c === 13 && faults.has('crlf-blind')) continue;
      if (c === 13 && faults.has('cr-blind') && text.charCodeAt(i + 1) !== 10) continue;
      partial.push(text.slice(start, i));
      const whole = partial.join('');
      partial = [];
      if (c === 13) pendingCr = true;
      start = i + 1;
      line(whole);
    }
    if (start < text.length) partial.push(text.slice(start));
  };

  try {
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        return; // reset or aborted: the stream ended, as far as the request is concerned
      }
      if (chunk.done) break;
      feed(
        faults.has('utf8-per-chunk')
          ? new TextDecoder().decode(chunk.value)
          : decoder.decode(chunk.value, { stream: true }),
      );
    }
    feed(decoder.decode());
  } catch (error) {
    if (!(error instanceof OversizedEvent)) throw error;
    // The fault: an event over 1 MiB is dropped and the error swallowed; the request waits forever.
    await reader.cancel().catch(() => {});
    await new Promise(() => {});
  }
}

class OversizedEvent extends Error {}
