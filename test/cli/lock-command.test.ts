// `rdw lock` and `rdw reproduce` through runCli against an in-test mock: exit codes 0/2/3/6, output, and
// that a lock written in one home reproduces the same event-study numbers in another.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy, type EventStudyResult } from '../../src/analysis/index.js';
import { openCatalog } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { readLock, studyLockFromJson, studyLockToJson } from '../../src/locks/index.js';
import { createTempHome } from '../support/temp-home.js';
import { environmentMessages } from '../../src/contract/index.js';
import { editedLock, flipByte, otherSha } from '../support/lock-fixture.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let mock: MockServer;
const homes: { remove(): Promise<void> }[] = [];

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 12 });
});
afterAll(async () => {
  for (const home of homes) await home.remove();
  await mock.close();
});

async function newHome(): Promise<string> {
  const temp = await createTempHome();
  homes.push(temp);
  return temp.home;
}

/** `rdw <argv> --home <home>` in-process with the in-test mock's URL and desk key; cwd = home. */
async function rdw(home: string, argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, ...env },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: home,
  });
  return { code, stdout, stderr };
}

async function studyIn(home: string, ids: readonly string[]): Promise<EventStudyResult> {
  const catalog = await openCatalog(home);
  try {
    return await eventStudy({ connection: catalog.connection }, { windows: ['1h', '4h'], releases: ids, bootstrap: { samples: 200 } });
  } finally {
    await catalog.close();
  }
}

