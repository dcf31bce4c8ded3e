#!/usr/bin/env node
// The `rdw` executable: the only place that reads process.env and the process streams.

import { runCli } from './run-cli.js';

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: { write: (text) => void process.stdout.write(text), isTTY: Boolean(process.stdout.isTTY) },
  stderr: { write: (text) => void process.stderr.write(text), isTTY: Boolean(process.stderr.isTTY) },
});
process.exitCode = exitCode;
