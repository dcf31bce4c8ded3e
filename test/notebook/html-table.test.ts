import { describe, expect, it } from 'vitest';
import { htmlTable, textTable } from '../../src/notebook/index.js';

describe('notebook tables', () => {
  const rows = [
    { group: 'breakout <up>', n: 120, mean: 0.2512345, note: null },
    { group: 'volume_spike', n: 98, mean: -0.01, note: 'ok' },
  ];

  it('escapes HTML, formats numbers and shows null as missing', () => {
    const html = htmlTable(rows, { caption: 'Study' });
    expect(html).toContain('<caption>Study</caption>');
    expect(html).toContain('breakout &lt;up&gt;');
    expect(html).toContain('>0.2512<');
    expect(html).toContain('>null<');
    expect(html).not.toContain('>0<');
  });

  it('shows a null as the caller names it (a pooled row with no per-fold value), escaped', () => {
    const html = htmlTable(rows, { columns: ['group', 'note'], missing: '–<n/a>' });
    expect(html).toContain('<td style="color:#999">–&lt;n/a&gt;</td>');
    expect(html).not.toContain('>null<');
  });

  it('cuts long tables with a footer', () => {
    const many = Array.from({ length: 7 }, (_, index) => ({ index }));
    expect(htmlTable(many, { maxRows: 5 })).toContain('… 2 more rows');
  });

  it('renders an aligned text table', () => {
    expect(textTable(rows, { columns: ['group', 'n', 'mean'] })).toBe(
      ['group          n    mean', 'breakout <up>  120  0.2512', 'volume_spike   98   -0.01000'].join('\n'),
    );
  });
});
