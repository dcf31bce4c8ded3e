#!/usr/bin/env node
// The `rdw` executable: the only place that reads process.env and the process streams.

import { runCli } from './run-cli.js';
import { closedPipeTolerantOutput } from './process-output.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  // A failed write to standard output stops the command with its sentence (a full disk: exit 1, RDW_DISK_FULL).
  stdout: closedPipeTolerantOutput(process.stdout, { throwOnWriteError: true }),
  stderr: closedPipeTolerantOutput(process.stderr),
});
