// The CLI over a foreign service's limits: what the client assumed is one line on stderr (also with
// --json), and a paid command refused by the paid /catalog (403) ends in exit 4 with one sentence.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/spec/index.js';
import { clientMessages } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createTempHome } from '../support/temp-home.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../client/scripted-server.js';

const KEY = 'rdw_sk_clinotice0123456789abcdef0123456';

describe('client notices and refusals through the CLI', () => {
  let server: ScriptedServer;
  let temp: { home: string; remove(): Promise<void> };
  beforeEach(async () => {
    server = await startScriptedServer();
    temp = await createTempHome();
  });
  afterEach(async () => {
    await server.close();
    await temp.remove();
  });

  const rdw = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--home', temp.home], {
      env: { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: KEY },
      stdout: { write: (text) => void (stdout += text), isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: false },
      cwd: temp.home,
    });
    return { code, stdout, stderr };
  };

  it('prints the assumed limits once on stderr and lists the releases (exit 0)', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 404, { message: 'no such endpoint' });
      if (url.pathname === '/v1/releases') return sendJson(res, 200, { items: [] });
      return sendJson(res, 404, {});
    };
    const run = await rdw(['releases', '--json']);
    expect(run.code).toBe(EXIT_CODES.ok);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.stderr).toBe(`${clientMessages.limitsAssumed('/catalog answered 404', 60)}\n`);
    expect(run.stderr).not.toContain(KEY);
  });

  it.each([['releases'], ['pull', '--latest', '1']])('ends `rdw %s` refused by the paid /catalog (403) in exit 4, one sentence', async (...argv) => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/research/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 60, daily_bytes: 0 } });
      return sendJson(res, 403, { error: { status: 403, code: 'plan_required', message: 'no plan' } });
    };
    const run = await rdw(argv);
    expect(run.code).toBe(EXIT_CODES.auth);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('403');
    expect(server.log.map((entry) => entry.path)).toEqual(['/v1/catalog']);
  });
});
