import { describe, expect, test } from 'vitest';
import { GoldenError } from '../errors.js';
import { failedRecording, row } from './kit.js';
import type { BatteryContext } from './vocabulary.js';

const context = { clientEra: 'modern' } as BatteryContext;

describe('row', () => {
  test('turns what its body throws into a failing result that names the client leg and the first line', async () => {
    const thrower = row('a row', 'light', async () => {
      throw new Error('socket hang up\nat somewhere');
    });
    expect(await thrower.run(context)).toEqual({
      property: 'a row',
      verdict: 'fail',
      evidence: 'client→gateway: socket hang up',
      numbers: {},
      calls: [],
    });
  });

  test('says a timeout is the gateway not answering in time', async () => {
    const slow = row('slow', 'light', async () => {
      throw new GoldenError('E_TIMEOUT', 'no message within 10 ms');
    });
    expect((await slow.run(context)).evidence).toBe(
      'client→gateway: the gateway did not answer in time: no message within 10 ms',
    );
  });

  test('a row that also records a reference keeps the cause and names no leg', async () => {
    const failing = row(
      'pair',
      'light',
      async () => {
        throw new Error('fetch failed', {
          cause: Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }),
        });
      },
      { onError: failedRecording },
    );
    expect((await failing.run(context)).evidence).toBe('fetch failed (ECONNREFUSED: connect refused)');
  });

  test('hands its name to the body and declares its load, waits, era and skip', async () => {
    const declared = row(
      'named',
      'heavy',
      async (_, name) => ({ property: name, verdict: 'pass', evidence: '', numbers: {}, calls: [] }),
      {
        waits: true,
        era: 'modern',
        skip: (c) => (c.clientEra === 'modern' ? 'not in this era' : undefined),
      },
    );
    expect((await declared.run(context)).property).toBe('named');
    expect([declared.load, declared.waits, declared.era, declared.skip?.(context)]).toEqual([
      'heavy',
      true,
      'modern',
      'not in this era',
    ]);
    expect(Object.keys(row('plain', 'light', async () => declared.run(context)))).toEqual(['name', 'load', 'run']);
  });
});
