// Test helper: a notebook-like child process holding a lease-mode catalog (`hold: 'while-busy'`) open for
// its whole life, driven line by line over stdin: `state`, `count`, `busy MS` (an operation lasting MS),
// `hold` (an operation lasting until `release`).

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface LeaseHolder {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Sends one command; resolves with the next line starting with `reply`. */
  ask(command: string, reply: string): Promise<string>;
  /** Closes the catalog and ends the process. */
  stop(): Promise<void>;
}

/** Starts the holder; resolves once its Catalog (lease mode) is open. */
export async function startLeaseHolder(home: string): Promise<LeaseHolder> {
  const code = `import { openCatalog } from ${JSON.stringify(path.join(REPO_ROOT, 'src/catalog/index.ts'))};
import { createInterface } from 'node:readline';
const catalog = await openCatalog(process.env.LEASE_HOME, { hold: 'while-busy' });
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.split(' ');
  if (command === 'state') console.log(\`state \${catalog.fileOpen ? 'open' : 'closed'} \${catalog.fileOpens}\`);
  if (command === 'count') console.log(\`count \${(await catalog.query('SELECT count(*)::INTEGER AS n FROM releases'))[0].n}\`);
  if (command === 'busy') {
    await catalog.exclusive(async (connection) => {
      await connection.run('SELECT 1');
      console.log('busy-start');
      await new Promise((resolve) => setTimeout(resolve, Number(argument)));
    });
    console.log('busy-end');
  }
  if (command === 'hold') {
    void catalog.exclusive(async () => {
      console.log('held');
      await new Promise((resolve) => (globalThis.release = resolve));
    }).then(() => console.log('released'));
  }
  if (command === 'release') globalThis.release?.();
  if (command === 'stop') break;
}
await catalog.close();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, LEASE_HOME: home },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: { reply: string; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const index = waiting.findIndex((entry) => line.startsWith(entry.reply));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(line);
  });
  const next = (reply: string) => new Promise<string>((resolve) => waiting.push({ reply, resolve }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([next('ready'), exited.then(() => Promise.reject(new Error('the lease holder exited')))]);
  return {
    child,
    pid: child.pid!,
    ask(command, reply) {
      const answer = next(reply);
      child.stdin!.write(`${command}\n`);
      return answer;
    },
    async stop() {
      child.stdin!.end('stop\n');
      await exited;
    },
  };
}
