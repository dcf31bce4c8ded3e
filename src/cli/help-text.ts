// Help pages of `rdw` and of each command (wrapped between words to the terminal's width, when known).

import type { Command } from './command.js';
import { wrapText } from './wrap-text.js';

/** `rdw --help`: the commands and the global flags; `columns`: terminal width (default: no wrapping). */
export function helpText(commands: readonly Command[], columns?: number): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${wrapText(command.summary, columns, width + 4)}`);
  return [
    'rdw: Research Data Workbench',
    '',
    'Usage: rdw <command> [flags]',
    '',
    'Commands:',
    ...lines,
    '',
    'Global flags: --base-url URL, --home DIR, --json, --help',
    wrapText('Environment: RDW_API_KEY (the key; never a flag), RDW_BASE_URL, RDW_SITE_URL, RDW_HOME (default ./datasets).', columns, 2),
    'Without RDW_BASE_URL, rdw starts the embedded mock API in-process.',
    '',
  ].join('\n');
}

/** `rdw <command> --help`: usage, summary and details; `columns`: terminal width (default: no wrapping). */
export function commandHelpText(command: Command, columns?: number): string {
  const usage = `Usage: ${wrapText(`rdw ${command.usage}`, columns, 'Usage: '.length)}`;
  return `${usage}\n\n${wrapText(command.summary, columns)}\n${command.details === undefined ? '' : `\n${command.details}\n`}`;
}
