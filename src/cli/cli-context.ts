// What every command receives: output streams, environment, global flags, and access to the API.
// process.env and process streams are read only by main.ts, which builds this context.

export interface CliOutput {
  write(text: string): void;
  /** True when the stream is an interactive terminal (progress bars only then). */
  readonly isTTY: boolean;
  /** Width of the terminal in columns, when it is one; undefined: do not wrap (pipes, files, tests). */
  readonly columns?: number | undefined;
  /** A write that failed after the command's last write saw it (a pipe's error comes later), if any. */
  readonly writeFailure?: () => Error | undefined;
}

export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** `--json`: machine-readable output on stdout, no progress bars. */
  readonly json: boolean;
  /** `--home` or RDW_HOME or ./datasets, absolute (src/workbench's resolveHome). */
  readonly home: string;
  /** `--base-url` or RDW_BASE_URL; undefined means the embedded mock. */
  readonly baseUrl: string | undefined;
  /** RDW_SITE_URL; undefined means the embedded mock (or derived from baseUrl's origin). */
  readonly siteUrl: string | undefined;
  /** Working directory for relative paths. */
  readonly cwd: string;
  /** Registers a clean-up run when the command ends (servers to close, handles to release). */
  onExit(cleanup: () => Promise<void> | void): void;
}
