import { memberOf } from '../transcript/json-object.js';

/** Whether goldens may be written: `all` (-u), `new` (local default) or `none` (CI). */
export type UpdateMode = 'all' | 'new' | 'none';

/** True when `CI` is set to anything but empty, `0` or `false` (or `TF_BUILD` is set), as insta decides. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return true;
  return env.TF_BUILD !== undefined && env.TF_BUILD !== '';
}

/**
 * The update mode for this assertion: `MCP_GOLDEN_UPDATE` when set, else vitest's own snapshot
 * update state (`-u` gives `all`, `--update=new|none` as asked, CI gives `none`), else `none` in CI
 * and `new` elsewhere.
 */
export function resolveUpdateMode(state: unknown, env: NodeJS.ProcessEnv = process.env): UpdateMode {
  const forced = env.MCP_GOLDEN_UPDATE;
  if (forced === 'all' || forced === 'new' || forced === 'none') return forced;
  const fromVitest = memberOf(memberOf(state, 'snapshotState'), 'snapshotUpdateState');
  if (fromVitest === 'all' || fromVitest === 'new' || fromVitest === 'none') return fromVitest;
  return isCi(env) ? 'none' : 'new';
}
