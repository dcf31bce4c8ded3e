// `rdw mock [--host H] [--port P] [--seed N] [--now ISO] [--days N] [--limits FILE] [--faults FILE]`:
// serves the embedded mock API until SIGINT/SIGTERM (DESIGN.md 2.3); `--json` prints one ready line.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MOCK_NOW, resolveFaultRule, resolveMockLimits, serverMessages, startMockServer } from '../../mock/index.js';
import type { FaultRule, MockLimitsOverrides } from '../../mock/index.js';
import { UsageError } from '../../contract/index.js';
import type { Command } from '../command.js';

/** Default port of `rdw mock` (in-process servers default to any free port). */
export const MOCK_DEFAULT_PORT = 8787;

export interface MockCommandOptions {
  /** Resolves with the signal name when the server should stop. Default: the first SIGINT or SIGTERM. */
  waitForStop?: () => Promise<string>;
}

function integerFlag(flag: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  const number = /^-?\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(number >= min && number <= max)) throw new UsageError(serverMessages.badFlag(flag, text, `an integer ${min}-${max}`), { option: flag });
  return number;
}

function nowFlag(value: unknown): string | number {
  if (value === undefined) return DEFAULT_MOCK_NOW;
  const text = String(value);
  if (/^\d{1,12}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(Date.parse(text))) {
    throw new UsageError(serverMessages.badFlag('now', text, 'an ISO time such as 2026-11-01T00:00:00Z, or UTC Unix seconds'), { option: 'now' });
  }
  return text;
}

async function jsonFile(flag: string, cwd: string, file: unknown): Promise<unknown> {
  if (file === undefined) return undefined;
  try {
    return JSON.parse(await readFile(path.resolve(cwd, String(file)), 'utf8')) as unknown;
  } catch (error) {
    throw new UsageError(serverMessages.unreadableFile(flag, String(file), (error as Error).message), { option: flag, cause: error });
  }
}

/** The first SIGINT or SIGTERM; listeners are removed once it arrives. */
function nextStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Builds the `mock` command; tests inject `waitForStop`. */
export function createMockCommand(options: MockCommandOptions = {}): Command {
  const waitForStop = options.waitForStop ?? nextStopSignal;
  return {
    name: 'mock',
    summary: 'Serve the embedded mock Research Data API until stopped (Ctrl+C).',
    usage: 'mock [--host H] [--port P] [--seed N] [--now ISO] [--days N] [--limits FILE] [--faults FILE] [--json]',
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      days: { type: 'string' },
      limits: { type: 'string' },
      faults: { type: 'string' },
    },
    allowPositionals: false,
    async run(context, args) {
      // 1. flags, validated before anything starts
      const { values } = args;
      const host = values.host === undefined ? '127.0.0.1' : String(values.host);
      if (host.length === 0) throw new UsageError(serverMessages.badFlag('host', host, 'a host name or address'), { option: 'host' });
      const port = integerFlag('port', values.port, MOCK_DEFAULT_PORT, 0, 65_535);
      const seed = integerFlag('seed', values.seed, 1, 0, 2 ** 31 - 1);
      const days = integerFlag('days', values.days, 120, 1, 3_650);
      const now = nowFlag(values.now);
      // 2. limits and faults files, checked by the mock's own validators (UsageError subclasses)
      const limits = (await jsonFile('limits', context.cwd, values.limits)) as MockLimitsOverrides | undefined;
      if (limits !== undefined) resolveMockLimits(limits);
      const faults = (await jsonFile('faults', context.cwd, values.faults)) as FaultRule[] | undefined;
      if (faults !== undefined) {
        if (!Array.isArray(faults)) throw new UsageError(serverMessages.faultRule(0, 'the file must hold a JSON array of rules'), { option: 'faults' });
        faults.forEach((rule, index) => resolveFaultRule(rule, index));
      }
      // 3. listen, then announce: the JSON line is the only place the seeded keys are printed
      const server = await startMockServer({ host, port, seed, now, days, ...(limits ? { limits } : {}), ...(faults ? { faults } : {}) });
      context.onExit(() => server.close());
      // Listen for the stop signal before announcing, so a supervisor that stops us right after the ready
      // line still gets a clean close (exit 0) rather than the default signal death.
      const stopped = waitForStop();
      if (context.json) {
        context.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, siteUrl: server.siteUrl, keys: server.keys })}\n`);
      } else {
        const clock = typeof now === 'number' ? new Date(now * 1000).toISOString() : now;
        context.stdout.write(serverMessages.listening(server.baseUrl, server.siteUrl, seed, clock, days));
      }
      // 4. serve until a stop signal, then close every connection
      const signal = await stopped;
      await server.close();
      if (!context.json) context.stderr.write(serverMessages.stopped(signal));
      return 0;
    },
  };
}

/** `rdw mock`, stopped by SIGINT or SIGTERM. */
export const mockCommand: Command = createMockCommand();
