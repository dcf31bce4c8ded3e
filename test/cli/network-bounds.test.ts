// The CLI against servers that never finish or never stop (issue 31 items 3, 4, 7b), node:http servers of
// the test (not the mock): a trickled body ends `rdw releases` and `rdw doctor` at RDW_REQUEST_DEADLINE,
// said while waiting; an endless body ends at RDW_MAX_RESPONSE_MB with exit 5; doctor does not advise
// replacing a key rdw did not send after a redirect to another host.

import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { doctorMessages } from '../../src/cli/messages.js';
import { EXIT_CODES } from '../../src/contract/index.js';
import { captureOutput } from '../support/capture-output.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';
import { withTempHome } from '../support/temp-home.js';

const KEY = 'rdw_sk_netbounds0123456789abcdef01234567';

interface DoctorReport {
  exitCode: number;
  checks: { name: string; status: string; message: string; remedy?: string; facts?: Record<string, unknown> }[];
}

async function cli(argv: string[], env: Record<string, string>) {
  return withTempHome(async (home) => {
    const out = captureOutput();
    const err = captureOutput();
    const started = performance.now();
    const code = await runCli([...argv, '--home', home], { env: { RDW_API_KEY: KEY, ...env }, stdout: out.output, stderr: err.output });
    return { code, out: out.text(), err: err.text(), ms: performance.now() - started };
  });
}

/** Sends '{' and then one space every 200 ms until the client goes away: never idle, never done. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 200);
  res.once('close', () => clearInterval(timer));
}

describe('the CLI against endless answers', () => {
  let api: ScriptedServer;
  beforeEach(async () => {
    api = await startScriptedServer();
  });
  afterEach(() => api.close());

  it('ends rdw releases on a trickled body at RDW_REQUEST_DEADLINE, saying so while it waits (exit 1)', async () => {
    api.handler = (_req, res) => trickle(res);
    const run = await cli(['releases'], { RDW_BASE_URL: api.baseUrl, RDW_REQUEST_DEADLINE: '1.5' });
    expect(run.code).toBe(EXIT_CODES.failure);
    const lines = run.err.trimEnd().split('\n');
    // The wait is shown before the failure (its seconds depend on the machine's load, so they are not asserted).
    const waiting = lines.findIndex((line) => /^rdw: Still waiting for \/v1\/catalog after [\d.]+ s; rdw gives up at 1\.5 s\.$/.test(line));
    expect(waiting).toBeGreaterThanOrEqual(0);
    expect(waiting).toBeLessThan(lines.length - 1);
    expect(lines.at(-1)).toMatch(/^rdw: The API had not finished sending \/v1\/catalog after 1\.5 s .*RDW_REQUEST_DEADLINE\)\.$/);
    // Not retried: one request for /v1/catalog (that it ends at all is the test's own timeout).
    expect(api.log.filter((entry) => entry.path === '/v1/catalog')).toHaveLength(1);
    expect(run.out).toBe('');
  });

  it('ends rdw doctor on a trickling service: the key and plan lines name the deadline, nothing hangs', async () => {
    api.handler = (_req, res) => trickle(res);
    const run = await cli(['doctor', '--json'], { RDW_BASE_URL: api.baseUrl, RDW_REQUEST_DEADLINE: '1.5' });
    const report = JSON.parse(run.out) as DoctorReport;
    const check = (name: string) => report.checks.find((entry) => entry.name === name)!;
    expect(check('base_url').status).toBe('ok');
    expect(check('key')).toMatchObject({ status: 'warn' });
    expect(check('key').message).toContain('had not finished sending /v1/research/catalog after 1.5 s');
    expect(check('plan')).toMatchObject({ status: 'fail' });
    expect(check('plan').message).toContain('after 1.5 s');
    expect(run.code).toBe(EXIT_CODES.failure);
  });

  it('ends rdw releases on an endless chunked body at RDW_MAX_RESPONSE_MB with one sentence (exit 5)', async () => {
    let written = 0;
    api.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { rpm: 600, keys: 1, daily_bytes: 5 * 1024 ** 3 } });
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = (): void => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    };
    const run = await cli(['releases'], { RDW_BASE_URL: api.baseUrl, RDW_MAX_RESPONSE_MB: '1' });
    expect(run.code).toBe(EXIT_CODES.limit);
    expect(run.err).toMatch(/^rdw: The API's answer to \/v1\/releases(\?limit=\d+)? is larger than rdw's limit of 1 MiB for a JSON document; [^\n]+\n$/);
    expect(run.out).toBe('');
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it.each([
    ['RDW_MAX_RESPONSE_MB', 'lots'],
    ['RDW_REQUEST_DEADLINE', '0'],
    ['RDW_REQUEST_DEADLINE', '-5'],
  ])('refuses %s=%s before any request (exit 2, naming the variable)', async (name, value) => {
    const run = await cli(['releases'], { RDW_BASE_URL: api.baseUrl, [name]: value });
    expect(run.code).toBe(EXIT_CODES.usage);
    expect(run.err).toMatch(new RegExp(`^rdw: ${name} must be a number from [^\\n]+\\n$`));
    expect(api.log).toEqual([]);
  });

  it('does not tell a user to replace a key rdw did not send after a redirect to another host (doctor)', async () => {
    const other = await startScriptedServer((_req, res) => sendJson(res, 401, { error: { status: 401, code: 'unauthorized', message: 'no key' } }));
    try {
      api.handler = (_req, res, url) => {
        if (url.pathname.startsWith('/v1/research/catalog') || url.pathname.startsWith('/v1/catalog')) {
          res.writeHead(302, { location: `${other.origin}${url.pathname}`, 'content-length': '0' });
          return res.end();
        }
        return sendJson(res, 404, {});
      };
      const run = await cli(['doctor', '--json'], { RDW_BASE_URL: api.baseUrl });
      const report = JSON.parse(run.out) as DoctorReport;
      const key = report.checks.find((entry) => entry.name === 'key')!;
      expect(key).toMatchObject({ status: 'fail', message: doctorMessages.keyWithheld(), remedy: doctorMessages.keyWithheldRemedy() });
      expect(key.facts).toMatchObject({ status: 401, keyWithheld: true });
      expect(`${key.message} ${key.remedy}`).not.toMatch(/new key|revoked|incorrect/);
      expect(other.log.length).toBeGreaterThan(0);
      expect(other.log.every((entry) => entry.headers.authorization === undefined)).toBe(true);
      expect(run.out).not.toContain(KEY);
      expect(run.code).toBe(EXIT_CODES.auth);
    } finally {
      await other.close();
    }
  });
});
