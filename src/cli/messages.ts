// Every user-facing sentence of the CLI: the framework's, the help pages', each command's usage errors and
// results, the document views' and doctor's. (Flag descriptions and command summaries are in flags.ts.)

import path from 'node:path';
import { printableText, shownUrl } from '../base/index.js';
import { WINDOWS } from '../contract/index.js';
import { EMBARGO_EXPECTED } from './flags.js';

/** Debian packages that provide Jupyter for the notebooks (PyPI is not reachable here). */
/** "1 release", "10 releases". */
const releasesText = (count: number) => `${count} release${count === 1 ? '' : 's'}`;

const JUPYTER_PACKAGES = 'jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-client';

/**
 * A URL setting as typed, for a sentence: quoted, printable, cut, and never with its user:password@ part, query or
 * fragment (shownUrl), which may carry a secret; a note says when something was left out.
 */
const quotedUrl = (value: string): string => {
  const shown = shownUrl(value);
  return `"${printableText(shown, 120)}"${shown === value ? '' : ' (shown without credentials, query or fragment)'}`;
};

export const cliMessages = {
  unknownCommand: (name: string, near: string | undefined) =>
    `Unknown command "${name}"${near === undefined ? '.' : `; did you mean "${near}"?`} Run "rdw --help" to see the commands.`,
  /** An unknown flag, with the nearest declared one when one is near (never Node's advice about '--' operands). */
  unknownFlag: (command: string, flag: string, near: string | undefined) =>
    `Unknown option '${flag}'${near === undefined ? '.' : `; did you mean ${near}?`} Run "rdw ${command} --help" for its usage.`,
  unknownGlobalFlag: (flag: string, globals: string) =>
    `Unknown flag "${flag}" before the command: only the global flags (${globals}) may come first. Run "rdw --help" to see the commands.`,
  /** A value flag given more than once with different values (only one would be read). */
  flagGivenTwice: (flag: string, values: readonly string[], list: boolean) =>
    `--${flag} was given ${values.length} times (${values.join(', ')}), and only one value is read: give it once${list ? `; for several, one comma-separated list: --${flag} ${values.join(',')}` : ''}.`,
  badFlags: (command: string, detail: string) => `${detail.replace(/\.$/, '')}. Run "rdw ${command} --help" for its usage.`,
  /** A flag value that starts with '-', read as a flag: how to give it. */
  dashValue: (flag: string, value: string) => `${flag} ${value}: a value that starts with '-' is read as a flag; write it ${flag}=${value}.`,
  /** command '': a global flag before any command (`rdw --home`). */
  missingValue: (command: string, flag: string) => `${flag} needs a value (${flag} VALUE). Run "rdw${command === '' ? '' : ` ${command}`} --help" for its usage.`,
  interrupted: () => 'Interrupted; nothing half-written was kept.',
  // SIGINT/SIGTERM during pull or sync (src/cli/interrupt-listener.ts)
  interruptStopping: (signal: string) =>
    `rdw: ${signal}: stopping after the releases in flight (a second ${signal === 'SIGINT' ? 'Ctrl+C' : signal} stops at once).`,
  interruptedAtOnce: (signal: string) =>
    `rdw: ${signal} again: stopped at once; committed releases stay and a rerun continues from there.`,
  openapiHelp: () =>
    [
      'Offline: needs no key and no server. Save it with "rdw openapi > openapi.json";',
      '"rdw mock" also serves it at {base_url}/openapi.json. Each path carries /v1 and the server is',
      '--base-url (or RDW_BASE_URL) without it, so a mock server that ignores server paths serves the',
      'API under /v1 too: npx prism mock openapi.json -p 4010, then RDW_BASE_URL=http://127.0.0.1:4010/v1',
      '(live pages at the root: RDW_SITE_URL defaults to that origin). Schemas stay open where the spec',
      'says "not shown" (extra fields allowed).',
    ].join('\n'),
  // The value is as typed but made printable and cut (a 50,000-character value was echoed whole), and without the
  // parts that may hold a secret (u:secret@host/v1, a scheme left out, passes the client's secret check as no URL).
  badBaseUrl: (value: string) =>
    `RDW_BASE_URL (or --base-url) ${quotedUrl(value)} is not the API root; set it to the http(s) URL ending in /v1, e.g. https://host/v1.`,
  badSiteUrl: (value: string) =>
    `RDW_SITE_URL ${quotedUrl(value)} is not an absolute http(s) URL; set it to the origin of the public live pages, e.g. https://host, or unset it (it defaults to the base URL's origin).`,
  // flag values (src/cli/parse-flags.ts)
  badCount: (flag: string, min: number, max: number) => `--${flag} must be an integer from ${min} to ${max}.`,
  badListingCount: (flag: string, min: number, max: number) =>
    `--${flag} must be an integer from ${min} to ${max}: the API lists only the latest ${max} releases (newest day first, no offset or paging). ` +
    'An older release can only be pulled by its ID: rdw pull <RELEASE_ID...> (e.g. from an earlier listing or a study lock).',
  badFlagValue: (flag: string, value: string, expected: string) => `--${flag} ${JSON.stringify(value)} is not valid: expected ${expected}.`,
  integerExpected: (min: number, max: number) => `an integer ${min}-${max}`,
};

