import 'mcp-golden/vitest';
import type { Transcript } from 'mcp-golden';
import { fileGoldenStore, type GoldenStore, setGoldenStore } from 'mcp-golden/vitest';
import { expect, expectTypeOf, test } from 'vitest';

// Type-checked by `npm run typecheck` (tsc over test/); the test body only runs the type assertions.
declare const stream: Transcript;

test('the matchers type-check on vitest assertions', () => {
  const typed = (): void => {
    void expect(stream).toMatchGolden();
    void expect(stream).toMatchGolden('progress-10x100');
    void expect(stream).toMatchGolden('progress-10x100', { bytes: true, timing: { absMs: 50, relGap: 0.5 } });
    void expect(stream).toMatchGolden({ timing: 'ignore' });
    expect(stream).toPreserveProgressTokens();
    expect(stream).toPreserveBlocks(stream);
    expect(stream).toPreserveUnicode(stream);
    expect(stream).toStreamProgressively(stream, { relGap: 0.5, absMs: 20 });
    expect(stream).toForwardFaithfully(stream);
    // @ts-expect-error timing takes 'ignore' | 'order' | { absMs, relGap }
    void expect(stream).toMatchGolden({ timing: 'sometimes' });
    // @ts-expect-error toPreserveBlocks needs the reference transcript
    expect(stream).toPreserveBlocks();
    // @ts-expect-error unknown tolerance key
    expect(stream).toStreamProgressively(stream, { slack: 1 });
    expectTypeOf(expect(stream).toMatchGolden).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(setGoldenStore).parameter(0).toEqualTypeOf<GoldenStore>();
    expectTypeOf(fileGoldenStore.read).returns.toEqualTypeOf<Promise<string | undefined>>();
    // @ts-expect-error a golden store needs every operation
    setGoldenStore({ read: async () => undefined });
  };
  expectTypeOf(typed).toBeFunction();
});
