// Reads a CLI run's stderr under --json: every line one JSON object, {"notice"} lines first, a failure's one
// {"error":{"code","exitCode","message"}} last (docs/cli.md). Asserts the shape while reading it.

import { expect } from 'vitest';

/** What these readers need of a run: the exit code and stderr (runCli in-process or the built CLI). */
export interface JsonRun {
  code: number;
  stderr: string;
}

export interface JsonError {
  code: string;
  exitCode: number;
  message: string;
}

/** The {"notice"} messages before stderr's last line (asserting each line is exactly one such object). */
export function jsonNotices(run: JsonRun): string[] {
  expect(run.stderr.endsWith('\n'), run.stderr).toBe(true);
  return run.stderr.slice(0, -1).split('\n').slice(0, -1).map((line) => {
    const parsed = JSON.parse(line) as { notice: { message: string } };
    expect(Object.keys(parsed)).toEqual(['notice']);
    return parsed.notice.message;
  });
}

/**
 * The one error object of a failed run: stderr's last line, its exitCode the run's, its message one line with
 * no `rdw:` prefix and no stack frame. `notices: 'none'` (default) also asserts it is stderr's only line.
 */
export function jsonError(run: JsonRun, notices: 'none' | 'some' = 'none'): JsonError {
  const said = jsonNotices(run);
  if (notices === 'none') expect(said).toEqual([]);
  const parsed = JSON.parse(run.stderr.slice(0, -1).split('\n').at(-1)!) as { error: JsonError };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error)).toEqual(['code', 'exitCode', 'message']);
  expect(parsed.error.exitCode).toBe(run.code);
  expect(parsed.error.message).not.toMatch(/\n|^rdw: |\bat .*\.js:\d+/);
  return parsed.error;
}
