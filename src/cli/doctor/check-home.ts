// The RDW_HOME check of `rdw doctor`: the folder (or, before first use, its nearest existing parent) takes
// a new file; proven by creating a temporary file and removing it at once, so nothing is left behind.

import { randomBytes } from 'node:crypto';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT_CODES } from '../../contract/index.js';
import { doctorMessages as m } from '../messages.js';
import { failed, passed, type DoctorCheck } from './doctor-check.js';

/** Checks that `home` (absolute) is, or can become, a writable folder. */
export async function checkHome(home: string): Promise<DoctorCheck> {
  const facts = { home };
  const fail = (message: string) => failed('home', message, m.homeRemedy(), EXIT_CODES.failure, facts);
  // 1. the home itself, or else the nearest existing folder above it
  let folder = home;
  for (;;) {
    const info = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
    if (!(info instanceof Error)) {
      if (info.isDirectory()) break;
      return fail(folder === home ? m.homeIsFile(home) : m.homeBelowFile(home));
    }
    if (info.code === 'ENOTDIR') return fail(m.homeBelowFile(home));
    if (info.code !== 'ENOENT') return fail(m.homeNotWritable(home, info.code ?? info.message));
    const parent = path.dirname(folder);
    if (parent === folder) return fail(m.homeNotWritable(home, m.noFolderOfPath()));
    folder = parent;
  }
  // 2. a temporary file, created exclusively and removed at once
  const probe = path.join(folder, `.rdw-doctor-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    return fail(m.homeNotWritable(folder === home ? home : `${home} (its folder ${folder})`, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
  await rm(probe, { force: true });
  return folder === home ? passed('home', m.homeWritable(home), facts) : passed('home', m.homeToCreate(home, folder), { ...facts, exists: false });
}