/** The help pages (src/cli/help-text.ts); flag descriptions and command summaries are in flags.ts. */
export const helpMessages = {
  title: () => 'rdw: Research Data Workbench',
  usage: () => 'Usage: rdw <command> [flags]',
  commands: () => 'Commands:',
  globalFlagList: (flags: string) => `Global flags: ${flags}`,
  environment: () =>
    'Environment: RDW_API_KEY (the key; never a flag), RDW_BASE_URL, RDW_SITE_URL, RDW_HOME (default ./datasets), RDW_ACCOUNT (keys given one name share one pace).',
  embeddedMock: () => 'Without RDW_BASE_URL, rdw starts the embedded mock API in-process.',
  commandHelp: () => 'Run "rdw help <command>" (or rdw <command> --help) for its flags; rdw --version for the version.',
  commandUsage: (command: string, operands: string) => `rdw ${command}${operands === '' ? '' : ` ${operands}`} [flags]`,
  flags: () => 'Flags:',
  globalFlags: () => 'Global flags (before or after the command):',
  examples: () => 'Examples:',
  range: (min: number, max: number) => `${min}-${max}`,
  defaultValue: (value: string) => `default ${value}`,
  gcDetails: () =>
    [
      'Opens the catalog for writing (waits for, then refuses, a catalog another rdw process holds), lists',
      'every stored file no release references and every entry of store/tmp (partial downloads included),',
      'then removes the stored files all or none, then the store/tmp entries.',
      '--dry-run lists what would go and removes nothing.',
      '--json: { dryRun, removed, bytes, unreferenced: [{ file, sha256, bytes }],',
      '        temp: [{ file, bytes }] }.',
    ].join('\n'),
  studyDetails: () =>
    [
      'event reads --window (one or more), --by, --interval. model reads --window (one), --split,',
      '--folds, --seed, --embargo (purged-k-fold only; auto: the window or 1% of the span of the days,',
      'the larger) and --test-days, --train-days (walk-forward only). Both read --lock,',
      '--allow-mixed-versions, --out, --wide. A flag the chosen study or split does not read is refused',
      '(exit 2). model fits a logistic regression of up_W (direction-adjusted return > 0) on is_breakout,',
      'is_volume_spike, is_up and ln_volume_ratio_20 over event rows, against the base rate. --out writes',
      'model-evaluation.csv and .json, model-scores.svg and model-report.html; --json prints the rows.',
    ].join('\n'),
  verifyDetails: () =>
    [
      'Exit 3 when a stored file a release references is missing or differs from its checksum, or a',
      "release's rows differ from their fingerprint (changed outside rdw), each named on stderr. Store",
      'files no release references and leftovers in store/tmp are reported (one line each kind,',
      '"unreferenced"/"temp" in --json) but do not change the exit code: remove them with rdw gc. Without',
      '--repair it only reads. --repair opens the catalog for writing, fetches each missing or altered file',
      'again by release ID (verified against the checksum the catalog recorded), re-imports the rows of a',
      "data file's releases in one transaction, then puts the file back; one line per file (restored,",
      're-imported, could not); a release whose rows alone differ is re-imported from its stored file. Exit',
      '0 when the store is whole afterwards, else the exit code of the first failure (3 other bytes served,',
      '5 byte budget or rate limit, 6 release unknown).',
      '--json adds "repairs": [{ file, sha256, bytes, uses, problem, outcome, reimported, error? }].',
    ].join('\n'),
};

/** The event study as printed (src/cli/study-report-text.ts). */
export const studyTextMessages = {
  headline: (releases: number, current: boolean, rows: number, versions: readonly string[]) =>
    `Event vs control study: ${releases} releases (${current ? 'newest per day' : 'exact IDs'}), ${rows} rows, calculation versions ${versions.join(', ')}.`,
  returns: (wide: boolean) =>
    wide
      ? 'Returns in pp over complete outcomes only; missing_* count the outcomes left out (never zero).'
      : 'Returns in pp over complete outcomes only; missing outcomes are left out (never zero).',
  wideHint: () => 'rdw study event --wide prints every column: missing by status, returns, controls, p-value.',
  controls: (intervalDescription: string) => `Controls signed by each event's direction. CI and p: ${intervalDescription}`,
  adjusted: (tested: number, significant: number, level: number) =>
    `q: Benjamini-Hochberg over all ${tested} groups; ${significant} ${significant === 1 ? 'has' : 'have'} q <= ${level} (non-zero after adjustment).`,
  pooledVersions: (mix: readonly { calculation_version: string | null; rows: number; releases: number }[]) =>
    `Calculation versions pooled (--allow-mixed-versions): ${mix.map((entry) => `${entry.calculation_version ?? '(none)'} ${entry.rows} rows in ${entry.releases} release(s)`).join('; ')}.`,
};

/** The model study as printed (src/cli/model-study-text.ts). */
export const modelStudyTextMessages = {
  headline: (target: string, window: string, split: string, releases: number, current: boolean, used: number, total: number, leftOut: string) =>
    `Model study: target ${target} at ${window}, ${split}; ${releases} releases (${current ? 'newest per day' : 'exact IDs'}), ${used} of ${total} rows used, left out: ${leftOut}.`,
  model: (model: string, baseline: string, features: readonly string[], sampleType: string) =>
    `Model ${model} against the ${baseline} baseline, on ${features.join(', ')} (${sampleType === 'all' ? 'events and controls' : `${sampleType} rows`}).`,
  naiveSplit: () =>
    'row k-fold ignores time: rows whose outcome windows overlap land on both sides, so its scores are inflated; compare it, never report it.',
  legend: (interval: string, testDays: string, testLeftOut: number) =>
    `AUC: how the model ranks the test rows (0.5 = chance). Δ log loss: model minus base rate on the test rows (nats; below 0: the model is better). CI: ${interval}. test: rows scored${testLeftOut > 0 ? ` (${testLeftOut} test rows with a missing predictor or target left out)` : ''}; purged, embargo: rows kept out of training for overlapping the test span or following it. Test days UTC, ${testDays}; pooled: every fold's test rows (AUC: pairs within a fold).`,
  wideLegend: (interval: string) =>
    `auc, log_loss_difference and their CIs (${interval}) as in model-evaluation.csv; log losses in nats; n/a: undefined.`,
  wideHint: () => 'rdw study model --wide prints every column: train rows, test days and rows left out, log losses, accuracy.',
};

