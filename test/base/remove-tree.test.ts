// removeTree (issue 27): deletes only inside a folder this process made or registered, decided on the path with
// symlinks and `..` resolved, and refuses the root, the home folder, the checkout, the working folder and short
// paths with a typed error naming the path. Every refusal leaves its target (and a marker in it) in place.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MIN_REMOVABLE_SEGMENTS,
  RdwError,
  UnsafeDeleteError,
  baseMessages,
  makeTemporaryFolder,
  ownFolder,
  removeTree,
  resolveRemovableTree,
  type UnsafeDeleteReason,
} from '../../src/base/index.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A folder holding a marker file, to prove a refused delete left it whole. */
async function withMarker(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'marker.txt'), 'keep me');
  return folder;
}
const markerKept = async (folder: string) => (await readFile(path.join(folder, 'marker.txt'), 'utf8')) === 'keep me';

/** The refusal removeTree(target) throws: class, code, reason and the resolved path it names. */
async function refusal(target: string): Promise<UnsafeDeleteError> {
  const error = await removeTree(target).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnsafeDeleteError);
  expect(error).toBeInstanceOf(RdwError);
  expect((error as UnsafeDeleteError).code).toBe('RDW_UNSAFE_DELETE');
  expect((error as UnsafeDeleteError).exitCode).toBe(1);
  return error as UnsafeDeleteError;
}

function expectRefused(error: UnsafeDeleteError, resolved: string, given: string, reason: UnsafeDeleteReason): void {
  expect({ path: error.path, reason: error.reason }).toEqual({ path: resolved, reason });
  expect(error.message).toBe(baseMessages.unsafeDelete(resolved, given, reason, MIN_REMOVABLE_SEGMENTS));
  expect(error.message).toContain(resolved);
}

let owned: string;
let outside: string;
beforeAll(async () => {
  owned = await makeTemporaryFolder('rdw-remove-tree-');
  // Made by plain mkdtemp: not this process's to delete.
  outside = await withMarker(await realpath(await mkdtemp(path.join(os.tmpdir(), 'rdw-remove-tree-outside-'))));
});
afterAll(async () => {
  await removeTree(owned);
  await ownFolder(outside);
  await removeTree(outside);
});

