import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { doctorMessages } from '../../src/cli/messages.js';
import type { MockServer } from '../../src/mock/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { captureOutput } from '../support/capture-output.js';
import { findJupyterPython } from '../support/jupyter.js';
import { startOddDocumentsServer, type FixedAnswer } from '../support/odd-documents-server.js';
import { createTempHome, withTempHome } from '../support/temp-home.js';
import { holdCatalog } from '../support/hold-catalog.js';
import { openCatalog } from '../../src/catalog/index.js';
import { behindRdwsBack } from '../support/behind-rdws-back.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  message: string;
  remedy?: string;
  exitCode?: number;
  facts?: Record<string, unknown>;
}
interface Report {
  ok: boolean;
  exitCode: number;
  checks: Check[];
}

/** This checkout's kernel launcher (`rdw kernel install` puts it in kernel.json's argv; needs dist/). */
const LAUNCHER = path.join(import.meta.dirname, '../../dist/cli/tslab-kernel-main.js');
const NAMES = ['base_url', 'key', 'plan', 'clock', 'home', 'catalog', 'kernel'];
const FOREIGN_KEY = `rdw_sk_${'F'.repeat(32)}`;

async function doctor(env: Record<string, string | undefined>, home: string, ...flags: string[]) {
  const out = captureOutput();
  const err = captureOutput();
  const code = await runCli(['doctor', '--home', home, ...flags], { env, stdout: out.output, stderr: err.output });
  const text = out.text();
  const report = flags.includes('--json') ? (JSON.parse(text) as Report) : undefined;
  const check = (name: string) => report?.checks.find((entry) => entry.name === name);
  return { code, out: text, err: err.text(), report, check, statuses: report?.checks.map((entry) => entry.status) };
}

/** A port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}


/** A JUPYTER_PATH folder registering a tslab kernelspec whose program is `binary` (and `launcher`, when given). */
async function fakeKernelPath(root: string, binary: string, launcher?: string): Promise<string> {
  const dir = path.join(root, 'jupyter', 'kernels', 'tslab');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'kernel.json'), JSON.stringify({ argv: [binary, ...(launcher ? [launcher] : []), 'kernel', '--config-path={connection_file}'], display_name: 'TypeScript', language: 'typescript' }));
  return path.join(root, 'jupyter');
}