/** Usage errors and results of the commands (src/cli/commands/). */
export const commandMessages = {
  /** A step that draws nothing, still running (slow-step-notice.ts). */
  slowStep: (what: string, seconds: number) => `${what} (${seconds.toFixed(0)} s so far)…`,
  studyingEvents: (locked: boolean) => `${locked ? 'checking the lock, then ' : ''}comparing events with controls`,
  fittingModel: (locked: boolean) => `${locked ? 'checking the lock, then ' : ''}fitting and scoring the model over the folds`,
  verifying: () => 're-hashing every stored file and fingerprinting every release\'s rows',
  syncing: () => 'syncing: listing, pulling new releases and revisions by ID, recording snapshots',
  exporting: () => 'writing the rows as Parquet files, one folder per day',
  lockRecording: () => 'checking the pinned rows against their stored files, writing the lock',
  noCatalog: (home: string) =>
    `No catalog at ${home}: run rdw pull (or rdw demo) first, or point --home/RDW_HOME at an existing home.`,
  badCatalogWait: (value: string) =>
    `RDW_CATALOG_WAIT "${value}" is not valid: expected the seconds to wait for a catalog another process holds (0-86400).`,
  // pull, export, lock, reproduce, study, research, live, kernel: operands
  pullNeedsIds: () => 'Name release IDs to pull, or use --latest N (not both).',
  exportNeedsDir: () => 'Give the folder (or s3://bucket/prefix) to export to, e.g. rdw export ./export.',
  lockUsage: () => 'Usage: rdw lock <FILE> (<RELEASE_ID...> | --latest N): name a lock file and either release IDs or --latest N (not both).',
  lockPulled: (id: string, day: string, version: string) => `pulled ${id} ${day} ${version}`,
  lockWritten: (file: string, releases: number, dataset: string, firstDay: string, lastDay: string, versions: string) =>
    `wrote ${file}: ${releasesText(releases)} of ${dataset}, ${firstDay} .. ${lastDay} (${versions})`,
  lockReproduced: (file: string, releases: number, pulled: number, files: number, bytes: string) =>
    `reproduced ${file}: ${releasesText(releases)}, ${pulled} pulled, ${files} stored files (${bytes}) match the lock`,
  reproduceUsage: () => 'Usage: rdw reproduce <FILE>: name one study lock file.',
  dashOutput: (what: string, writes: string, example: string) =>
    `${what} "-" is not standard output: ${writes}; give a name instead, e.g. ${example}.`,
  homeOutput: (what: string, file: string, kept: string, example: string, noun: 'file' | 'folder' = 'file') =>
    `${what} ${printableText(file, 120)} would write ${noun === 'file' ? 'over' : 'into'} ${kept}, which rdw keeps in its home and nothing else may ${noun === 'file' ? 'replace' : 'add to'}; name a ${noun} outside the home's catalog.duckdb, store/ and state/, e.g. ${example}.`,
  studyList: () =>
    [
      'Usage: rdw study event | model [flags]: name the study to run.',
      '  event  Event vs control: outcomes after each event against control rows, by group',
      "  model  A logistic model of the outcome's direction, scored by time-aware folds",
      'Run "rdw study --help" for the flags of both.',
    ].join('\n'),
  studyNeeded: () => 'Name a study: rdw study event (event vs control) or rdw study model (a model scored by time-aware folds).',
  unknownStudy: (name: string | undefined, near?: string) =>
    `Unknown study "${printableText(name ?? '', 40)}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; the studies are: event, model. Run "rdw study --help".`,
  studyExtraArgument: (study: string, extra: string) =>
    `rdw study ${study} takes no other argument, but "${printableText(extra, 40)}" was given; options start with -- (run "rdw study --help").`,
  studyFlagNotFor: (flag: string, study: string, other: string) =>
    `--${flag} applies to rdw study ${other}, not rdw study ${study}; leave it out.`,
  intervalFlagTwice: () => '--bootstrap is the old name of --interval; give one of them (e.g. --interval row-bootstrap).',
  splitFlagNotFor: (flag: string, split: string, needs: string) => `--${flag} applies to --split ${needs} only, not ${split}; leave it out.`,
  badSplit: (value: string, methods: readonly string[]) => cliMessages.badFlagValue('split', value, `one of ${methods.join(', ')}`),
  badEmbargo: (value: string) => cliMessages.badFlagValue('embargo', value, EMBARGO_EXPECTED),
  kFoldNeedsTwoFolds: (split: string) => `--folds must be at least 2 for --split ${split}: each fold trains on the others.`,
  oneModelWindow: (windows: readonly string[]) =>
    windows.length === 0
      ? `--window is empty; give one window for rdw study model: one of ${WINDOWS.join(', ')}.`
      : `--window takes one window for rdw study model, not ${windows.length} (${windows.join(', ')}); run it once per window.`,
  researchUsage: () => 'Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".',
  /** `rdw research catalg`: the action that is none, the nearest one when it is a typo, then the usage. */
  unknownResearchAction: (action: string, near: string | undefined) =>
    `Unknown research action "${printableText(action, 40)}"${near === undefined ? '.' : `; did you mean "${near}"?`} ${commandMessages.researchUsage()}`,
  /** `rdw research get` (or csv) without the dataset it reads. */
  researchNeedsDataset: (action: string) =>
    `rdw research ${action} needs a dataset ID: rdw research ${action} <DATASET_ID> (rdw research catalog lists them).`,
  liveUsage: (pageKeys: readonly string[]) =>
    `Give one page key: rdw live <PAGE_KEY>, where the live pages are ${pageKeys.join(', ')} (e.g. rdw live ${pageKeys[0]}; add --csv for CSV rows).`,
  /** A page key the service answered 404 for and the spec names no live page for (a spec page's 404 keeps the client's sentence). */
  livePageNotFound: (pageKey: string, pageKeys: readonly string[]) =>
    `There is no live page "${printableText(pageKey, 40)}" (404); the live pages are ${pageKeys.join(', ')} (e.g. rdw live ${pageKeys[0]}), and RDW_SITE_URL names their host when it is not the API's.`,
  kernelUsage: () => 'Use "rdw kernel install" to register the TypeScript kernel.',
  // sql
  sqlNeedsQuery: (table: string) => `Give exactly one SQL query in quotes, e.g. rdw sql "SELECT count(*) FROM ${table}".`,
  sqlFailed: (detail: string) =>
    `The query failed: ${detail.split('\n')[0]!.replace(/\.?\s*$/, '')}; fix it (rdw sql "SHOW TABLES" lists the tables, rdw sql "DESCRIBE <table>" their columns).`,
  sqlReading: () => 'running the query and reading its rows',
  sqlOneFormat: () => 'Choose one output: a table (default), --json, --csv or --parquet FILE (--csv combines with neither).',
  sqlParquetNeedsFile: () => 'Name the file to write, e.g. rdw sql --parquet events.parquet "SELECT …".',
  lockNoFolder: (file: string) => `The folder of the lock file ${file} does not exist; create it first or name a file in an existing folder.`,
  sqlParquetNoFolder: (file: string) => `The folder of --parquet ${file} does not exist; create it first or name a file in an existing folder.`,
  sqlParquetIsFolder: (file: string) => `--parquet ${file} is a folder; name a file in it, e.g. ${path.join(file, 'result.parquet')}.`,
  sqlParquetWritten: (rows: number, columns: number, file: string) =>
    `Wrote ${rows} row${rows === 1 ? '' : 's'} (${columns} column${columns === 1 ? '' : 's'}) to ${file}.`,
  sqlNoFileAccess: () =>
    'rdw sql only reads the catalog: a statement that writes, exports or reads other files (COPY, EXPORT, read_csv …) is refused. Use DuckDB itself on a copy of catalog.duckdb to export data.',
  sqlWouldWrite: () =>
    'rdw sql only reads: this query would change the catalog (EXPLAIN of an INSERT, UPDATE or DELETE runs against it too), which rdw sql opens read-only. Explain the SELECT part alone, or use DuckDB itself on a copy of catalog.duckdb to change data.',
  sqlOneStatement: (count: number) =>
    `rdw sql runs one query, and this text holds ${count} statements (separated by ';'): run them one at a time, or join them into one query (WITH …, UNION ALL).`,
  sqlNotReadOnly: (kind: string) =>
    `rdw sql only reads: ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} statement is refused (only SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE and EXPLAIN run; nothing is written, attached, installed or exported). Use DuckDB itself on a copy of catalog.duckdb to change or export data.`,
  // mock
  hostExpected: () => 'a host name or address',
  nowExpected: () => 'an ISO time such as 2026-11-01T00:00:00Z, or UTC Unix seconds',
  faultsNotArray: () => 'the file must hold a JSON array of rules',
  unreadableFlagFile: (flag: string, file: string, detail: string) => `Could not read --${flag} ${file}: ${detail}.`,
  portInUse: (host: string, port: number) =>
    `Port ${port} on ${host} is already in use (another rdw mock?); stop that process or choose another port, e.g. --port 0 for any free one.`,
  hostNotLocal: (host: string) => `--host ${host} is not an address of this machine; use 127.0.0.1 (the default) or 0.0.0.0 for every interface.`,
  hostUnresolved: (host: string) =>
    `--host ${host} is not an address nor a host name this machine can resolve; give an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface, without a port (that is --port).`,
  portNeedsPrivilege: (host: string, port: number) =>
    `Port ${port} on ${host} may only be opened with the system's privileges (ports below 1024); choose a port from 1024 up, e.g. --port 8787, or --port 0 for any free one.`,
  mockListening: (baseUrl: string, siteUrl: string, seed: number, now: string, days: number) =>
    `rdw mock: serving the Research Data API at ${baseUrl}\n` +
    `  public live pages under ${siteUrl}; seed ${seed}, clock ${now}, ${days} days.\n` +
    'The seeded keys are printed only by "rdw mock --json". Stop with Ctrl+C.\n',
  mockStopped: (signal: string) => `rdw mock: stopped (${signal}).\n`,
  // kernel
  tslabMissing: (dir: string) =>
    `tslab (a development dependency of rdw) is not installed under ${dir}: the notebooks' kernel is registered from a checkout of rdw, so run "npm install" and then "npm run kernel" in one (an rdw installed as a package has no notebooks and no kernel).`,
  kernelspecFailed: (python: string, detail: string) =>
    `Jupyter (${python}) could not register the kernel: ${detail}; run "rdw kernel install" without --system (per user), or check "${python} -m jupyter_client.kernelspecapp list".`,
  kernelScopeConflict: () => 'Give at most one of --user, --sys-prefix and --system (the default is --user).',
  noJupyterPython: (preferred: string | undefined) =>
    `No Python with Jupyter was found${preferred ? ` at ${preferred}` : ''}; install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first), or pass --python PATH.`,
  kernelRegistered: (where: string, scope: string) =>
    `Registered the "TypeScript" (tslab) kernel ${scope === 'user' ? 'for this user' : scope === 'sys-prefix' ? "in the Python's prefix" : 'for every user'}, in ${where}.\nOpen notebooks/*.ipynb in JupyterLab or VS Code and pick that kernel.\n`,
  // demo
  storedFileMismatch: (file: string) => `Stored file ${file} does not match its checksum; run "rdw verify --repair" to fetch it again by release ID.`,
  // pull, ls, verify
  pullListedNothing: () => 'The API lists no release rdw can use (its /releases listing is empty or names none by a usable ID and day); nothing was pulled.',
  /** `done`: every planned release had settled when the signal came (a new user's trial: it still said rerun). */
  pullInterrupted: (signal: string, imported: number, notPulled: number, done: boolean) =>
    `Interrupted (${signal}): ${imported} imported, ${notPulled} not pulled; ${done ? 'every release was done, nothing is left to pull' : 'rerun to continue where it stopped'}.`,
  pullStopped: (imported: number, notPulled: number) =>
    `Stopped at that failure of this machine: ${imported} imported, ${notPulled} not pulled (each left nothing); fix it and rerun to continue where it stopped.`,
  reproduceInterrupted: (signal: string, pulled: number, missing: number) =>
    `Interrupted (${signal}): ${pulled} pulled, ${missing} still missing, nothing verified; run the same rdw reproduce again to continue where it stopped.`,
  demoInterrupted: (signal: string, imported: number, notPulled: number) =>
    `Interrupted (${signal}): ${imported} imported, ${notPulled} not pulled, no study lock written; run npm start (rdw demo) again to continue where it stopped.`,
  lockInterrupted: (signal: string, imported: number, notPulled: number) =>
    `Interrupted (${signal}): ${imported} imported, ${notPulled} not pulled, no lock written; run the same rdw lock again to continue where it stopped.`,
  notPulledLine: (id: string) => `not pulled ${id} (interrupted)`,
  pulledLine: (imported: boolean, id: string, day: string, version: string, rows: number) =>
    `${imported ? 'imported' : 'present '} ${id} ${day} ${version} ${rows} rows`,
  superseded: () => 'superseded',
  supersededBy: (id: string) => `superseded by ${id.slice(0, 12)}…`,
  // A whole ID makes the row too wide for 100 columns: rdw sync pulls new revisions by ID (--full-ids: the command).
  newerKnown: (id: string, full: boolean) => (full ? `newer revision ${id.slice(0, 12)}… known: rdw pull ${id}` : `newer ${id.slice(0, 12)} known: rdw sync`),
  fileProblem: { missing: 'is missing', size: 'has the wrong size', sha256: 'no longer matches its sha256' } as const,
  rowsProblem: {
    differs: 'its rows had changed since import',
    unrecorded: 'it had no rows fingerprint yet',
    differs_from_file: 'its rows and their recorded fingerprint had both changed since import',
  } as const,
};

