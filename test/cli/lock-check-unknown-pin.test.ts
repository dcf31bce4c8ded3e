// `rdw lock check` on a pin that is in neither the listing nor the catalog (its ID re-cased, or a well-formed ID
// that never existed) while the listing names another release for its day: reported as not in its day's listing
// (status `unknown`, exit 0 like every finding), never as "has a newer revision". IDs are exact.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { syncMessages } from '../../src/cli/messages.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { createTempHome } from '../support/temp-home.js';

let mock: MockServer;
let temp: { home: string; remove(): Promise<void> };

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 3, seed: 3 });
  temp = await createTempHome();
});
afterAll(async () => {
  await temp.remove();
  await mock.close();
});

async function rdw(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', temp.home], {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: temp.home,
  });
  return { code, stdout, stderr };
}

interface LockJson {
  releases: { id: string; day: string }[];
}

describe('rdw lock check, a pin unknown to the listing and the catalog', () => {
  it.each([
    ['the pinned ID upper-cased', 'upper.lock.json', (id: string) => id.toUpperCase()],
    ['a well-formed ID that never existed', 'never.lock.json', (id: string) => `${id[0] === '0' ? '1' : '0'}${id.slice(1)}`],
  ])('%s: not in the listing of its day, not "has a newer revision" (exit 0)', async (_name, file, change) => {
    const made = await rdw(['lock', 'real.lock.json', '--latest', '2']);
    expect(made.code, made.stderr).toBe(0);
    const lock = JSON.parse(await readFile(path.join(temp.home, 'real.lock.json'), 'utf8')) as LockJson;
    const [pinned, other] = lock.releases;
    const wrongId = change(pinned!.id);
    expect(wrongId).not.toBe(pinned!.id);
    await writeFile(path.join(temp.home, file), JSON.stringify({ ...lock, releases: [{ ...pinned, id: wrongId }, other] }, null, 2));

    const text = await rdw(['lock', 'check', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('has a newer revision');
    expect(text.stdout).toContain(
      `${syncMessages.lockPinUnknown(file, pinned!.day)}\n  pinned ${wrongId}\n  listed ${pinned!.id}\n${syncMessages.lockPinUnknownRemedy()}\n`,
    );
    for (const line of text.stdout.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(text.stdout).not.toContain(syncMessages.lockUnchanged(file));

    const json = await rdw(['lock', 'check', file, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { revised: number; locks: { releases: { id: string; status: string; newerId: string | null; listedId?: string }[] }[] };
    expect(report.revised).toBe(0);
    expect(report.locks[0]!.releases).toEqual([
      expect.objectContaining({ id: wrongId, status: 'unknown', newerId: null, listedId: pinned!.id }),
      expect.objectContaining({ id: other!.id, status: 'current' }),
    ]);
  });
});
