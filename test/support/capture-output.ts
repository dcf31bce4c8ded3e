// A CliOutput that keeps what a command wrote, for assertions on stdout/stderr text.

import type { CliOutput } from '../../src/cli/cli-context.js';

export function captureOutput(isTTY = false): { output: CliOutput; text: () => string } {
  let text = '';
  return { output: { write: (chunk: string) => void (text += chunk), isTTY }, text: () => text };
}
