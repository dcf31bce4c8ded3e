// `rdw mock [--host HOST] [--port PORT] [--seed N] [--now ISO] [--days N] [--limits FILE] [--faults FILE]`:
// serves the embedded mock API until SIGINT/SIGTERM (DESIGN.md 2.3); `--json` prints one ready line.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveFaultRule, resolveMockLimits, serverMessages, startMockServer } from '../../mock/index.js';
import type { FaultRule, MockLimitsOverrides } from '../../mock/index.js';
import { CliUsageError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { cliMessages, commandMessages as m } from '../messages.js';

export interface MockCommandOptions {
  /** Resolves with the signal name when the server should stop. Default: the first SIGINT or SIGTERM. */
  waitForStop?: () => Promise<string>;
}

/** `--now` (default applied by flags.ts): UTC Unix seconds as a number, or an ISO time as given. */
function nowFlag(value: unknown): string | number {
  const text = String(value);
  if (/^\d{1,12}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(Date.parse(text))) {
    throw new CliUsageError(cliMessages.badFlagValue('now', text, m.nowExpected()), { option: 'now' });
  }
  return text;
}

async function jsonFile(flag: string, cwd: string, file: unknown): Promise<unknown> {
  if (file === undefined) return undefined;
  try {
    return JSON.parse(await readFile(path.resolve(cwd, String(file)), 'utf8')) as unknown;
  } catch (error) {
    throw new CliUsageError(m.unreadableFlagFile(flag, String(file), (error as Error).message), { option: flag, cause: error });
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
    line: COMMAND_LINES.mock,
    async run(context, args) {
      // 1. flags, validated before anything starts (integers and defaults by flags.ts)
      const { values } = args;
      const host = String(values.host);
      if (host.length === 0) throw new CliUsageError(cliMessages.badFlagValue('host', host, m.hostExpected()), { option: 'host' });
      const port = values.port as number;
      const seed = values.seed as number;
      const days = values.days as number;
      const now = nowFlag(values.now);
      // 2. limits and faults files, checked by the mock's own validators (UsageError subclasses)
      const limits = (await jsonFile('limits', context.cwd, values.limits)) as MockLimitsOverrides | undefined;
      if (limits !== undefined) resolveMockLimits(limits);
      const faults = (await jsonFile('faults', context.cwd, values.faults)) as FaultRule[] | undefined;
      if (faults !== undefined) {
        if (!Array.isArray(faults)) throw new CliUsageError(serverMessages.faultRule(0, m.faultsNotArray()), { option: 'faults' });
        faults.forEach((rule, index) => resolveFaultRule(rule, index));
      }
      // 3. listen, then announce: the JSON line is the only place the seeded keys are printed
      const server = await startMockServer({ host, port, seed, now, days, ...(limits ? { limits } : {}), ...(faults ? { faults } : {}) }).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new CliUsageError(m.portInUse(host, port), { option: 'port', cause: error });
        if (code === 'EADDRNOTAVAIL') throw new CliUsageError(m.hostNotLocal(host), { option: 'host', cause: error });
        // A name the resolver does not know ("bad host", "127.0.0.1:80"): a mistyped flag, not a bug to report.
        if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') throw new CliUsageError(m.hostUnresolved(host), { option: 'host', cause: error });
        if (code === 'EACCES') throw new CliUsageError(m.portNeedsPrivilege(host, port), { option: 'port', cause: error });
        throw error;
      });
      context.onExit(() => server.close());
      // Listen for the stop signal before announcing, so a supervisor that stops us right after the ready
      // line still gets a clean close (exit 0) rather than the default signal death.
      const stopped = waitForStop();
      if (context.json) {
        context.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, siteUrl: server.siteUrl, keys: server.keys })}\n`);
      } else {
        const clock = typeof now === 'number' ? new Date(now * 1000).toISOString() : now;
        context.stdout.write(m.mockListening(server.baseUrl, server.siteUrl, seed, clock, days));
      }
      // 4. serve until a stop signal, then close every connection
      const signal = await stopped;
      await server.close();
      if (!context.json) context.stderr.write(m.mockStopped(signal));
      return 0;
    },
  };
}

/** `rdw mock`, stopped by SIGINT or SIGTERM. */
export const mockCommand: Command = createMockCommand();
