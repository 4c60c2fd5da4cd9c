import type { OptionSpec } from './command-spec.js';

/** The declarations of `--port` and `--allow-origin` for a command that serves on loopback HTTP. */
export const LISTEN_OPTIONS = {
  port: {
    type: 'string',
    value: 'N',
    integer: { min: 0, max: 65535 },
    description: 'listen on 127.0.0.1:N (default 0: a free port); prints the URL on stdout',
  },
  'allow-origin': {
    type: 'string',
    value: 'ORIGIN',
    multiple: true,
    description:
      'also accept browser requests from this origin (* for any); loopback origins are always accepted, others get 403 (DNS rebinding)',
  },
} as const satisfies Record<string, OptionSpec>;

/**
 * `--session-idle-ms` of a command that writes a golden per client session (`record --proxy`, the
 * replay's pass-through); `when` names the options it goes with.
 */
export function sessionIdleOption(when: string): OptionSpec {
  return {
    type: 'string',
    value: 'MS',
    integer: { min: 1, max: 3600000 },
    default: '5000',
    description: `with ${when}: a session whose client sent no request and holds no open stream for MS is written (default 5000)`,
  };
}
