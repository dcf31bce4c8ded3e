// Sentences of the environment errors (src/contract/environment-errors.ts): what failed on this machine, where,
// and what to do. Never a stack trace, never the key.

export const environmentMessages = {
  unnamedPath: () => 'the file rdw was writing',
  diskFull: (where: string) =>
    `No space left on the disk holding ${where}. Free some space (or point RDW_HOME to another disk) and run the command again; what failed was not kept.`,
  fileTooLarge: (where: string) =>
    `${where} reached this shell's file-size limit (ulimit -f), as if the disk were full. Raise the limit (ulimit -f unlimited) and run the command again; what failed was not kept.`,
  cannotCreateFile: (where: string) =>
    `The file system refused to create a file beside ${where} (as /proc and /sys do). Give a path on a disk, e.g. in the working folder.`,
  readOnly: (where: string) =>
    `${where} is on a read-only file system, so rdw cannot write there. Point RDW_HOME (or --home) to a writable folder, e.g. export RDW_HOME=$HOME/rdw-data.`,
  permissionDenied: (where: string) =>
    `Permission denied on ${where}. Fix its permissions, or point RDW_HOME (or --home, or the output path) to a folder you can write.`,
  cannotCreateFolder: (where: string) =>
    `The file system refused to create the folder ${where} (as /proc and /sys do). Point RDW_HOME (or --home, or the output path) to a folder on a disk.`,
  notAFolder: (where: string) =>
    `${where} is a file (or a part of its path is), where rdw needs a folder. Give a folder there (RDW_HOME, --home or the output folder), or move that file away.`,
  pathTooLong: (where: string) =>
    `${where} is too long a path for this file system (ENAMETOOLONG). Give a shorter path (RDW_HOME, --home or the output path).`,
  symbolicLinkLoop: (where: string) =>
    `${where} is a loop of symbolic links (ELOOP). Point the link at a real folder or file, or give another path.`,
  danglingLink: (where: string) =>
    `${where} is a symbolic link to nothing. Make what it points to, or give another path (RDW_HOME, --home or the output path).`,
  notARegularFile: (where: string, kind: string) =>
    `${where} is ${kind}, not a file; rdw writes a file there by replacing it, so it left it alone. Give the path of a file, e.g. ./study.lock.json.`,
  isAFolder: (where: string) => `${where} is a folder, where rdw writes a file. Give a file name, e.g. ${where.replace(/\/+$/, '')}/study.lock.json.`,
  outputDiskFull: () =>
    'No space left on the disk that standard output goes to, so the output is incomplete. Free some space (or send the output to another disk) and run the command again.',
  outputFileTooLarge: () =>
    "Standard output reached this shell's file-size limit (ulimit -f), so the output is incomplete. Raise the limit (ulimit -f unlimited) and run the command again.",
  outputFailed: (code: string) =>
    `Writing to standard output failed (${code}), so the output is incomplete. Check where it goes (a file, a device) and run the command again.`,
  /** A thrown value no typed error describes (src/contract/failure-of.ts): a bug in rdw. */
  unexpectedFailure: (detail: string) =>
    `rdw failed unexpectedly: ${detail}. Run again with RDW_DEBUG=1 for the stack trace, and report it.`,
};
