// The careful client's `--fault NAME` options: each breaks exactly one behaviour a careful client has.
// test/support/client-faults.ts lists the rows each must fail.

/** Every fault, with the one behaviour it breaks. */
export const FAULTS = {
  'crlf-blind': 'SSE lines end only at LF, so CRLF streams never dispatch',
  'cr-blind': 'a lone CR does not end an SSE line',
  'utf8-per-chunk': 'each read decoded on its own, so a character split across reads becomes U+FFFD',
  'event-required': 'frames without an event: line are dropped',
  'first-data-line-only': 'only the first data: line of an event is kept',
  'comments-as-data': 'comment lines are read as data lines',
  'max-event-1mib': 'an event over 1 MiB is dropped silently and its call never ends',
  'async-progress-dispatch':
    'progress is dispatched a tick later, after a response in the same read removed its handler',
  'unknown-progress-fatal': 'progress for an unknown token tears the client down',
  'shared-progress-token': 'every call sends the same progress token',
  'hang-on-5xx': 'an HTTP 5xx answer leaves the call pending forever',
  'no-cancel': 'an abort sends nothing (2025) and keeps the response stream open (2026)',
  'cancel-wrong-id': 'notifications/cancelled names another request id',
  'cancel-early': 'a call the plan aborts is cancelled 50 ms after it is sent, whatever abortAfterMs says',
  'hang-on-stream-end': 'a POST stream that ends with no response and no event id leaves the call pending',
  'no-resume': 'a POST stream that ends without a response is an error, never resumed',
  'resume-no-last-event-id': 'resumption GETs carry no Last-Event-ID',
  'second-resume-no-id': 'a second resumption GET carries no Last-Event-ID',
  'resume-ignores-retry': 'resumption waits 1000 ms whatever the retry: field says',
  'no-reinit-404': 'a 404 for the session is an error, not a new initialize',
  'get-no-backoff': 'the standalone GET stream is reopened at once each time it closes',
  'no-reissue': '2026-07-28: a dropped call is an error, not re-issued',
  'reissue-same-id': '2026-07-28: a dropped call is re-issued with the same id',
  'mrtr-same-id': '2026-07-28: an input_required retry reuses the request id',
  'requeststate-reserialised': '2026-07-28: requestState is parsed and re-serialised before it is echoed',
  'no-timeout': 'a call is never given up, however long it runs or stays silent',
  'timeout-no-cancel': 'a call given up on is reported but not cancelled: no notification, its stream left open',
  'timeout-total-60s': "one 60 s timeout per call that progress does not reset (the SDKs' default)",
};

/** Reads `--fault NAME` (repeatable) from the arguments before the URL. */
export function readFaults(argv) {
  const faults = new Set();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--fault') continue;
    const name = argv[i + 1];
    if (!(name in FAULTS)) {
      process.stderr.write(
        `[mcp-golden] careful-client: unknown --fault ${name ?? '(none)'}. Expected one of: ${Object.keys(FAULTS).join(', ')}.\n`,
      );
      process.exit(2);
    }
    faults.add(name);
  }
  return faults;
}
