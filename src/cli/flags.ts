// The command line of every `rdw` command, defined once: its summary, its operands and its flags (kind,
// value name, default, one-line description). Parsing, validation (parse-flags.ts) and help (help-text.ts)
// are generated from these definitions; the global flags are defined once, here too.

// The mock is imported for its types only, so that help and usage errors load neither it nor DuckDB; the
// studies' method lists come from the contract, which the analysis dispatches on too.
import { BOOTSTRAP_METHODS, DEFAULT_SPLIT_METHOD, DEFAULT_WINDOW, INTERVAL_METHODS, MODEL_SPLIT_METHODS, RELEASES_QUERY } from '../contract/index.js';
import type { DEFAULT_MOCK_NOW as MOCK_DEFAULT_NOW } from '../mock/index.js';

/** What --embargo accepts, in words (its refusals say it). */
export const EMBARGO_EXPECTED = '"auto" or a whole number of seconds, e.g. 3600';

/** The embedded mock's fixed clock: any other text than the mock's DEFAULT_MOCK_NOW does not compile. */
const DEFAULT_MOCK_NOW: typeof MOCK_DEFAULT_NOW = '2026-11-01T00:00:00Z';

interface FlagBase {
  /** Long name without `--`. */
  readonly name: string;
  /** One line for help (no final period; the range and default are added after it). */
  readonly description: string;
  /** One-letter alias without `-`. Default: none. */
  readonly short?: string;
}

/** A switch: true when given, false otherwise. */
export interface BooleanFlag extends FlagBase {
  readonly kind: 'boolean';
}

/** A text value, as given. */
export interface StringFlag extends FlagBase {
  readonly kind: 'string';
  /** Placeholder in help, e.g. `DIR`. */
  readonly valueName: string;
  /** Value when the flag is not given. Default: none (undefined reaches the command). */
  readonly default?: string;
  /** Default applied below the CLI, said in help only (e.g. "<home>/demo"). */
  readonly defaultNote?: string;
  /**
   * What a valid value is, for a flag none of whose values starts with '-': `--embargo -5` is then refused as
   * that value ("--embargo "-5" is not valid: expected …"), not sent to the `--embargo=-5` spelling first.
   */
  readonly expected?: string;
}

/** A whole number in [min, max], refused (exit 2) otherwise; the command receives a number. */
export interface IntegerFlag extends FlagBase {
  readonly kind: 'integer';
  readonly valueName: string;
  readonly min: number;
  readonly max: number;
  readonly default?: number;
  readonly defaultNote?: string;
  /**
   * Which sentence refuses a bad value. `range` (default): "--limit must be an integer from 1 to 100.";
   * `value`: "--port "abc" is not valid: expected an integer 0-65535." (rdw mock's flags quote the value);
   * `listing`: the range sentence, then why (the API lists at most the latest 100 releases, no offset) and
   * how to reach older releases (by ID).
   */
  readonly refusal?: 'range' | 'value' | 'listing';
}

/** Comma-separated values (spaces around commas ignored, empty items dropped); the command receives a string[]. */
export interface ListFlag extends FlagBase {
  readonly kind: 'list';
  readonly valueName: string;
  /** Comma-separated, as a user would type it. */
  readonly default?: string;
}

export type FlagDefinition = BooleanFlag | StringFlag | IntegerFlag | ListFlag;

/** What `rdw <command>` accepts, and what its help says. */
export interface CommandLine {
  /** One line for `rdw --help` and the command's help. */
  readonly summary: string;
  /** Operands after the command name in the usage line, e.g. `<DIR>`; '' when it takes none (then none are accepted). */
  readonly operands: string;
  /** The command's own flags (the global flags are added by the runner). */
  readonly flags: readonly FlagDefinition[];
  /** Command lines for the help's Examples (each starts with `rdw <command>`; a test parses every one). */
  readonly examples: readonly string[];
}

/** Flags every command takes. */
export const GLOBAL_FLAGS: readonly FlagDefinition[] = [
  { name: 'base-url', kind: 'string', valueName: 'URL', defaultNote: 'RDW_BASE_URL, else the embedded mock', description: 'API root ending in /v1' },
  { name: 'home', kind: 'string', valueName: 'DIR', defaultNote: 'RDW_HOME, else ./datasets', description: 'Folder of catalog.duckdb and store/' },
  { name: 'json', kind: 'boolean', description: 'JSON on stdout; a failure and each notice as a JSON line on stderr' },
  { name: 'help', kind: 'boolean', short: 'h', description: 'Show the usage and flags of a command' },
];

const RELEASE_COUNT = { kind: 'integer', valueName: 'N', min: RELEASES_QUERY.limit.min, max: RELEASES_QUERY.limit.max, refusal: 'listing' } as const;

