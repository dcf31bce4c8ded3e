#!/usr/bin/env node
// The `rdw` executable: the only place that reads process.env and the process streams.

import { runCli } from './run-cli.js';
import { closedPipeTolerantOutput } from './process-output.js';

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: closedPipeTolerantOutput(process.stdout),
  stderr: closedPipeTolerantOutput(process.stderr),
});
process.exitCode = exitCode;
