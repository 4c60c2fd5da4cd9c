import { expect, test } from 'vitest';
import { type GatewayProcess, GatewaySupervisor, type LaunchedGateway } from '../../../src/check/gateway-process.js';

/** A gateway process stand-in: `die()` ends it as a crash would; `stopped` counts stop calls. */
function fakeGateway(name: string) {
  let reason: string | undefined;
  let exited: () => void = () => undefined;
  const exit = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const state = { stopped: 0 };
  const process: GatewayProcess = {
    command: name,
    output: () => `${name}: last line`,
    exited: () => reason,
    exit,
    stop: async () => {
      state.stopped++;
    },
  };
  const die = (): void => {
    reason = 'exited with code 3';
    exited();
  };
  return { launched: { process, target: `http://${name}` } as LaunchedGateway, die, state };
}

test('stop() also stops the fresh gateway process a restart was starting when it was called', async () => {
  const first = fakeGateway('first');
  const fresh = fakeGateway('fresh');
  let started: (gateway: LaunchedGateway) => void = () => undefined;
  const launching = new Promise<LaunchedGateway>((resolve) => {
    started = resolve;
  });
  const supervisor = new GatewaySupervisor(first.launched, () => launching);
  // The row's process dies under it: the supervisor starts a fresh one, which takes a while.
  const row = supervisor.run(
    'row',
    async () => {
      first.die();
      return 'fail';
    },
    (r) => r === 'fail',
    (why) => `not run: ${why}`,
    (r) => r,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  // The check ends (a row threw, a signal) while the fresh process is still starting.
  const stopping = supervisor.stop();
  started(fresh.launched);
  await stopping;
  expect(first.state.stopped).toBeGreaterThan(0);
  expect(fresh.state.stopped).toBe(1);
  await row;
});
