// The study report as a user meets it: headless Chromium screenshots of report.html at 1,400 px and of
// the effect chart's SVG, checked as pictures (real PNG, ink, the fixed status colours, the drawn size).
// Under CI=true a missing Chromium fails the suite (it never skips there).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_STATUSES, eventStudy, missingColumnName, type EventStudyResult } from '../../src/analysis/index.js';
import { STATUS_COLORS } from '../../src/charts/index.js';
import { writeStudyReport } from '../../src/report/index.js';
import { CHROMIUM_PACKAGE, findChromium, screenshot } from '../support/chromium.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { countColor, decodePng, inkShare, type PngPixels } from '../support/png-pixels.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const chromium = await findChromium();
const required = process.env.CI === 'true';

it('finds Chromium, or is allowed to go without it outside CI', () => {
  if (!chromium && required) throw new Error(`Chromium is missing: install the Debian package ${CHROMIUM_PACKAGE} (apt-get update first).`);
  expect(required && !chromium).toBe(false);
});

describe.runIf(chromium !== undefined)('the study report in headless Chromium', () => {
  let catalog: FixtureCatalog;
  let result: EventStudyResult;
  let files: Awaited<ReturnType<typeof writeStudyReport>>;
  let page: PngPixels;
  let pageBytes: number;

  beforeAll(async () => {
    const days = syntheticDays({ days: 6, seed: 3 });
    catalog = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
    result = await eventStudy(catalog.connection, { windows: ['7d', '24h', '4h', '1h', '15m'], bootstrap: { samples: 200 } });
    files = await writeStudyReport(result, path.join(catalog.dir, 'report'));
    const png = path.join(catalog.dir, 'report.png');
    await screenshot(chromium!, files.html, png, { width: 1400, height: 4000 }); // the whole page: 5 windows' notes come before the charts
    const bytes = await readFile(png);
    pageBytes = bytes.length;
    page = decodePng(bytes);
  }, 180_000);
  afterAll(async () => catalog?.close());

  it('is a real 1,400 px picture with ink on it, not a blank page', () => {
    expect([page.width, page.height]).toEqual([1400, 4000]);
    expect(pageBytes).toBeGreaterThan(50_000);
    expect(inkShare(page)).toBeGreaterThan(0.03);
  });

  it('draws every missing status that occurs in its one fixed colour, and none that does not', () => {
    const occurs = (status: (typeof MISSING_STATUSES)[number]) =>
      result.rows.some((row) => (row as unknown as Record<string, number>)[missingColumnName(status)]! > 0 || (row as unknown as Record<string, number>)[missingColumnName(status, 'control_')]! > 0);
    const present = MISSING_STATUSES.filter(occurs);
    expect(present.length).toBeGreaterThanOrEqual(2);
    // bars: hundreds of pixels; a legend swatch or the HTML key alone is under 200
    for (const status of present) expect(countColor(page, STATUS_COLORS[status]), status).toBeGreaterThan(400);
    for (const status of MISSING_STATUSES.filter((s) => !occurs(s))) expect(countColor(page, STATUS_COLORS[status]), status).toBeLessThan(400);
  });

  it('shows the effect chart SVG at the size it declares (what renderSvg wrote is what a browser draws)', async () => {
    const svg = await readFile(files.effectSvg, 'utf8');
    const width = Number(svg.match(/width="(\d+)"/)![1]);
    const height = Number(svg.match(/height="(\d+)"/)![1]);
    expect(height).toBeGreaterThan(5 * 100); // one panel per window, stacked
    const png = path.join(catalog.dir, 'effect.png');
    await screenshot(chromium!, files.effectSvg, png, { width: width + 100, height: height + 100 });
    const picture = decodePng(await readFile(png));
    let [right, bottom] = [0, 0];
    for (let y = 0; y < picture.height; y += 1) {
      for (let x = 0; x < picture.width; x += 1) {
        const i = (y * picture.width + x) * 4;
        if (picture.rgba[i]! < 200 || picture.rgba[i + 1]! < 200 || picture.rgba[i + 2]! < 200) [right, bottom] = [Math.max(right, x), Math.max(bottom, y)];
      }
    }
    expect(right).toBeLessThanOrEqual(width);
    expect(right).toBeGreaterThan(width * 0.85); // headless Vega estimates text widths: a little slack on the right
    expect(bottom).toBeLessThanOrEqual(height);
    expect(bottom).toBeGreaterThan(height - 40);
  });
});
