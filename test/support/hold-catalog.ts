// Test helper: another process holding a catalog, as a notebook kernel or a second rdw would.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A child process holding `<home>/catalog.duckdb` open for writing until killed (resolves once it holds it). */
export async function holdCatalog(home: string): Promise<ChildProcess> {
  const code = `import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(process.env.HOLD_FILE);
const connection = await instance.connect();
await connection.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
// Keep both reachable: V8 may free module locals no closure uses, and a collected instance drops the lock.
globalThis.held = { instance, connection };
console.log('ready');
setInterval(() => void globalThis.held, 60000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOLD_FILE: path.join(home, 'catalog.duckdb') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : undefined));
    child.once('exit', (status) => reject(new Error(`the holder exited with ${status}`)));
  });
  return child;
}
