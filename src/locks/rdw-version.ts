// The version of this rdw (package.json), written into a lock as information only.

import { readFile } from 'node:fs/promises';

let cached: Promise<string> | undefined;

/** `version` of rdw's package.json (same relative place from `src/locks` and `dist/locks`); `unknown` if unreadable. */
export function rdwVersion(): Promise<string> {
  cached ??= readFile(new URL('../../package.json', import.meta.url), 'utf8').then(
    (text) => String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown'),
    () => 'unknown',
  );
  return cached;
}