const NO_FLAGS: readonly FlagDefinition[] = [];

/** Tables and lines show release IDs by their first 12 characters (release-id-text.ts); this flag shows them whole. */
const FULL_IDS: FlagDefinition = { name: 'full-ids', kind: 'boolean', description: 'Whole 64-character release IDs (default: the first 12, as git shows hashes)' };

const STUDY_LOCK_FLAG: FlagDefinition = { name: 'lock', kind: 'string', valueName: 'FILE', description: 'Study exactly the releases of this study lock, verified first' };
const STUDY_WINDOW_FLAG: FlagDefinition = { name: 'window', kind: 'list', valueName: 'W[,W...]', default: DEFAULT_WINDOW, description: 'Outcome windows, of 15m, 1h, 4h, 24h, 7d (model: one)' };
const STUDY_TAIL_FLAGS: readonly FlagDefinition[] = [
  { name: 'allow-mixed-versions', kind: 'boolean', description: 'Pool rows of different calculation versions' },
  { name: 'out', kind: 'string', valueName: 'DIR', description: 'Also write the report (HTML, SVG charts, CSV, JSON) there' },
  { name: 'wide', kind: 'boolean', description: 'Print every column, not only the results (as in the CSV)' },
];

/** Flags of `rdw study event` only: refused by `rdw study model`. */
export const STUDY_EVENT_ONLY_FLAGS: readonly FlagDefinition[] = [
  { name: 'by', kind: 'list', valueName: 'KEY[,KEY...]', default: 'event_kind,direction', description: 'Group keys: event_kind, direction, symbol' },
  { name: 'interval', kind: 'string', valueName: 'METHOD', default: 'block-jackknife', description: `CI and p: ${INTERVAL_METHODS[1]} ignores day clustering` },
  { name: 'bootstrap', kind: 'string', valueName: BOOTSTRAP_METHODS.join('|'), description: 'Old name of --interval: day = block-jackknife, row = row-bootstrap' },
];

/** Flags of `rdw study model` only: refused by `rdw study event`. Their defaults are the analysis's (notes only). */
export const STUDY_MODEL_ONLY_FLAGS: readonly FlagDefinition[] = [
  { name: 'split', kind: 'string', valueName: 'METHOD', defaultNote: DEFAULT_SPLIT_METHOD, description: `${MODEL_SPLIT_METHODS.join(', ')} (naive)` },
  { name: 'folds', kind: 'integer', valueName: 'N', min: 1, max: 100, defaultNote: '5', description: 'Folds (k-fold: at least 2)' },
  { name: 'embargo', kind: 'string', valueName: 'auto|SECONDS', defaultNote: 'auto', expected: EMBARGO_EXPECTED, description: 'Seconds after each test span kept out of training' },
  { name: 'test-days', kind: 'integer', valueName: 'N', min: 1, max: 9_999, defaultNote: 'days / (folds + 1)', description: 'Walk-forward: UTC days per test block' },
  { name: 'train-days', kind: 'integer', valueName: 'N', min: 1, max: 9_999, defaultNote: 'expanding', description: 'Walk-forward: a rolling train window of N days' },
  { name: 'seed', kind: 'integer', valueName: 'N', min: 0, max: 2 ** 31 - 1, defaultNote: '1', description: 'Model: seed of the row-k-fold shuffle' },
];

/** The flags of `rdw study event`, with their defaults. */
export const STUDY_EVENT_FLAGS: readonly FlagDefinition[] = [STUDY_LOCK_FLAG, STUDY_WINDOW_FLAG, ...STUDY_EVENT_ONLY_FLAGS, ...STUDY_TAIL_FLAGS];
/** The flags of `rdw study model`, with their defaults. */
export const STUDY_MODEL_FLAGS: readonly FlagDefinition[] = [STUDY_LOCK_FLAG, STUDY_WINDOW_FLAG, ...STUDY_MODEL_ONLY_FLAGS, ...STUDY_TAIL_FLAGS];

/** `flag` with its default said in help only (defaultNote), so parsing leaves it undefined when not given. */
function givenOnly(flag: FlagDefinition): FlagDefinition {
  if (flag.kind === 'boolean' || flag.default === undefined) return flag;
  const { default: value, ...rest } = flag;
  return { ...rest, defaultNote: String(value) } as FlagDefinition;
}