describe('rdw lock / rdw reproduce', () => {
  it('lock --latest 3 in one home, reproduce in another: exit 0 and identical event-study numbers', async () => {
    const first = await newHome();
    const lockRun = await rdw(first, ['lock', 'study.lock.json', '--latest', '3']);
    expect(lockRun.code).toBe(0);
    // A new user's trial: "wrote study.lock.json: 10 release(s) of …", "reproduced …: 10 release(s), …": counted words.
    expect(lockRun.stdout).toMatch(/^wrote study\.lock\.json: 3 releases of market-events-v1, /);
    const lockPath = path.join(first, 'study.lock.json');
    // A path given absolute is printed as given, not as a walk from the working folder.
    const elsewhere = await newHome();
    const absolute = await rdw(first, ['lock', path.join(elsewhere, 'abs.lock.json'), '--latest', '1']);
    expect(absolute.code).toBe(0);
    expect(absolute.stdout).toMatch(new RegExp(`^wrote ${path.join(elsewhere, 'abs.lock.json').replace(/[.]/g, '\\.')}: 1 release of `));
    // A target that is not a file is refused before the API is asked anything (nothing pulled for nothing).
    const requests = mock.requestLog.length;
    const device = await rdw(elsewhere, ['lock', '/dev/null', '--latest', '1']);
    expect(device.code).toBe(1);
    expect(device.stderr).toBe(`rdw: ${environmentMessages.notARegularFile('/dev/null', 'a device')}\n`);
    expect(mock.requestLog.length).toBe(requests);
    // A folder too (a new user's trial: `rdw lock /tmp --latest 1` pulled a release, then refused the folder).
    const folder = await rdw(elsewhere, ['lock', elsewhere, '--latest', '1']);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toBe(`rdw: ${environmentMessages.isAFolder(elsewhere)}\n`);
    expect(mock.requestLog.length).toBe(requests);
    const lock = await readLock(lockPath);
    expect(lock.releases).toHaveLength(3);
    // The lines show 12 characters of each ID; the lock file holds whole IDs (read above).
    for (const release of lock.releases) expect(lockRun.stdout).toContain(`  ${release.id.slice(0, 12)} ${release.day} `);
    for (const release of lock.releases) expect(lockRun.stdout).not.toContain(release.id);

    const second = await newHome();
    const copied = path.join(second, 'copied.json');
    await writeFile(copied, await readFile(lockPath));
    const reproduce = await rdw(second, ['reproduce', 'copied.json']);
    expect(reproduce.code).toBe(0);
    const okLines = reproduce.stdout.split('\n').filter((line) => line.startsWith('OK '));
    expect(okLines).toEqual(lock.releases.map((release) => `OK ${release.id.slice(0, 12)} ${release.day} ${release.version} pulled (3 files verified)`));
    expect(reproduce.stdout).toMatch(/^reproduced copied\.json: 3 releases, 3 pulled, 9 stored files \([^)]+\) match the lock$/m);

    const ids = lock.releases.map((release) => release.id);
    const [a, b] = [await studyIn(first, ids), await studyIn(second, ids)];
    expect(a.rows.length).toBeGreaterThan(0);
    expect(b.rows).toEqual(a.rows);

    // Again: everything present, no API needed at all (a dead base URL is never contacted).
    const again = await rdw(second, ['reproduce', 'copied.json', '--json'], { RDW_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as { pulled: number; releases: { status: string }[] };
    expect(report.pulled).toBe(0);
    expect(report.releases.map((release) => release.status)).toEqual(['present', 'present', 'present']);
  });

  it('lock with IDs pulls missing ones by exact ID; --json prints the lock written', async () => {
    const home = await newHome();
    const source = await newHome();
    expect((await rdw(source, ['lock', 'l.json', '--latest', '2'])).code).toBe(0);
    const ids = (await readLock(path.join(source, 'l.json'))).releases.map((release) => release.id);
    const run = await rdw(home, ['lock', 'pinned.json', ...ids, '--json']);
    expect(run.code).toBe(0);
    const text = await readFile(path.join(home, 'pinned.json'), 'utf8');
    expect(run.stdout).toBe(text);
    expect(studyLockToJson(studyLockFromJson(text))).toBe(text);
    expect(studyLockFromJson(text).releases.map((release) => release.id).sort()).toEqual([...ids].sort());
    expect(text).not.toContain(mock.keys.desk);
    expect(text).not.toMatch(/[/\\]|127\.0\.0\.1|http/);
  });

  it('bad arguments are exit 2 before any request; an unknown ID to lock is exit 6', async () => {
    const home = await newHome();
    const before = mock.requestLog.length;
    expect((await rdw(home, ['lock'])).code).toBe(2);
    expect((await rdw(home, ['lock', 'x.json'])).code).toBe(2);
    expect((await rdw(home, ['lock', 'x.json', 'abc'])).code).toBe(2);
    expect((await rdw(home, ['lock', 'x.json', '--latest', '2', 'a'.repeat(64)])).code).toBe(2);
    expect((await rdw(home, ['reproduce'])).code).toBe(2);
    expect(mock.requestLog.length).toBe(before);
    // A file that is not a lock is never replaced (a new user's `rdw lock notes.md --latest 3` had replaced the notes).
    await writeFile(path.join(home, 'notes.md'), 'my precious notes\n');
    const notLock = await rdw(home, ['lock', 'notes.md', '--latest', '2']);
    expect(notLock.code).toBe(2);
    expect(notLock.stderr).toBe('rdw: notes.md exists and is not a study lock (no JSON "lockVersion"); a lock is written only over an earlier lock: name a new file, or move notes.md away first.\n');
    expect(await readFile(path.join(home, 'notes.md'), 'utf8')).toBe('my precious notes\n');
    expect(mock.requestLog.length).toBe(before);
    const unknown = await rdw(home, ['lock', 'x.json', 'e'.repeat(64)]);
    expect(unknown.code).toBe(6);
  });

  it('reproduce: unknown release exit 6, newer lockVersion / malformed / missing lock exit 2, differing checksums exit 3', async () => {
    const home = await newHome();
    expect((await rdw(home, ['lock', 'good.json', '--latest', '2'])).code).toBe(0);
    const lock = await readLock(path.join(home, 'good.json'));
    const target = lock.releases[0]!;
    const write = (name: string, text: string) => writeFile(path.join(home, name), text);

    await write('unknown.json', studyLockToJson(editedLock(lock, (copy) => void (copy.releases[0]!.id = 'e'.repeat(64)))));
    const unknown = await rdw(home, ['reproduce', 'unknown.json']);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain('e'.repeat(64));

    await write('newer.json', studyLockToJson(lock).replace('"lockVersion": 1', '"lockVersion": 7'));
    const newer = await rdw(home, ['reproduce', 'newer.json']);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('lockVersion 7');
    await write('broken.json', '{"lockVersion": 1, "releases": []}');
    expect((await rdw(home, ['reproduce', 'broken.json'])).code).toBe(2);
    const missing = await rdw(home, ['reproduce', 'absent.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('absent.json');

    const edits: [string, Parameters<typeof editedLock>[1], string][] = [
      ['manifest.json', (copy) => void (copy.releases[0]!.manifestSha256 = otherSha(target.manifestSha256)), 'manifest'],
      ['schema.json', (copy) => void (copy.releases[0]!.schemaSha256 = target.schemaSha256 === null ? 'f'.repeat(64) : otherSha(target.schemaSha256)), 'schema'],
      ['parquet.json', (copy) => void (copy.releases[0]!.files.parquet!.sha256 = otherSha(target.files.parquet!.sha256)), 'parquet'],
    ];
    for (const [name, edit, word] of edits) {
      await write(name, studyLockToJson(editedLock(lock, edit)));
      const run = await rdw(home, ['reproduce', name]);
      expect(run.code).toBe(3);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(target.id);
      expect(run.stderr).toContain(word);
    }
    expect((await rdw(home, ['reproduce', 'good.json'])).code).toBe(0);
  });

  it('reproduce: a tampered stored file is exit 3 in one sentence naming the release and the file', async () => {
    const home = await newHome();
    expect((await rdw(home, ['lock', 'good.json', '--latest', '1'])).code).toBe(0);
    const lock = await readLock(path.join(home, 'good.json'));
    const release = lock.releases[0]!;
    const sha = release.files.parquet!.sha256;
    await flipByte(path.join(home, 'store', 'sha256', sha.slice(0, 2), sha), 300);
    const run = await rdw(home, ['reproduce', 'good.json']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(release.id);
    expect(lines[0]).toContain(`store/sha256/${sha.slice(0, 2)}/${sha}`);
    expect(lines[0]).toContain('parquet');
  });
});