/** Sentences of the document views (`rdw research`, `rdw live`): src/cli/document-view.ts. */
export const documentMessages = {
  stale: () => 'STALE: older than its freshness boundary',
  staleValue: (value: string) => `stale: ${value}`,
  noObservation: () => 'none',
  noItems: () => '(no items)',
  otherShape: (name: string, shape: string) => `${name}: ${shape}, not the documented envelope; shown as sent (--json for the exact body).`,
  limits: (parts: readonly string[]) => `Limits: ${parts.join(', ')}.`,
  limitsNotStated: () => 'Limits: not stated by the service (rdw assumes the plan table of the spec; see "rdw doctor").',
  notStated: (field: string) => `${field} not stated`,
  keySlots: (keys: number) => `${keys} key slot${keys === 1 ? '' : 's'}`,
  rpm: (rpm: number) => `${rpm} requests/min`,
  noPaidBytes: () => 'no paid download bytes',
  csvBesideJson: () => 'Each dataset\'s CSV is at its json path + /csv (rdw research csv <DATASET_ID>).',
  paidBytesPerDay: (text: string) => `${text} of paid downloads per UTC day`,
};

/** Sentences of `rdw doctor` (src/cli/commands/doctor.ts, src/cli/doctor/). Never the key. */
export const doctorMessages = {
  labels: {
    base_url: 'base URL',
    key: 'key',
    plan: 'plan and limits',
    clock: 'clock',
    home: 'RDW_HOME',
    catalog: 'catalog',
    kernel: 'Jupyter kernel',
    store: 'team store',
  } as Record<string, string>,
  // team store (only when RDW_STORE_URL is set)
  storeAnswered: (url: string, manifests: number) =>
    `${url} answered a signed listing: ${manifests} release manifest${manifests === 1 ? '' : 's'} stored there.`,
  storeRemedy: () =>
    'Check RDW_STORE_URL and the AWS variables (AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE); without the store, pulls still go to the API.',
  skipped: (label: string) => `not checked: the ${label} check did not pass.`,
  // base URL
  embedded: (url: string) => `the embedded mock at ${url} (RDW_BASE_URL is not set)`,
  answered: (where: string, status: number, ms: number) => `${where} answered (HTTP ${status} to a request without a key) in ${ms} ms.`,
  redirected: (where: string, status: number, origin: string) => `${where} answered with a redirect (HTTP ${status}) to ${origin}; rdw follows it.`,
  serverError: (where: string, status: number) => `${where} answered HTTP ${status}: the service is up but failing.`,
  serverErrorRemedy: () => 'Try again later; if it persists, report it to the service.',
  unreachable: (where: string, reason: string) => `${where} could not be reached: ${reason}.`,
  unreachableRemedy: () =>
    'Check RDW_BASE_URL (or --base-url): it is the API root including /v1, e.g. https://host/v1; then check the network, proxy or VPN.',
  badBaseUrl: (value: string) => `RDW_BASE_URL (or --base-url) ${quotedUrl(value)} is not an http(s) URL ending in /v1.`,
  baseUrlCarriesSecret: (carried: 'key' | 'userinfo' | 'query' | 'fragment') =>
    `RDW_BASE_URL (or --base-url) carries ${{ key: 'an API key (or a key-shaped token)', userinfo: 'a user@ or user:password@ part', query: 'a query (?…)', fragment: 'a fragment (#…)' }[carried]}; it is not repeated here and no request was sent. The key goes only in RDW_API_KEY.`,
  badBaseUrlRemedy: () => 'Set it to the API root including /v1, e.g. export RDW_BASE_URL=https://host/v1.',
  siteUrlRemedy: () => "Set RDW_SITE_URL to the origin of the public live pages, e.g. export RDW_SITE_URL=https://host, or unset it: it defaults to the base URL's origin.",
  // key
  keyMissing: () => 'RDW_API_KEY is not set, so only the public live pages can be used.',
  keyMissingRemedy: () => 'export RDW_API_KEY=<your key> (the full secret, shown once when the key was created); rdw live works without it.',
  keyMalformed: (detail: string) => `RDW_API_KEY is malformed: ${detail.charAt(0).toLowerCase()}${detail.slice(1).replace(/\.$/, '')}.`,
  keyMalformedRemedy: () => 'Export the full secret exactly as shown when the key was created: no quotes, no spaces.',
  keyAccepted: () => 'RDW_API_KEY was accepted (asked on the free Research scope, which any valid key opens).',
  keyEmbedded: () => "RDW_API_KEY is not set: the embedded mock's seeded desk key was used and accepted.",
  keyRefused: (detail: string) => `RDW_API_KEY was refused: ${detail}.`,
  keyRefused401: () => 'HTTP 401, the key is missing, incorrect or revoked',
  keyRefused401Remedy: () =>
    'Create a new key on your key page and export its full secret as RDW_API_KEY; the shortened prefix shown in the key list is not a key.',
  keyWithheld: () =>
    'RDW_API_KEY was not tried: the service redirected to another host, which answered HTTP 401; rdw sends the key only to the base URL\'s own host, so this says nothing about the key.',
  keyWithheldRemedy: () =>
    'Keep the key. Set RDW_BASE_URL to the address the API really answers on (the redirect\'s target when that is the API itself), or ask the service why it redirects.',
  keyRefused403: (code: string | undefined) =>
    `HTTP 403${code === undefined ? '' : ` (${code})`}, no active data plan / key over the plan allowance after a downgrade`,
  keyRefused403Remedy: () =>
    'Use the first key of the account (after a downgrade only the keys within the plan keep access), or renew the data plan.',
  keyUnconfirmed: (detail: string) => `RDW_API_KEY could not be confirmed on /research/catalog: ${detail.replace(/\.$/, '')}.`,
  // plan and limits
  planClosed: (code: string | undefined) =>
    `the paid Market Events scope answered HTTP 403${code === undefined ? '' : ` (${code})`}: no active data plan / key over the plan allowance.`,
  planClosedRemedy: () =>
    'rdw research and rdw live work with this key; releases, pull and lock need an active Researcher or Research Desk plan and a key within its slots.',
  planFailed: (detail: string) => `the paid scope could not be read: ${detail.replace(/\.$/, '')}.`,
  planFailedRemedy: () => 'Run "rdw releases --limit 1" for the whole message; see "Using the real service" in the README.',
  readingPlan: () => 'reading the plan, its limits and the latest release',
  planOpen: (limits: string, origin: string, latest: string) => `${limits} (${origin}); paid scope open, ${latest}.`,
  planAssumed: (limits: string, reason: string, latest: string) => `limits assumed (${reason}): ${limits}; paid scope open, ${latest}.`,
  planName: (name: string) => `${name} plan: `,
  reportedBy: (origin: string) => `reported by ${origin}`,
  assumedRemedy: () => 'Nothing to do: rdw paces at the assumed rate; the service did not state its limits.',
  keySlots: (keys: number | undefined) => (keys === undefined ? 'key slots not stated' : `${keys} key slot${keys === 1 ? '' : 's'}`),
  rpm: (rpm: number) => `${rpm} requests/min`,
  bytesUnknown: () => 'daily byte budget unknown (rdw stops on the daily 429)',
  bytesNone: () => 'no paid byte allowance',
  bytesPerDay: (text: string) => `${text} per UTC day`,
  latestRelease: (day: string, id: string) => `latest release ${day} (${id.slice(0, 12)}…)`,
  noReleases: () => 'no release listed yet',
  // clock
  clockOk: (skew: number) => `the service's clock is within ${Math.max(1, Math.abs(skew))} s of this machine's.`,
  clockSkewed: (skew: number, limit: number) =>
    `the service's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} this machine's (more than ${limit} s): the UTC day of the byte budget starts at another moment than rdw thinks.`,
  clockSkewedRemedy: () => "Synchronise this machine's clock (NTP); daily byte budgets use UTC days.",
  clockNoDate: () => 'the service sent no Date header, so the clocks could not be compared.',
  // home
  homeWritable: (home: string) => `${home} is writable.`,
  homeToCreate: (home: string, parent: string) => `${home} does not exist yet; rdw creates it on first use (${parent} is writable).`,
  homeIsFile: (home: string) => `${home} is a file, not a folder.`,
  homeBelowFile: (home: string) => `${home} cannot be a folder: a part of its path is a file.`,
  homeNotWritable: (home: string, reason: string) => `${home} is not writable (${reason}).`,
  noFolderOfPath: () => 'no folder of its path exists',
  homeRemedy: () => 'Point RDW_HOME (or --home) to a folder you can write, e.g. export RDW_HOME=$HOME/rdw-data.',
  // catalog
  catalogAbsent: (file: string) => `no catalog yet at ${file} (the first pull creates it).`,
  catalogFree: (file: string) => `${file} is not held for writing by another process.`,
  catalogHeld: (file: string, pid: number | undefined, program: string | undefined) =>
    `${file} is held by another process${pid === undefined ? '' : ` (PID ${pid}${program === undefined ? '' : `, ${program}`})`}; DuckDB allows one writer.`,
  catalogHeldRemedy: (pid: number | undefined) =>
    `Wait for that rdw (or notebook, or DuckDB client) to finish, or stop it${pid === undefined ? '' : ` (kill ${pid})`}; rdw waits up to 10 s for it to read, 60 s to write (RDW_CATALOG_WAIT sets the seconds).`,
  /** functions: `db.schema.name()` (shadowed-names.ts). */
  catalogShadowed: (file: string, functions: readonly string[]) =>
    `${file} stores ${functions.map((name) => printableText(name)).join(', ')}, named like DuckDB's own function${functions.length === 1 ? '' : 's'}: DuckDB would call ${functions.length === 1 ? 'it' : 'them'} instead in every study, so studies refuse this catalog.`,
  catalogShadowedRemedy: (functions: readonly string[]) =>
    `Run "rdw verify --repair" to drop ${functions.length === 1 ? 'it' : 'them'}, or drop ${functions.length === 1 ? 'it' : 'them'} in your own code (${functions.map((name) => `catalog.query('DROP MACRO ${printableText(name.replace(/\(\)$/, ''))}')`).join('; ')}).`,
  catalogViewDiffers: (file: string, state: 'replaced' | 'missing') =>
    `${file}: its view market_events_current ${state === 'replaced' ? "is not rdw's (replaced outside rdw)" : 'is missing (dropped outside rdw)'}, so studies would not read the newest revision of each day.`,
  catalogViewDiffersRemedy: () => 'Run "rdw verify --repair" to restore it.',
  catalogColumnDiffers: (file: string, column: string, count: number) =>
    `${file}: its column ${printableText(column)}${count > 1 ? ` (and ${count - 1} more)` : ''} is not as rdw made it (changed outside rdw), so its rows fingerprint cannot vouch for what studies read, and studies, locks, pulls and exports refuse this catalog.`,
  catalogColumnDiffersRemedy: () => 'Run "rdw verify" to see each column, then "rdw verify --repair" to make them rdw\'s again.',
  catalogUnusable: (file: string, detail: string) => `${file} cannot be opened: ${detail.replace(/\.$/, '')}.`,
  catalogUnusableRemedy: () => 'Move that file away (or use another RDW_HOME); rdw creates a new catalog and "rdw reproduce" refills it from a study lock.',
  // kernel
  kernelOk: (dir: string, checkout: string) => `the TypeScript (tslab) kernel is registered (${dir}) and starts this checkout, ${checkout}.`,
  kernelOtherCheckout: (checkout: string, here: string) =>
    `the registered tslab kernel starts the rdw checkout ${checkout}, not this one (${here}): notebooks run that code.`,
  kernelWithoutLauncher: (program: string) =>
    `the registered tslab kernel runs ${program} without rdw's launcher, so a cell importing danfojs fails to compile.`,
  kernelReregister: (here: string) => `Run "npm run kernel" (rdw kernel install) in ${here} to register this checkout's kernel for you.`,
  kernelBinaryGone: (binary: string) => `the tslab kernel is registered, but its program ${binary} is gone.`,
  kernelNotRegistered: () => 'Jupyter is installed, but the TypeScript (tslab) kernel is not registered.',
  kernelRemedy: () => 'Run "npm run kernel" (rdw kernel install) in the rdw folder; only the notebooks need it.',
  kernelNotACheckout: (here: string) =>
    `not checked: rdw at ${here} is an installed package; the notebooks and their TypeScript kernel come with a checkout of the repository ("npm run kernel" there).`,
  jupyterAbsent: () => 'Jupyter was not found; only the notebooks need it, not the CLI.',
  jupyterAbsentRemedy: () => `Install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first), then run "npm run kernel".`,
  // summary and help
  summaryOk: (warnings: number) =>
    warnings === 0 ? 'Every check passed.' : `Every check passed, with ${warnings} warning${warnings === 1 ? '' : 's'}.`,
  summaryFailed: (failed: number, exitCode: number) => `${failed} check${failed === 1 ? '' : 's'} failed; exit code ${exitCode} (that of the first failure).`,
  help: () => {
    const checks: [string, string][] = [
      ['base_url', 'reachable, and which one (the embedded mock when RDW_BASE_URL is not set)'],
      ['key', 'RDW_API_KEY set and accepted (401: refused; 403: no plan / over the allowance)'],
      ['plan', 'paid scope open; limits as reported by the service, or as assumed'],
      ['clock', "the service's Date header vs this machine (warn above 60 s)"],
      ['home', 'writable (a temporary file is created and removed)'],
      ['catalog', 'not held by another process (DuckDB allows one writer)'],
      ['kernel', 'tslab registered, starting this checkout (warn only: the notebooks need it)'],
    ];
    // The labels doctor prints, padded to the longest so the descriptions line up.
    const width = Math.max(...checks.map(([name]) => doctorMessages.labels[name]!.length));
    return [
      'Checks, one line each with ok / warn / fail (skip: not run because a check it needs did not pass):',
      ...checks.map(([name, text]) => `  ${doctorMessages.labels[name]!.padEnd(width)}  ${text}`),
      '',
      '--json prints one object: {"ok", "exitCode", "checks": [{"name", "status", "message", "remedy"?,',
      '"exitCode"?, "facts"?}]}.',
      'Exit code: 0 when no check fails (warnings allowed); otherwise that of the first failing check:',
      '1 unreachable, RDW_HOME or catalog problem; 2 malformed base URL or key; 4 key refused or missing,',
      'or no paid plan (401/403); 5 rate or byte limit; 6 not found. The key is never printed.',
    ].join('\n');
  },
};

