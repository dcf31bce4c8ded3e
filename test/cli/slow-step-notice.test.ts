// A step that draws nothing says so on a terminal once it is slow, and says nothing to pipes, files or --json.

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { sayWhileSlow } from '../../src/cli/slow-step-notice.js';

function contextOf(isTTY: boolean, json = false): { context: CliContext; lines: string[] } {
  const lines: string[] = [];
  const stderr = { isTTY, write: (text: string) => void lines.push(text) };
  const stdout = { isTTY, write: () => undefined };
  const context = { env: {}, stdout, stderr, json, home: '/h', baseUrl: undefined, siteUrl: undefined, cwd: '/', onExit: () => undefined } as CliContext;
  return { context, lines };
}

describe('sayWhileSlow', () => {
  it('on a terminal: a line once the step is slow, then one every interval, none after it ends; the result passes through', async () => {
    const { context, lines } = contextOf(true);
    const result = await sayWhileSlow(context, 'fitting the model', async () => {
      await sleep(260);
      return 42;
    }, { afterMs: 100, everyMs: 100 });
    expect(result).toBe(42);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^rdw: fitting the model \(\d+ s so far\)…\n$/);
    const said = lines.length;
    await sleep(250);
    expect(lines).toHaveLength(said);
  });

  it('says nothing for a quick step, to a pipe, or under --json; a failure passes through', async () => {
    for (const [isTTY, json, ms] of [[true, false, 10], [false, false, 200], [true, true, 200]] as const) {
      const { context, lines } = contextOf(isTTY, json);
      await sayWhileSlow(context, 'x', () => sleep(ms), { afterMs: 50, everyMs: 50 });
      expect(lines).toEqual([]);
    }
    const { context } = contextOf(true);
    await expect(sayWhileSlow(context, 'x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
