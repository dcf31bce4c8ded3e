// Help pages of `rdw` and of each command.

import type { Command } from './command.js';

export function helpText(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return [
    'rdw: Research Data Workbench',
    '',
    'Usage: rdw <command> [flags]',
    '',
    'Commands:',
    ...lines,
    '',
    'Global flags: --base-url URL, --home DIR, --json, --help',
    'Environment: RDW_API_KEY (the key; never a flag), RDW_BASE_URL, RDW_SITE_URL, RDW_HOME (default ./datasets).',
    'Without RDW_BASE_URL, rdw starts the embedded mock API in-process.',
    '',
  ].join('\n');
}

export function commandHelpText(command: Command): string {
  return `Usage: rdw ${command.usage}\n\n${command.summary}\n${command.details === undefined ? '' : `\n${command.details}\n`}`;
}
