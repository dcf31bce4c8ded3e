// Finds headless Chromium (Debian's `chromium`; .ci/run installs it) and takes a screenshot of a page, so
// tests check charts and reports as pictures, not only as specs.

import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The Debian package .ci/run installs when Chromium is missing. */
export const CHROMIUM_PACKAGE = 'chromium';

/** Path of a Chromium binary, or undefined when none is installed. */
export async function findChromium(): Promise<string | undefined> {
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

/**
 * Screenshots the local file `page` into `png` at `width` × `height` CSS pixels (device scale 1). Chromium once
 * exited 0 without writing the file while the machine was loaded (a CI run beside other work): one more try
 * then, and if the file is still missing, an error carrying Chromium's last output lines.
 */
export async function screenshot(chromium: string, page: string, png: string, size: { width: number; height: number }): Promise<void> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--force-device-scale-factor=1',
    `--window-size=${size.width},${size.height}`,
    `--screenshot=${png}`,
    pathToFileURL(page).href,
  ];
  let output = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const { stdout, stderr } = await run(chromium, args, { timeout: 120_000 });
    if (await exists(png)) return;
    output = `${stdout}${stderr}`.trim().split('\n').slice(-5).join('\n');
  }
  throw new Error(`Chromium exited without writing ${png} (twice); its last lines:\n${output}`);
}

const exists = (file: string) => access(file).then(() => true, () => false);

/**
 * Loads the local file `page` in headless Chromium at `width` × `height` CSS pixels, lets its scripts run,
 * and returns the DOM as HTML (`--dump-dom`): a test appends a script that writes layout measurements
 * (getBoundingClientRect) into the page and reads them back here.
 */
export async function dumpDom(chromium: string, page: string, size: { width: number; height: number }): Promise<string> {
  const { stdout } = await run(
    chromium,
    ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1', `--window-size=${size.width},${size.height}`, '--dump-dom', pathToFileURL(page).href],
    { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}
