// Test helper: another process holding a catalog, as a notebook kernel or a second rdw would.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A child process holding `<home>/catalog.duckdb` open until killed (resolves once it holds it): for writing
 * (DuckDB's exclusive lock) by default, or with `readOnly` as a reader (its shared lock; the file must exist).
 */
export async function holdCatalog(home: string, options: { readOnly?: boolean } = {}): Promise<ChildProcess> {
  const code = `import { DuckDBInstance } from '@duckdb/node-api';
const readOnly = process.env.HOLD_READ_ONLY === '1';
const instance = await DuckDBInstance.create(process.env.HOLD_FILE, readOnly ? { access_mode: 'READ_ONLY' } : {});
const connection = await instance.connect();
if (!readOnly) await connection.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
// Keep both reachable: V8 may free module locals no closure uses, and a collected instance drops the lock.
globalThis.held = { instance, connection };
console.log('ready');
setInterval(() => void globalThis.held, 60000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOLD_FILE: path.join(home, 'catalog.duckdb'), HOLD_READ_ONLY: options.readOnly === true ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : undefined));
    child.once('exit', (status) => reject(new Error(`the holder exited with ${status}`)));
  });
  return child;
}
