// releaseCsv writes exactly what the general CSV writer formatCsv (src/base) writes with the mock's options, for simulated rows and edge-case strings.

import { describe, expect, it } from 'vitest';
import { formatCsv } from '../../../src/base/index.js';
import { RELEASE_CSV_OPTIONS, ReleaseValueError, releaseCsv } from '../../../src/mock/releases/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../../src/contract/index.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const reference = (rows: readonly MarketEventRow[]) => formatCsv(MARKET_EVENT_FIELD_NAMES, rows as unknown as Record<string, unknown>[], RELEASE_CSV_OPTIONS);
const simulator = new MarketSimulator({ seed: 3, days: 2 });
const [day] = simulator.days() as [string];
const rows = simulator.dayRows(day, simulator.options.now + 8 * 86_400);

describe('releaseCsv', () => {
  it('writes a simulated day exactly as formatCsv does', () => {
    expect(rows.length).toBeGreaterThan(300);
    expect(text(releaseCsv(rows))).toBe(reference(rows));
    expect(text(releaseCsv([]))).toBe(reference([]));
  });

  it.each([
    ['a comma', 'a,b'],
    ['a comma next to null text', 'a,null'],
    ['the text null', 'null'],
    ['an empty string', ''],
    ['a quote', 'say "hi"'],
    ['a backslash', 'C:\\x'],
    ['a newline', 'a\nb'],
    ['a carriage return', 'a\rb'],
    ['non-ASCII text', 'Bücher €'],
    ['a line separator', 'a\u2028b'],
    ['a tab', 'a\tb'],
  ])('writes a string with %s as formatCsv does', (_name, value) => {
    const edited = { ...rows[0]!, venue: value, event_kind: value } as unknown as MarketEventRow;
    const missing = { ...rows[1]!, price: undefined } as unknown as MarketEventRow;
    const numbers = { ...rows[2]!, price: 1e-7, oi_usd: -0, trigger_value: 0.1 + 0.2, reference_start: 1e21 } as MarketEventRow;
    const sample = [edited, missing, numbers, rows[3]!];
    expect(text(releaseCsv(sample))).toBe(reference(sample));
  });

  it('refuses non-finite numbers with ReleaseValueError, like formatCsv', () => {
    const bad = { ...rows[0]!, price: Number.POSITIVE_INFINITY } as MarketEventRow;
    expect(() => releaseCsv([bad])).toThrow(ReleaseValueError);
    expect(() => reference([bad])).toThrow(ReleaseValueError);
  });
});
