#!/usr/bin/env node
// The `rdw` executable: the only place that reads process.env and the process streams.

import { runCli } from './run-cli.js';
import { closedPipeTolerantOutput } from './process-output.js';

const argv = process.argv.slice(2);
// A failed write to standard output stops the command with its sentence (a full disk: exit 1, RDW_DISK_FULL).
const stdout = closedPipeTolerantOutput(process.stdout, { throwOnWriteError: true });
const stderr = closedPipeTolerantOutput(process.stderr);
let exitCode = await runCli(argv, { env: process.env, stdout, stderr });
// A pipe's write error arrives after the write: if the command had finished with exit 0, it is said here.
const late = stdout.writeFailure();
if (late !== undefined && exitCode === 0) {
  const { code, message } = late;
  stderr.write(argv.includes('--json') ? `${JSON.stringify({ error: { code, exitCode: 1, message } })}\n` : `rdw: ${message}\n`);
  exitCode = 1;
}
process.exitCode = exitCode;
