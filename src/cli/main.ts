#!/usr/bin/env node
// The `rdw` executable: the only place that reads process.env and the process streams.

import { runCli } from './run-cli.js';
import { closedPipeTolerantOutput } from './process-output.js';

// The AWS SDK (loaded only for an s3:// store or export) warns on Node < 22 about its releases after January 2027,
// 9 lines on stderr that are no failure of rdw and would break `--json`'s one JSON object per stderr line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: closedPipeTolerantOutput(process.stdout),
  stderr: closedPipeTolerantOutput(process.stderr),
});
process.exitCode = exitCode;
