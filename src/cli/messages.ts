// Every user-facing sentence of the CLI framework. Commands keep theirs in their own layer's messages.

export const cliMessages = {
  unknownCommand: (name: string) => `Unknown command "${name}". Run "rdw --help" to see the commands.`,
  badFlags: (command: string, detail: string) => `${detail.replace(/\.$/, '')}. Run "rdw ${command} --help" for its usage.`,
  unexpectedFailure: (detail: string) =>
    `rdw failed unexpectedly: ${detail}. Run again with RDW_DEBUG=1 for the stack trace, and report it.`,
  interrupted: () => 'Interrupted; nothing half-written was kept.',
};