/** Every command's command line, by command name. */
export const COMMAND_LINES = {
  demo: {
    summary: 'The main job, offline: mock -> pull the latest releases -> verify -> event study -> report -> study lock.',
    operands: '',
    flags: [
      { ...RELEASE_COUNT, name: 'latest', default: 30, description: 'Pull and study the N newest releases' },
      { name: 'out', kind: 'string', valueName: 'DIR', defaultNote: '<home>/demo', description: 'Folder for the report and the study lock' },
    ],
    examples: ['rdw demo', 'rdw demo --latest 60 --out ./demo-60'],
  },
  mock: {
    summary: 'Serve the embedded mock Research Data API until stopped (Ctrl+C).',
    operands: '',
    flags: [
      { name: 'host', kind: 'string', valueName: 'HOST', default: '127.0.0.1', description: 'Address to listen on' },
      { name: 'port', kind: 'integer', valueName: 'PORT', min: 0, max: 65_535, default: 8787, refusal: 'value', description: 'Port to listen on; 0: any free port' },
      { name: 'seed', kind: 'integer', valueName: 'N', min: 0, max: 2 ** 31 - 1, default: 1, refusal: 'value', description: 'Seed of the simulated market and keys' },
      { name: 'now', kind: 'string', valueName: 'ISO', default: DEFAULT_MOCK_NOW, description: 'Fixed clock: ISO time or UTC Unix seconds' },
      { name: 'days', kind: 'integer', valueName: 'N', min: 1, max: 3_650, default: 120, refusal: 'value', description: 'Days of published releases' },
      { name: 'limits', kind: 'string', valueName: 'FILE', description: 'JSON file of plan limit overrides' },
      { name: 'faults', kind: 'string', valueName: 'FILE', description: 'JSON file of fault rules (an array)' },
    ],
    examples: ['rdw mock --json', 'rdw mock --port 0 --seed 7 --days 365'],
  },
  releases: {
    summary: 'List published Market Events releases (newest day first).',
    operands: '',
    flags: [{ ...RELEASE_COUNT, name: 'limit', defaultNote: "the service's", description: 'List the N newest releases' }, FULL_IDS],
    examples: ['rdw releases --limit 5', 'rdw releases --full-ids  # whole IDs, to copy into rdw pull', 'rdw releases --json  # all listed fields, and whether imported'],
  },
  pull: {
    summary: 'Download, verify and import releases by ID (idempotent).',
    operands: '<RELEASE_ID...> | --latest N',
    flags: [
      { ...RELEASE_COUNT, name: 'latest', description: 'Pull the N newest releases instead of named IDs' },
      { name: 'concurrency', kind: 'integer', valueName: 'N', min: 1, max: 16, default: 4, description: 'Releases downloaded and checked at a time' },
      FULL_IDS,
    ],
    examples: ['rdw pull --latest 30  # at most 100: the listing holds the latest 100', 'rdw pull <RELEASE_ID> <RELEASE_ID>  # any release, older ones too'],
  },
  ls: {
    summary: 'List the releases in the local catalog.',
    operands: '',
    flags: [FULL_IDS],
    examples: ['rdw ls', 'rdw ls --json'],
  },
  verify: {
    summary: "Re-hash every stored file and fingerprint every release's rows; report files no release references.",
    operands: '',
    flags: [{ name: 'repair', kind: 'boolean', description: 'Fetch missing or altered files again by ID, verified; re-import their rows' }],
    examples: ['rdw verify', 'rdw verify --repair'],
  },
  gc: {
    summary: 'Remove store files no release references (left by killed pulls) and store/tmp leftovers.',
    operands: '',
    flags: [{ name: 'dry-run', kind: 'boolean', description: 'List what would be removed; remove nothing' }],
    examples: ['rdw gc --dry-run', 'rdw gc'],
  },
  sql: {
    summary: 'Run SQL on the local catalog (read-only): a table, rows as JSON or CSV, or a Parquet file.',
    operands: '"<QUERY>"',
    flags: [
      { name: 'csv', kind: 'boolean', description: 'Rows as RFC 4180 CSV on stdout (header first)' },
      { name: 'parquet', kind: 'string', valueName: 'FILE', description: 'Write the rows to FILE as Parquet (replaced atomically if it exists)' },
    ],
    examples: [
      'rdw sql "SELECT symbol, count(*) FROM market_events_current GROUP BY ALL"',
      'rdw sql --csv "SELECT * FROM market_events_current" > events.csv',
      'rdw sql --parquet events.parquet "SELECT * FROM market_events_current"',
    ],
  },
  export: {
    summary: 'Export Market Events as Hive-partitioned Parquet (day=YYYY-MM-DD/) for Spark, Trino or DuckDB.',
    operands: '<DIR | s3://BUCKET/PREFIX>',
    flags: [{ name: 'current', kind: 'boolean', description: 'Only the newest revision of each day (market_events_current)' }],
    examples: ['rdw export ./parquet-out', 'rdw export ./parquet-out --current', 'rdw export s3://desk-data/market-events --current'],
  },
  research: {
    summary: 'The free Research scope: the catalog, a dataset snapshot, or its CSV rows.',
    operands: 'catalog | get <DATASET_ID> | csv <DATASET_ID>',
    flags: NO_FLAGS,
    examples: ['rdw research catalog', 'rdw research csv <DATASET_ID> > snapshot.csv'],
  },
  live: {
    summary: 'A public live research page as JSON (or --csv); no key needed.',
    operands: '<PAGE_KEY>',
    flags: [{ name: 'csv', kind: 'boolean', description: 'The page as CSV rows' }],
    examples: ['rdw live market-breadth', 'rdw live market-breadth --csv'],
  },
  study: {
    summary: 'Study the local catalog: event (event vs control) or model (a model scored by time-aware folds).',
    operands: 'event | model',
    // Parsed with no defaults, so the command sees which flags were given; it applies the defaults of the
    // study chosen (STUDY_EVENT_FLAGS or STUDY_MODEL_FLAGS). Help shows them all, defaults included.
    flags: [STUDY_LOCK_FLAG, STUDY_WINDOW_FLAG, ...STUDY_EVENT_ONLY_FLAGS, ...STUDY_MODEL_ONLY_FLAGS, ...STUDY_TAIL_FLAGS].map(givenOnly),
    examples: [
      'rdw study event  # 1h window only, by kind and direction',
      'rdw study event --window 15m,1h,4h,24h,7d --out ./report  # every window, and the HTML report',
      'rdw study event --by event_kind,direction,symbol  # also by symbol',
      'rdw study event --wide  # every column, as in event-study.csv',
      'rdw study event --lock study.lock.json  # exactly the pinned releases',
      'rdw study model  # the default model, purged 5-fold',
      'rdw study model --split walk-forward --folds 4 --test-days 8 --out ./model',
      'rdw study model --split row-k-fold  # the naive split, for comparison',
    ],
  },
  lock: {
    summary: 'Write a study lock pinning exact releases (pulls missing IDs by ID); lock check <FILE...> names revised pinned days.',
    operands: '<FILE> (<RELEASE_ID...> | --latest N) | check <FILE...>',
    flags: [{ ...RELEASE_COUNT, name: 'latest', description: 'Pin the N newest releases instead of named IDs' }, FULL_IDS],
    examples: ['rdw lock study.lock.json --latest 10', 'rdw lock check study.lock.json'],
  },
  sync: {
    summary: 'Bring the home up to date: new releases and revisions by ID, chosen free snapshots; cron-safe.',
    operands: '',
    flags: [
      { name: 'snapshots', kind: 'list', valueName: 'ID[,ID...]', description: "Free-scope datasets to snapshot (default: the last sync's)" },
      { name: 'locks', kind: 'list', valueName: 'FILE[,FILE...]', description: 'Study locks to check for revised days (not remembered)' },
      { name: 'watch', kind: 'string', valueName: 'INTERVAL', description: 'Sync again every INTERVAL (1m-24h, e.g. 15m, 1h) until stopped' },
      { name: 'concurrency', kind: 'integer', valueName: 'N', min: 1, max: 16, default: 4, description: 'Releases downloaded and checked at a time' },
    ],
    examples: ['rdw sync --snapshots market-breadth', 'rdw sync --watch 1h --locks study.lock.json'],
  },
  reproduce: {
    summary: 'Reproduce a study lock: pull missing releases by ID, verify every checksum.',
    operands: '<FILE>',
    flags: [FULL_IDS],
    examples: ['rdw reproduce study.lock.json'],
  },
  kernel: {
    summary: 'Register the TypeScript (tslab) kernel for the notebooks (for this user unless asked).',
    operands: 'install',
    flags: [
      { name: 'python', kind: 'string', valueName: 'PATH', defaultNote: '/usr/bin/python3, else python3', description: 'A Python that has Jupyter' },
      { name: 'user', kind: 'boolean', description: "Register for this user only (Jupyter's --user; the default)" },
      { name: 'sys-prefix', kind: 'boolean', description: "Register in that Python's prefix instead, e.g. a venv (Jupyter's --sys-prefix)" },
      { name: 'system', kind: 'boolean', description: 'Register for every user of this machine instead (needs write access there)' },
    ],
    examples: ['rdw kernel install', 'rdw kernel install --python ./venv/bin/python --sys-prefix'],
  },
  doctor: {
    summary: 'Check the setup against the service: base URL, key, plan and limits, clock, RDW_HOME, catalog lock, Jupyter kernel.',
    operands: '',
    flags: NO_FLAGS,
    examples: ['rdw doctor', 'rdw doctor --json'],
  },
  openapi: {
    summary: "Print the OpenAPI 3.1 description of the API (JSON), generated from rdw's contract.",
    operands: '',
    flags: NO_FLAGS,
    examples: ['rdw openapi > openapi.json'],
  },
} as const satisfies Record<string, CommandLine>;
