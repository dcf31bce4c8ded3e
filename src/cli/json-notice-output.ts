// Under --json, stderr stays machine-readable: each line a command or the client says for people (a wait, a
// retry, a warning) becomes one JSON object `{"notice":{"message"}}`, so nothing is lost and every line parses.

import type { CliOutput } from './cli-context.js';

/** Wraps `stderr` so every complete line written to it comes out as `{"notice":{"message":…}}`. */
export function jsonNoticeOutput(stderr: CliOutput): CliOutput {
  let pending = '';
  return {
    isTTY: false,
    write(text: string) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      // Progress redraws (\r) keep only their last state; blank lines carry nothing.
      for (const line of lines.map((raw) => raw.slice(raw.lastIndexOf('\r') + 1).trimEnd()).filter(Boolean)) {
        stderr.write(`${JSON.stringify({ notice: { message: line } })}\n`);
      }
    },
  };
}
