import { NAMED_MASKS } from '../transcript/named-masks.js';
import { defineCommand } from './command-spec.js';

/** `mcp-golden diff`. */
export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'compare two goldens as the matcher does (normalised, volatile values left out, timing within tolerance)',
  operands: '<a.jsonl> <b.jsonl>',
  minOperands: 2,
  maxOperands: 2,
  missing: 'golden path',
  description: `Compares golden B with golden A as toMatchGolden compares a stream with its golden, not byte
by byte: after normalisation (session ids, request ids, progress tokens, dates, ports), with the
values --ignore and --mask name (and those either golden's header records) left out, and, as the
matcher's default, the order of the frames in each stream. With --timing tolerance (or
--tolerance-ms) each frame's time from its request is judged too, within max(--tolerance-ms, 50%)
of its time in A; the handshake and listings before the first tools/call (a server's cold start)
are not timed.
Prints what differs as the matcher does: a headline, the changes, the frames off time, then the
differing lines of canonical text (- A, + B).`,
  options: {
    ignore: {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description: "an RFC 9535 JSONPath over each JSON-RPC message whose value is not compared: '$..generatedAt'",
    },
    mask: {
      type: 'string',
      value: 'REGEX',
      multiple: true,
      description: `replace every match inside any string by a placeholder on both sides before comparing; built in: ${Object.keys(NAMED_MASKS).join(', ')}`,
    },
    timing: {
      type: 'string',
      value: 'order|tolerance|ignore',
      choices: ['order', 'tolerance', 'ignore'],
      description:
        'order (default, as toMatchGolden): order within each stream only; tolerance: each frame’s time too; ignore: neither',
    },
    'tolerance-ms': {
      type: 'string',
      value: 'MS',
      integer: { min: 0, max: 600_000 },
      description:
        'with --timing tolerance (implied): a frame may arrive this many ms, or 50% of its offset in A, from its time in A (default 20)',
    },
    bytes: { type: 'boolean', description: 'compare normalised raw bytes instead of parsed JSON-RPC' },
    html: {
      type: 'string',
      value: 'FILE',
      description: "write one self-contained HTML page: both goldens' calls on one time axis, with the differences",
    },
  },
  epilog: `Ignores and masks in mcp-golden.config.json's "verify" section apply too (as verify takes them).
Exit 0 when the goldens match, 1 when they differ, 2 on usage errors.`,
  async run(args, io) {
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const { runDiff } = await import('./diff-implementation.js');
    return runDiff(args, io);
  },
});