describe('removeTree refuses', () => {
  const home = process.env.HOME;
  const cwd = process.cwd();
  afterEach(() => {
    process.env.HOME = home;
    process.chdir(cwd);
  });

  it('the root of the file system, however it is spelled', async () => {
    expectRefused(await refusal('/'), '/', '/', 'root');
    expectRefused(await refusal(`${owned}/x/../../../../../../../../..`), '/', `${owned}/x/../../../../../../../../..`, 'root');
  });

  it('the home folder and a folder holding it, even inside a folder this process made', async () => {
    const scratchHome = await withMarker(path.join(owned, 'home', 'user'));
    process.env.HOME = scratchHome;
    expectRefused(await refusal(scratchHome), scratchHome, scratchHome, 'home');
    expectRefused(await refusal(path.join(owned, 'home')), path.join(owned, 'home'), path.join(owned, 'home'), 'home');
    expect(await markerKept(scratchHome)).toBe(true);
    // What the home holds is not the home: a made folder inside it may go.
    await withMarker(path.join(scratchHome, 'tmp', 'run'));
    await removeTree(path.join(scratchHome, 'tmp', 'run'));
    expect(existsSync(path.join(scratchHome, 'tmp', 'run'))).toBe(false);
    expect(await markerKept(scratchHome)).toBe(true);
  });

  it("rdw's package folder (the checkout) and a folder holding it", async () => {
    const root = await realpath(REPO_ROOT);
    expectRefused(await refusal(REPO_ROOT), root, REPO_ROOT, 'package');
    if (path.dirname(root) !== '/') expectRefused(await refusal(path.dirname(REPO_ROOT)), path.dirname(root), path.dirname(REPO_ROOT), 'package');
    expect(existsSync(path.join(REPO_ROOT, 'package.json'))).toBe(true);
  });

  it('the current working folder and a folder holding it, even inside a folder this process made', async () => {
    const work = await withMarker(path.join(owned, 'work', 'here'));
    process.chdir(work);
    expectRefused(await refusal(work), work, work, 'working-folder');
    expectRefused(await refusal('.'), work, '.', 'working-folder');
    expectRefused(await refusal('..'), path.join(owned, 'work'), '..', 'working-folder');
    expect(await markerKept(work)).toBe(true);
  });

  it("issue 27's line: the parent of the temporary folder, from a kernel folder made in it (the home, with TMPDIR=$HOME/tmp)", async () => {
    const scratchHome = await withMarker(path.join(owned, 'issue-27-home'));
    process.env.HOME = scratchHome;
    await mkdir(path.join(scratchHome, 'tmp'));
    const dataDir = await makeTemporaryFolder('rdw-kernel-', { parent: path.join(scratchHome, 'tmp') });
    expectRefused(await refusal(path.dirname(path.dirname(dataDir))), scratchHome, path.dirname(path.dirname(dataDir)), 'home');
    expect(await markerKept(scratchHome)).toBe(true);
    await removeTree(dataDir);
    expect(existsSync(dataDir)).toBe(false);
  });

  it(`a path of fewer than ${MIN_REMOVABLE_SEGMENTS} segments`, async () => {
    expectRefused(await refusal('/rdw-no-such-folder-27'), '/rdw-no-such-folder-27', '/rdw-no-such-folder-27', 'too-short');
    await expect(ownFolder('/rdw-no-such-folder-27')).rejects.toMatchObject({ code: 'RDW_UNSAFE_DELETE', reason: 'too-short' });
  });

  it('a folder outside every folder this process made or registered', async () => {
    expectRefused(await refusal(outside), outside, outside, 'not-owned');
    expectRefused(await refusal(path.dirname(owned)), path.dirname(owned), path.dirname(owned), 'not-owned');
    expect(await markerKept(outside)).toBe(true);
  });

  it('a `..` that climbs out of a made folder', async () => {
    const given = `${owned}/a/b/../../../${path.basename(outside)}`;
    expectRefused(await refusal(given), outside, given, 'not-owned');
    expect(await markerKept(outside)).toBe(true);
  });

  it('a symlink out of a made folder, and `..` taken after the symlink (the kernel resolves the link first)', async () => {
    const link = path.join(owned, 'link-out');
    await symlink(outside, link);
    await writeFile(path.join(outside, 'inner'), 'inner');
    expectRefused(await refusal(path.join(link, 'inner')), path.join(outside, 'inner'), path.join(link, 'inner'), 'not-owned');
    // Lexically `link-out/..` is the made folder; really it is the folder holding `outside`.
    expectRefused(await refusal(`${link}/..`), path.dirname(outside), `${link}/..`, 'not-owned');
    expect(await markerKept(outside)).toBe(true);
    // The link itself lies in the made folder: deleting it removes the link, not what it points to.
    await removeTree(link);
    expect(existsSync(link)).toBe(false);
    expect(await markerKept(outside)).toBe(true);
  });

  it('to register the root, the home folder or the checkout with ownFolder', async () => {
    await expect(ownFolder('/')).rejects.toMatchObject({ code: 'RDW_UNSAFE_DELETE', reason: 'root' });
    await expect(ownFolder(REPO_ROOT)).rejects.toMatchObject({ code: 'RDW_UNSAFE_DELETE', reason: 'package' });
    const scratchHome = await withMarker(path.join(owned, 'other-home'));
    process.env.HOME = scratchHome;
    await expect(ownFolder(path.join(owned, 'other-home'))).rejects.toMatchObject({ code: 'RDW_UNSAFE_DELETE', reason: 'home' });
  });
});

describe('removeTree deletes', () => {
  it('a tree inside a made folder, and a missing path there without complaint', async () => {
    const tree = await withMarker(path.join(owned, 'tree', 'deep', 'er'));
    await writeFile(path.join(owned, 'tree', 'file'), 'x');
    expect(await resolveRemovableTree(path.join(owned, 'tree'))).toBe(path.join(owned, 'tree'));
    await removeTree(path.join(owned, 'tree'));
    expect(existsSync(tree)).toBe(false);
    expect(existsSync(path.join(owned, 'tree'))).toBe(false);
    await removeTree(path.join(owned, 'never-made'));
    expect(existsSync(owned)).toBe(true);
  });

  it('a made folder itself, which is then no longer this process\'s', async () => {
    const folder = await withMarker(await makeTemporaryFolder('rdw-remove-tree-made-'));
    expect(folder).toBe(await realpath(folder));
    await removeTree(folder);
    expect(existsSync(folder)).toBe(false);
    await withMarker(folder);
    expectRefused(await refusal(folder), folder, folder, 'not-owned');
    await ownFolder(folder);
    await removeTree(folder);
    expect(existsSync(folder)).toBe(false);
  });

  it('inside a folder registered with ownFolder before it existed, by a relative path too', async () => {
    const parent = await makeTemporaryFolder('rdw-remove-tree-parent-');
    const registered = path.join(parent, 'store', 'tmp');
    const outsideOfIt = await withMarker(path.join(parent, 'store', 'sha256'));
    expect(await ownFolder(registered)).toBe(registered);
    await withMarker(path.join(registered, 'trash.1'));
    await removeTree(path.relative(process.cwd(), path.join(registered, 'trash.1')));
    expect(existsSync(path.join(registered, 'trash.1'))).toBe(false);
    await removeTree(registered);
    expect(existsSync(registered)).toBe(false);
    expect(await markerKept(outsideOfIt)).toBe(true);
    await removeTree(parent);
    expect(existsSync(parent)).toBe(false);
  });
});
