// The registry of `rdw` commands, in the order `rdw --help` lists them. Each command's module, and the layers
// it needs (DuckDB, the embedded mock, the analysis), is imported only when the command runs: help, a
// mistyped command or flag and other usage errors answer from the command lines of flags.ts alone.

import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { cliMessages, doctorMessages, helpMessages, syncMessages } from '../messages.js';

type CommandName = keyof typeof COMMAND_LINES;

/** `name`'s command: its line and help from flags.ts and messages.ts; `load` imports its module on the first run. */
function lazyCommand(name: CommandName, load: () => Promise<Command>, details?: string): Command {
  return {
    name,
    line: COMMAND_LINES[name],
    ...(details === undefined ? {} : { details }),
    run: async (context, args) => (await load()).run(context, args),
  };
}

export const COMMANDS: readonly Command[] = [
  lazyCommand('demo', async () => (await import('./demo.js')).demoCommand),
  lazyCommand('mock', async () => (await import('./mock.js')).mockCommand),
  lazyCommand('releases', async () => (await import('./releases.js')).releasesCommand),
  lazyCommand('pull', async () => (await import('./pull.js')).pullCommand),
  lazyCommand('sync', async () => (await import('./sync.js')).syncCommand, syncMessages.syncHelp()),
  lazyCommand('ls', async () => (await import('./ls.js')).lsCommand),
  lazyCommand('verify', async () => (await import('./verify.js')).verifyCommand, helpMessages.verifyDetails()),
  lazyCommand('gc', async () => (await import('./gc.js')).gcCommand, helpMessages.gcDetails()),
  lazyCommand('sql', async () => (await import('./sql.js')).sqlCommand),
  lazyCommand('export', async () => (await import('./export.js')).exportCommand),
  lazyCommand('research', async () => (await import('./research.js')).researchCommand),
  lazyCommand('live', async () => (await import('./live.js')).liveCommand),
  lazyCommand('study', async () => (await import('./study.js')).studyCommand, helpMessages.studyDetails()),
  lazyCommand('lock', async () => (await import('./lock.js')).lockCommand, syncMessages.lockCheckHelp()),
  lazyCommand('reproduce', async () => (await import('./reproduce.js')).reproduceCommand),
  lazyCommand('kernel', async () => (await import('./kernel.js')).kernelCommand),
  lazyCommand('doctor', async () => (await import('./doctor.js')).doctorCommand, doctorMessages.help()),
  lazyCommand('openapi', async () => (await import('./openapi.js')).openapiCommand, cliMessages.openapiHelp()),
];
