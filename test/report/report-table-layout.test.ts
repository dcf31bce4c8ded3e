// The report's results table as a browser lays it out at 1,400 px, for 180 groups (5 windows × kind ×
// direction × symbol): difference_pct and its CI inside the viewport and the table's box for every row
// without scrolling; the detail scrolls sideways inside the box while window and group keys stay put.
// Measured in headless Chromium: a copy of report.html with a measuring script, read back with --dump-dom.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy, eventStudyColumns, type EventStudyResult } from '../../src/analysis/index.js';
import { writeStudyReport } from '../../src/report/index.js';
import { dumpDom, findChromium, screenshot } from '../support/chromium.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { decodePng, type PngPixels } from '../support/png-pixels.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const chromium = await findChromium();
const VIEWPORT = { width: 1400, height: 1600 };
const RESULTS = ['difference_pct', 'ci_low_pct', 'ci_high_pct'];

type Box = { left: number; right: number; top: number; bottom: number };
type Layout = {
  viewport: number;
  box: Box & { scrollWidth: number; clientWidth: number };
  header: string[];
  /** Per column name: the box of its header and of its cell in every body row. */
  cells: Record<string, Box[]>;
  /** After scrolling the box to its right end: the same, and each cell's computed background colour. */
  scrolled: { scrollLeft: number; cells: Record<string, Box[]>; background: Record<string, string> };
};

// Runs in the page: measures every header and body cell, scrolls the table's box to the right, measures again.
const MEASURE = `<script>
const box = document.querySelector('.table-box');
const rect = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
const header = [...box.querySelectorAll('thead th')].map((th) => th.textContent);
const cells = () => Object.fromEntries(header.map((name, i) => [name, [...box.querySelectorAll('tr')].map((tr) => rect(tr.children[i]))]));
const layout = { viewport: innerWidth, box: { ...rect(box), scrollWidth: box.scrollWidth, clientWidth: box.clientWidth }, header, cells: cells() };
box.scrollLeft = box.scrollWidth;
const first = box.querySelector('tbody tr');
layout.scrolled = { scrollLeft: box.scrollLeft, cells: cells(), background: Object.fromEntries(header.map((name, i) => [name, getComputedStyle(first.children[i]).backgroundColor])) };
const out = document.createElement('pre'); out.id = 'layout'; out.textContent = JSON.stringify(layout); document.body.append(out);
</script>`;

describe.runIf(chromium !== undefined)('the report table at 1,400 px, 180 groups', () => {
  let catalog: FixtureCatalog;
  let result: EventStudyResult;
  let layout: Layout;
  let page: PngPixels;

  beforeAll(async () => {
    const days = syntheticDays({ days: 5, seed: 4 });
    catalog = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
    // 5 days are too few blocks for the block jackknife: the row bootstrap fills every CI cell, which is what is laid out here.
    result = await eventStudy(catalog.connection, {
      windows: ['15m', '1h', '4h', '24h', '7d'],
      by: ['event_kind', 'direction', 'symbol'],
      interval: { method: 'row-bootstrap', samples: 100 },
    });
    const files = await writeStudyReport(result, path.join(catalog.dir, 'report'));
    const measured = path.join(catalog.dir, 'report', 'measured.html');
    await writeFile(measured, (await readFile(files.html, 'utf8')).replace('</body>', `${MEASURE}</body>`));
    const dom = await dumpDom(chromium!, measured, VIEWPORT);
    layout = JSON.parse(dom.match(/<pre id="layout">([^<]*)<\/pre>/)![1]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
    const png = path.join(catalog.dir, 'table.png');
    await screenshot(chromium!, files.html, png, VIEWPORT);
    page = decodePng(await readFile(png));
  }, 180_000);
  afterAll(async () => catalog?.close());

  it('has 180 rows and every column, in the one declared order', () => {
    expect(result.rows).toHaveLength(180);
    expect(layout.header).toEqual(eventStudyColumns(result.metadata.by).map((column) => column.name));
    expect(layout.cells.window).toHaveLength(181);
  });

  it('shows difference_pct and its CI of every group inside the viewport and the box, without scrolling', () => {
    expect(layout.viewport).toBe(VIEWPORT.width);
    for (const name of RESULTS) {
      for (const cell of layout.cells[name]!) {
        expect(cell.left, name).toBeGreaterThanOrEqual(layout.box.left);
        expect(cell.right, name).toBeLessThanOrEqual(Math.min(layout.box.right, layout.viewport));
      }
    }
    // ... and the detail does not fit: it is reached by scrolling the box, not the page
    expect(layout.box.scrollWidth).toBeGreaterThan(layout.box.clientWidth);
    expect(layout.box.right).toBeLessThanOrEqual(layout.viewport);
  });

  it('scrolls sideways inside its box with window and the group keys sticky, on an opaque background', () => {
    expect(layout.scrolled.scrollLeft).toBeGreaterThan(0);
    for (const name of ['window', ...result.metadata.by]) {
      expect(layout.scrolled.cells[name]!.map((c) => c.left), name).toEqual(layout.cells[name]!.map((c) => c.left));
      expect(layout.scrolled.background[name], name).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    }
    // the results columns moved left under the sticky ones, the last detail column came into the box
    const keysRight = layout.scrolled.cells.symbol![0]!.right;
    expect(layout.scrolled.cells.difference_pct![0]!.right).toBeLessThan(keysRight);
    const last = layout.header[layout.header.length - 1]!;
    expect(layout.scrolled.cells[last]![0]!.right).toBeLessThanOrEqual(layout.box.right + 1);
  });

  it('draws the table in the screenshot where the layout says (ink in the CI column, a real 1,400 px picture)', () => {
    expect([page.width, page.height]).toEqual([VIEWPORT.width, VIEWPORT.height]);
    const ci = layout.cells.ci_high_pct![1]!;
    let ink = 0;
    for (let y = Math.ceil(ci.top); y < Math.floor(ci.bottom); y += 1) {
      for (let x = Math.ceil(ci.left); x < Math.floor(ci.right); x += 1) {
        const i = (y * page.width + x) * 4;
        if (page.rgba[i]! < 128 && page.rgba[i + 1]! < 128 && page.rgba[i + 2]! < 128) ink += 1;
      }
    }
    expect(ink).toBeGreaterThan(20); // the digits of the first row's ci_high_pct
  });
});
