import { describe, expect, it } from 'vitest';
import { RandomStream, randomStream } from '../../src/base/index.js';

describe('randomStream (sfc32 keyed by cyrb128)', () => {
  it("gives the stream the mock simulator's copy gave before src/base (pinned)", () => {
    const stream = randomStream(1, 'path', 'BTCUSDT', 20300);
    expect([stream.next(), stream.next(), stream.uniform(2, 5), stream.integer(1, 6), stream.normal(), stream.normal(), stream.chance(0.5)]).toEqual([
      0.4237560669425875, 0.03969247918576002, 3.361165978014469, 5, -0.6612330055892928, 0.288784207463442, true,
    ]);
  });

  it('is keyed by seed|purpose|parts: the same key, the same stream; another part, another stream', () => {
    const a = randomStream(3, 'shape', 'ETHUSDT', 20301);
    const b = new RandomStream('3|shape|ETHUSDT|20301');
    const c = randomStream(3, 'shape', 'ETHUSDT', 20302);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(c.next()).not.toBe(first[0]);
  });
});