/** `rdw sync` and `rdw lock check` (src/cli/commands/sync.ts, lock-check.ts, sync-report-text.ts). */
export const syncMessages = {
  badInterval: (value: string) =>
    `--watch ${JSON.stringify(value)} is not valid: expected an interval from 1m to 24h, as a number and a unit (s, m or h), e.g. 15m or 1h.`,
  summary: (at: string, listed: number, range: string, added: number, revised: number, present: number, failed: number) =>
    // The time first, as a log line (sync --watch prints one per run); no "sync " so 100 listed with mixed counts fit 100 columns.
    `${at}: listed ${listed}${range === '' ? '' : ` (${range})`}, ${added} new, ${revised} revised, ${present} present, ${failed} failed`,
  nothingNew: (listed: number) => (listed === 0 ? 'nothing new: the listing named no release' : `nothing new: all ${listed} listed releases are in the catalog`),
  /** Under --json, a failed sync with no failed release or snapshot to name (the report on stdout says more). */
  syncFailed: (exitCode: number) => `The sync failed (exit ${exitCode}); its report on stdout says what failed.`,
  // Day first and no version, so a line with a whole release ID fits 100 columns (--json has every field).
  newLine: (id: string, day: string, rows: number) => `new      ${day} ${id} ${rows} rows`,
  revisedLine: (id: string, day: string, rows: number) => `revised  ${day} ${id} ${rows} rows`,
  revisedDetail: (replaces: readonly string[], published: string) =>
    `         replaces ${replaces.map((other) => `${other.slice(0, 12)}…`).join(', ')}${published === '' ? '' : `, published ${published}`}`,
  revisedNotCurrent: (current: string, published: string) =>
    `         older than ${current.slice(0, 12)}…, which stays current (newer generated_at)${published === '' ? '' : `, published ${published}`}`,
  moreNew: (more: number, from: string, to: string) =>
    `new      … and ${more} more (${from} .. ${to}); every ID: rdw ls, or rdw sync --json`,
  failedLine: (id: string, day: string, message: string) => `failed   ${id} ${day}: ${message}`,
  snapshotLine: (dataset: string, status: string, detail: string) => `snapshot ${dataset} ${status}${detail === '' ? '' : `: ${detail}`}`,
  snapshotRecorded: (generatedAt: string) => `generated ${generatedAt}`,
  snapshotUnchanged: (generatedAt: string) => `same generated_at ${generatedAt} as recorded`,
  /**
   * A chosen snapshot dataset the service does not have (404): the choice is remembered, so every later sync asks
   * again and fails; how to choose again without it (`kept`: the other chosen datasets).
   */
  snapshotDatasetUnknown: (dataset: string, kept: readonly string[]) =>
    `The service has no research dataset ${dataset}, and this home's syncs ask for it every run (--snapshots is remembered); choose again without it: rdw sync --snapshots ${kept.length === 0 ? "''" : kept.join(',')} (rdw research catalog lists the dataset IDs).`,
  budgetLine: (left: string, daily: string, clearsOn: string) => `budget   ${left} of ${daily} left today (clears ${clearsOn} 00:00 UTC)`,
  budgetUnknown: (clearsOn: string) => `budget   not stated by the service (a daily limit clears ${clearsOn} 00:00 UTC)`,
  mayHaveFallenOff: (from: string, to: string) =>
    `days ${from} .. ${to} may have fallen off the 100-release listing since the last sync (it has no offset); a release there can only be pulled by an ID you know: rdw pull <RELEASE_ID>.`,
  missingDays: (days: readonly string[]) =>
    `${days.length} day${days.length === 1 ? '' : 's'} between the catalog's first and last day ha${days.length === 1 ? 's' : 've'} no release in the catalog: ${days.length > 12 ? `${days.slice(0, 12).join(', ')}, …` : days.join(', ')}.`,
  // A pin is a heading and its whole IDs on lines of their own, so each fits 100 columns.
  lockRevised: (file: string, day: string, published: string) =>
    `lock ${file}: ${day} has a newer revision${published === '' ? '' : `, published ${published}`}`,
  lockUnlisted: (file: string, day: string) =>
    `lock ${file}: ${day} is not in the service's listing (it fell off the latest 100, or is no longer listed); still served by ID`,
  lockListedOlder: (file: string, day: string) =>
    `lock ${file}: ${day} is listed under another ID, not newer; the pinned one is served by ID`,
  // Not "newer": nothing dates a pin in neither the listing nor the catalog. Heading, pinned, listed, then what to do.
  lockPinUnknown: (file: string, day: string) => `lock ${file}: ${day}: the pinned release is in neither its day's listing nor the catalog`,
  lockPinUnknownRemedy: () => '  check the pinned ID (exact, case-sensitive), or write a new lock with rdw lock',
  lockListed: (id: string) => `  listed ${id}`,
  lockPinned: (id: string) => `  pinned ${id}`,
  lockNewer: (id: string, seenIn: string) => `  newer  ${id} (${seenIn})`,
  lockUnchanged: (file: string) => `lock ${file}: unchanged; write a new one with rdw lock to use a newer revision.`,
  lockNothingRevised: (file: string, count: number) => `lock ${file}: none of its ${count} pinned release${count === 1 ? ' has' : 's have'} a newer revision.`,
  lockCheckUsage: () => 'Usage: rdw lock check <FILE...>: name one or more study lock files.',
  watchStarted: (interval: string) => `rdw: syncing every ${interval}; stop with Ctrl+C (SIGINT) or SIGTERM.`,
  watchBusy: (at: string, message: string) => `sync ${at}: skipped: ${message}`,
  watchFailed: (at: string, message: string) => `sync ${at}: failed: ${message}`,
  watchStopped: (signal: string) => `rdw: stopped (${signal}).`,
  syncInterrupted: (signal: string, imported: number, notPulled: number) =>
    `Interrupted (${signal}): ${imported} imported, ${notPulled} not pulled; run recorded, sync.lock released.`,
  syncHelp: () =>
    [
      'Each run: lists the latest 100 releases, pulls every listed ID the catalog lacks (new days',
      'and new revisions, by exact ID, within pacing and the byte budget), records snapshots of',
      'the --snapshots datasets when due (never sooner than their refresh_seconds), checks',
      '--locks for revised days, and records the run in the catalog table sync_runs. --snapshots',
      "is remembered (a later plain sync uses the last choice; --snapshots '' clears it); --locks",
      'is not (the catalog holds no machine path).',
      'A second sync on the same home exits at once (exit 1) naming the PID of the one running; a',
      'sync.lock left by a killed sync is taken over with a notice. --watch INTERVAL (1m-24h,',
      'e.g. 15m, 1h) runs in the foreground, one line per run, until SIGINT or SIGTERM: between',
      'runs it exits 0; during a run the run stops between releases, is recorded and exits 130/143.',
      'Exit code: 0 ok; 1 another sync is running, or another failure; 2 a bad flag; 3 a release',
      'failed its checks (nothing of it imported); 4 key refused; 5 a byte budget or rate limit',
      '(the day it clears is named; releases pulled before it stay, none is partial); 6 not',
      'found.',
    ].join('\n'),
  lockCheckHelp: () =>
    [
      '"rdw lock check <FILE...>" names every pinned release whose day has a newer revision in the listing',
      'or in the catalog: lock file, day, pinned ID, newer ID, when published. It never changes a lock. A',
      'pinned release the service no longer lists is reported, not an error. A pinned ID in neither the',
      "listing nor the catalog while the listing names another release of its day (a mistyped or re-cased",
      'ID: IDs are exact) is said to be not in the listing of its day, not newer: check the ID, or write a',
      'new lock with rdw lock (rdw reproduce fails on an ID the service does not know). Exit code 0 whether',
      'or not a revision or such a pin was found (news, not a failure); scripts read --json: {"locks":',
      '[{"file", "releases": [{"id", "day", "status" (current, revised, unlisted or unknown), "newerId",',
      '"newerGeneratedAt", "seenIn", "listedId"}]}], "revised": N}. A lock file named "check" is written',
      'as ./check.',
    ].join('\n'),
};