describe('rdw doctor', () => {
  let mock: MockServer;
  let jupyter: boolean;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, days: 3 });
    jupyter = (await findJupyterPython()) !== undefined;
  });
  afterAll(() => mock.close());
  const mockEnv = (key: string) => ({ RDW_BASE_URL: mock.baseUrl, RDW_SITE_URL: mock.siteUrl, RDW_API_KEY: key });

  it('passes every check against the embedded mock and leaves RDW_HOME as it was', async () => {
    await withTempHome(async (home) => {
      const env = { JUPYTER_PATH: await fakeKernelPath(home, process.execPath, LAUNCHER) };
      const before = await readdir(home);
      const result = await doctor(env, home, '--json');
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
      expect(result.report!.ok).toBe(true);
      expect(result.report!.checks.map((check) => check.name)).toEqual(NAMES);
      expect(result.statuses).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', jupyter ? 'ok' : 'warn']);
      expect(result.check('base_url')!.facts).toMatchObject({ embedded: true });
      expect(result.check('plan')!.facts!.limits).toMatchObject({ rpm: 300, daily_bytes: 5 * 1024 ** 3, source: 'reported' });
      expect(result.check('plan')!.message).toContain('Research Desk plan');
      // doctor writes nothing to RDW_HOME: its probe file is gone, and its client kept its state in memory.
      expect(await readdir(home)).toEqual(before);
    });
  });

  it('explains a revoked key (401) in one line and exits 4, never printing the key', async () => {
    await withTempHome(async (home) => {
      const result = await doctor(mockEnv(mock.keys.revoked), home);
      expect(result.code).toBe(4);
      expect(result.out).toMatch(/^fail {2}key +RDW_API_KEY was refused: HTTP 401/m);
      expect(result.out).toMatch(/^skip {2}plan and limits +not checked/m);
      expect(result.out).toMatch(/^ok {4}base URL +http:\/\/127\.0\.0\.1:\d+\/v1 answered/m);
      expect(result.out + result.err).not.toContain(mock.keys.revoked);
      expect(result.out).toContain('exit code 4');
    });
  });

  it('explains a key without an active plan (403 on the paid scope) and exits 4', async () => {
    await withTempHome(async (home) => {
      const result = await doctor(mockEnv(mock.keys.lapsed), home, '--json');
      expect(result.code).toBe(4);
      expect(result.check('key')!.status).toBe('ok');
      const plan = result.check('plan')!;
      expect(plan).toMatchObject({ status: 'fail', exitCode: 4 });
      expect(plan.facts).toMatchObject({ status: 403 });
      expect(plan.message).toContain('no active data plan / key over the plan allowance');
      expect(result.out + result.err).not.toContain(mock.keys.lapsed);
    });
  });

  it('reports an unreachable base URL (exit 1) and does not run the checks that need it', async () => {
    await withTempHome(async (home) => {
      const port = await closedPort();
      const result = await doctor({ RDW_BASE_URL: `http://127.0.0.1:${port}/v1`, RDW_API_KEY: FOREIGN_KEY }, home, '--json');
      expect(result.code).toBe(1);
      expect(result.check('base_url')).toMatchObject({ status: 'fail', exitCode: 1 });
      expect(result.check('base_url')!.message).toContain(`http://127.0.0.1:${port}/v1 could not be reached: connection refused`);
      expect(result.statuses!.slice(1, 4)).toEqual(['skip', 'skip', 'skip']);
      expect(result.check('home')!.status).toBe('ok');
    });
  });

  it.each([
    ['a file', async (root: string) => {
      await writeFile(path.join(root, 'home'), 'not a folder');
      return path.join(root, 'home');
    }, 'is a file, not a folder'],
    ['below a file', async (root: string) => {
      await writeFile(path.join(root, 'file'), '');
      return path.join(root, 'file', 'home');
    }, 'a part of its path is a file'],
    ['in a folder nobody may write', async () => '/sys/rdw-doctor-home', 'is not writable'],
  ])('fails (exit 1) when RDW_HOME is %s, and does not probe its catalog', async (_case, makeHome, text) => {
    await withTempHome(async (root) => {
      const home = await makeHome(root);
      const result = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(result.code).toBe(1);
      expect(result.check('home')).toMatchObject({ status: 'fail', exitCode: 1 });
      expect(result.check('home')!.message).toContain(text);
      expect(result.check('catalog')!.status).toBe('skip');
      expect(result.check('key')!.status).toBe('ok');
    });
  });

  it('names the process that holds the catalog (exit 1) without disturbing it, and passes once it is gone', async () => {
    await withTempHome(async (home) => {
      const holder = await holdCatalog(home);
      try {
        const held = await doctor(mockEnv(mock.keys.desk), home, '--json');
        expect(held.code).toBe(1);
        const catalog = held.check('catalog')!;
        expect(catalog).toMatchObject({ status: 'fail', exitCode: 1 });
        expect(catalog.facts!.pid).toBe(holder.pid);
        expect(catalog.message).toContain(`PID ${holder.pid}`);
        expect(holder.exitCode).toBeNull(); // still running
      } finally {
        holder.kill('SIGKILL');
        await new Promise((resolve) => holder.once('exit', resolve));
      }
      const free = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(free.check('catalog')!.status).toBe('ok');
      expect(free.code).toBe(0);
    });
  });

  it("fails (exit 3) on a catalog that stores a macro named like DuckDB's own function, naming it and how to drop it", async () => {
    await withTempHome(async (home) => {
      // Studies refuse such a catalog (ShadowedNameError): doctor says so before a study does.
      await behindRdwsBack(home, 'CREATE MACRO ln(x) AS 7');
      const result = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(result.code).toBe(3);
      const catalog = result.check('catalog')!;
      expect(catalog).toMatchObject({ status: 'fail', exitCode: 3 });
      expect(catalog.facts!.shadowed).toEqual(['catalog.main.ln()']);
      expect(catalog.message).toMatch(/catalog\.duckdb stores catalog\.main\.ln\(\), named like DuckDB's own function: DuckDB would call it instead in every study, so studies refuse this catalog\.$/);
      expect(catalog.remedy).toBe("Run \"rdw verify --repair\" to drop it, or drop it in your own code (catalog.query('DROP MACRO catalog.main.ln')).");
    });
  });

  it("fails (exit 3) on a catalog whose view market_events_current was replaced or dropped, naming rdw verify --repair", async () => {
    await withTempHome(async (home) => {
      // A catalog rdw made (opened once: created and migrated), then changed behind its back.
      const made = await openCatalog(home);
      await made.close();
      await behindRdwsBack(home, 'CREATE OR REPLACE VIEW market_events_current AS SELECT * FROM market_events');
      const replaced = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(replaced.code).toBe(3);
      expect(replaced.check('catalog')).toMatchObject({ status: 'fail', exitCode: 3, facts: { view: 'replaced' } });
      expect(replaced.check('catalog')!.message).toMatch(/catalog\.duckdb: its view market_events_current is not rdw's \(replaced outside rdw\), so studies would not read the newest revision of each day\.$/);
      expect(replaced.check('catalog')!.remedy).toBe('Run "rdw verify --repair" to restore it.');
      await behindRdwsBack(home, 'DROP VIEW market_events_current');
      const dropped = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(dropped.check('catalog')).toMatchObject({ status: 'fail', exitCode: 3, facts: { view: 'missing' } });
      expect(dropped.check('catalog')!.message).toContain('its view market_events_current is missing (dropped outside rdw)');
    });
  });

  it('fails (exit 3) on a catalog whose row table column was changed outside rdw (it passed), naming rdw verify --repair', async () => {
    await withTempHome(async (home) => {
      const made = await openCatalog(home);
      await made.close();
      await behindRdwsBack(home, 'ALTER TABLE market_events ALTER sample_time TYPE VARCHAR', 'ALTER TABLE market_events DROP COLUMN price');
      const run = await doctor(mockEnv(mock.keys.desk), home, '--json');
      expect(run.code).toBe(3);
      expect(run.check('catalog')).toMatchObject({ status: 'fail', exitCode: 3, facts: { columns: ['market_events.sample_time', 'market_events.price'] } });
      expect(run.check('catalog')!.message).toMatch(/catalog\.duckdb: its column market_events\.sample_time \(and 1 more\) is not as rdw made it \(changed outside rdw\)/);
      expect(run.check('catalog')!.remedy).toBe('Run "rdw verify" to see each column, then "rdw verify --repair" to make them rdw\'s again.');
    });
  });

  describe('against a service of its own', () => {
    const release = { id: 'A'.repeat(64), day: '2026-10-31', version: 'mev-calc-7', files: {} };
    const answers = (limits: unknown) =>
      new Map<string, FixedAnswer>([
        ['/v1/research/catalog', { json: { scope: 'snapshots', datasets: [] } }],
        ['/v1/catalog', { json: limits === undefined ? { datasets: [] } : { datasets: [], limits } }],
        ['/v1/releases?limit=1', { json: { items: [release] } }],
      ]);

    it('warns that the limits are assumed when /catalog gives none, and exits 0', async () => {
      const server = await startOddDocumentsServer(answers(undefined));
      try {
        await withTempHome(async (home) => {
          const result = await doctor({ RDW_BASE_URL: server.baseUrl, RDW_API_KEY: FOREIGN_KEY }, home, '--json');
          expect(result.code).toBe(0);
          const plan = result.check('plan')!;
          expect(plan.status).toBe('warn');
          expect(plan.facts!.limits).toMatchObject({ rpm: 60, source: 'assumed' });
          expect(plan.facts!.limits).not.toHaveProperty('daily_bytes');
          expect(plan.message).toContain('daily byte budget unknown');
          expect(plan.facts!.latestRelease).toEqual({ id: release.id, day: release.day });
        });
      } finally {
        await server.close();
      }
    });

    it('says the assumed limits once, on the plan line (no stderr notice repeating it, no doubled parentheses)', async () => {
      const server = await startOddDocumentsServer(answers(undefined));
      try {
        await withTempHome(async (home) => {
          const result = await doctor({ RDW_BASE_URL: server.baseUrl, RDW_API_KEY: FOREIGN_KEY }, home);
          expect(result.code).toBe(0);
          expect(result.err).toBe('');
          const plan = result.out.split('\n').find((line) => line.startsWith('warn  plan and limits'))!;
          expect(plan).toContain('limits assumed (/catalog gave no readable limits): key slots not stated, 60 requests/min');
          expect(plan).not.toContain(') (');
          expect(result.out).not.toContain(FOREIGN_KEY);
        });
      } finally {
        await server.close();
      }
    });

    it.each([
      ['the site root (no /v1)', (base: string) => base.replace(/\/v1$/, '')],
      ['the API root with a query', (base: string) => `${base}?x=1`],
    ])('fails a base URL that is %s as a setting (exit 2), not as a network problem', async (_case, shape) => {
      const server = await startOddDocumentsServer(answers(undefined));
      try {
        await withTempHome(async (home) => {
          const baseUrl = shape(server.baseUrl);
          const result = await doctor({ RDW_BASE_URL: baseUrl, RDW_API_KEY: FOREIGN_KEY }, home, '--json');
          expect(result.code).toBe(2);
          const base = result.check('base_url')!;
          expect(base).toMatchObject({ status: 'fail', exitCode: 2 });
          // A query could carry a secret: it is named without repeating the URL (keys stay in the header).
          if (baseUrl.includes('?')) expect(base.message).toBe(doctorMessages.baseUrlCarriesSecret('query'));
          else expect(base.message).toBe(`RDW_BASE_URL (or --base-url) "${baseUrl}" is not an http(s) URL ending in /v1.`);
          expect(base.remedy).not.toMatch(/network|VPN/);
          expect(server.hits.size).toBe(0);
        });
      } finally {
        await server.close();
      }
    });

    it('prints the base URL and key lines before the slow plan reads end, and says the wait on a terminal', async () => {
      const slowPath = '/v1/releases?limit=1';
      const server = await startOddDocumentsServer(answers({ keys: 1, rpm: 60, daily_bytes: 1024 ** 3 }), { delayMs: (path) => (path === slowPath ? 1500 : 0) });
      try {
        await withTempHome(async (home) => {
          const started = performance.now();
          const lines: { text: string; at: number }[] = [];
          const stdout = { isTTY: true, columns: 100, write: (text: string) => void lines.push({ text, at: performance.now() - started }) };
          const stderr = captureOutput(true);
          const env = { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: FOREIGN_KEY };
          const code = await runCli(['doctor', '--home', home], { env, stdout, stderr: stderr.output });
          expect(code).toBe(0);
          const at = (label: string) => lines.find((line) => line.text.startsWith(label))?.at ?? Number.NaN;
          const key = at('ok    key');
          const plan = at('ok    plan and limits');
          // The plan line waits for the 1.5 s read; the two lines before it do not.
          expect(plan - key).toBeGreaterThanOrEqual(1000);
          expect(at('ok    base URL')).toBeLessThanOrEqual(key);
          expect(stderr.text()).toMatch(/^rdw: reading the plan, its limits and the latest release \(1 s so far\)…$/m);
          expect(server.hits.get(slowPath)).toBe(1);
        });
      } finally {
        await server.close();
      }
    });

    it('warns about a service clock two hours ahead, and exits 0', async () => {
      const ahead = () => ({ Date: new Date(Date.now() + 7200_000).toUTCString() });
      const server = await startOddDocumentsServer(answers({ keys: 1, rpm: 60, daily_bytes: 1024 ** 3 }), { headers: ahead });
      try {
        await withTempHome(async (home) => {
          const result = await doctor({ RDW_BASE_URL: server.baseUrl, RDW_API_KEY: FOREIGN_KEY }, home, '--json');
          expect(result.code).toBe(0);
          const clock = result.check('clock')!;
          expect(clock.status).toBe('warn');
          expect(Math.abs((clock.facts!.skewSeconds as number) - 7200)).toBeLessThanOrEqual(5);
          expect(clock.message).toContain('ahead of');
          expect(result.check('plan')).toMatchObject({ status: 'ok' });
          expect(result.check('plan')!.message).toContain('Researcher plan');
        });
      } finally {
        await server.close();
      }
    });

    it('says a key is needed when a base URL is set without RDW_API_KEY (exit 4)', async () => {
      const server = await startOddDocumentsServer(answers(undefined));
      try {
        await withTempHome(async (home) => {
          const result = await doctor({ RDW_BASE_URL: server.baseUrl }, home, '--json');
          expect(result.code).toBe(4);
          expect(result.check('base_url')!.status).toBe('ok');
          expect(result.check('key')).toMatchObject({ status: 'fail', exitCode: 4 });
          expect(result.check('key')!.message).toContain('RDW_API_KEY is not set');
          expect(result.check('plan')!.status).toBe('skip');
        });
      } finally {
        await server.close();
      }
    });
  });

  it.each([
    ['a tslab kernel without rdw\'s launcher (plain tslab: danfojs imports fail)', process.execPath, undefined, 'warn'],
    ['a tslab kernel whose program is gone', '/nonexistent/tslab', undefined, 'warn'],
    ['rdw\'s kernel of this checkout (node + launcher)', process.execPath, LAUNCHER, 'ok'],
    ['rdw\'s kernel whose launcher is gone (a moved checkout)', process.execPath, '/nonexistent/dist/cli/tslab-kernel-main.js', 'warn'],
  ])('reports %s (warn only, never fail)', async (_case, binary, launcher, expected) => {
    const temp = await createTempHome();
    try {
      const { checkKernel } = await import('../../src/cli/doctor/check-kernel.js');
      const check = await checkKernel({ JUPYTER_PATH: await fakeKernelPath(temp.home, binary, launcher) });
      expect(check.status).toBe(jupyter ? expected : 'warn');
    } finally {
      await temp.remove();
    }
  });

  it('names the checkout a registered kernel starts: another checkout warns naming it and how to re-register, this one is ok', async () => {
    const temp = await createTempHome();
    try {
      const { checkKernel } = await import('../../src/cli/doctor/check-kernel.js');
      // Another checkout: a launcher that exists, in a folder that is not this package's.
      const other = path.join(temp.home, 'other-rdw');
      await mkdir(path.join(other, 'dist', 'cli'), { recursive: true });
      await writeFile(path.join(other, 'dist', 'cli', 'tslab-kernel-main.js'), '');
      const here = await realpath(path.join(import.meta.dirname, '../..'));
      const elsewhere = await checkKernel({ JUPYTER_PATH: await fakeKernelPath(path.join(temp.home, 'a'), process.execPath, path.join(other, 'dist', 'cli', 'tslab-kernel-main.js')) });
      const ours = await checkKernel({ JUPYTER_PATH: await fakeKernelPath(path.join(temp.home, 'b'), process.execPath, LAUNCHER) });
      if (!jupyter) return expect([elsewhere.status, ours.status]).toEqual(['warn', 'warn']); // no Jupyter: nothing to name
      expect(elsewhere.status).toBe('warn');
      expect(elsewhere.facts).toMatchObject({ checkout: await realpath(other), thisCheckout: false });
      expect(elsewhere.message).toBe(doctorMessages.kernelOtherCheckout(await realpath(other), here));
      expect(elsewhere.remedy).toBe(doctorMessages.kernelReregister(here));
      expect(elsewhere.remedy).toContain('npm run kernel');
      expect(ours.status).toBe('ok');
      expect(ours.facts).toMatchObject({ checkout: here, thisCheckout: true });
      expect(ours.message).toContain(here);
    } finally {
      await temp.remove();
    }
  });

  it('documents its checks and exit codes in rdw doctor --help', async () => {
    const out = captureOutput();
    expect(await runCli(['doctor', '--help'], { stdout: out.output })).toBe(0);
    expect(out.text()).toContain('Exit code: 0 when no check fails');
    expect(out.text()).toContain('4 key refused or missing');
    // One line per check: its label as doctor prints it, then two spaces at least, descriptions in one column.
    const lines = out.text().split('\n');
    const first = lines.findIndex((line) => line.startsWith('Checks, one line each'));
    const checks = lines.slice(first + 1, lines.indexOf('', first));
    expect(checks.map((line) => line.slice(2, line.search(/\S\s{2,}\S/) + 1))).toEqual(['base URL', 'key', 'plan and limits', 'clock', 'RDW_HOME', 'catalog', 'Jupyter kernel']);
    expect(new Set(checks.map((line) => line.search(/(?<=\s{2})\S(?!.*\s{2}\S)/))).size).toBe(1);
  });
});
