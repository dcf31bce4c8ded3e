import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/base/index.js';

describe('seededRandom (mulberry32)', () => {
  it('gives the stream the analysis and client copies gave before src/base (pinned)', () => {
    const one = seededRandom(1);
    expect([one(), one(), one(), one()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741]);
    const fortyTwo = seededRandom(42);
    expect([fortyTwo(), fortyTwo(), fortyTwo()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('takes the seed modulo 2^32 and stays in [0, 1)', () => {
    const a = seededRandom(-1);
    const b = seededRandom(0xffffffff);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(draws);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(seededRandom(8)()).not.toBe(seededRandom(7)());
  });
});
