import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/base/index.js';

describe('BoundedCache', () => {
  it('evicts the least recently used values once the byte total exceeds the capacity', () => {
    const cache = new BoundedCache<string, string>(10);
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.total).toBe(8);
    cache.set('big', 'X', 11);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.total).toBe(8);
    cache.set('a', 'A2', 2);
    expect([cache.get('a'), cache.total, cache.size]).toEqual(['A2', 6, 2]);
    cache.delete('a');
    expect([cache.has('a'), cache.total, cache.size]).toEqual([false, 4, 1]);
  });

  it('counts entries when no sizes are given, and a read makes an entry the most recent', () => {
    const cache = new BoundedCache<string, number>(2);
    let made = 0;
    const make = (value: number) => () => {
      made += 1;
      return value;
    };
    expect(cache.getOrCreate('x', make(1))).toBe(1);
    expect(cache.getOrCreate('y', make(2))).toBe(2);
    expect(cache.getOrCreate('x', make(99))).toBe(1);
    expect(cache.getOrCreate('z', make(3))).toBe(3);
    expect([cache.has('x'), cache.has('y'), cache.has('z'), cache.size, made]).toEqual([true, false, true, 2, 3]);
  });

  it('in first-written order drops the oldest write even when it was read since', () => {
    const cache = new BoundedCache<string, number>(2, { evict: 'first-written' });
    cache.getOrCreate('x', () => 1);
    cache.getOrCreate('y', () => 2);
    expect(cache.getOrCreate('x', () => 99)).toBe(1);
    cache.getOrCreate('z', () => 3);
    expect([cache.has('x'), cache.has('y'), cache.has('z')]).toEqual([false, true, true]);
  });

  it('keeps a value of undefined as a hit, and forgets everything on clear', () => {
    const cache = new BoundedCache<string, undefined>(4);
    let made = 0;
    cache.getOrCreate('u', () => void (made += 1));
    cache.getOrCreate('u', () => void (made += 1));
    expect(made).toBe(1);
    cache.clear();
    expect([cache.size, cache.total, cache.has('u')]).toEqual([0, 0, false]);
  });
});
