// Every user-facing sentence of the catalog layer: what failed, on which thing, and what to do.

import { printableText } from '../base/index.js';

const short = (id: string) => `${id.slice(0, 12)}…`;
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
/** A size in MiB with one decimal (`0.0 MiB` only for 0 bytes; below 0.1 MiB: `< 0.1 MiB`). */
const mebibytes = (bytes: number) => (bytes > 0 && bytes < 0.1 * 2 ** 20 ? '< 0.1 MiB' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
/** At most six names, then how many more. */
const list = (names: readonly string[]) => (names.length <= 6 ? names.join(', ') : `${names.slice(0, 6).join(', ')} and ${names.length - 6} more`);

/** Who holds a catalog's lock (src/catalog/open-duckdb-file.ts CatalogLockHolder). */
interface LockHolderText {
  pid: number | undefined;
  program: string | undefined;
  thisProcess: boolean;
}
/** "/usr/bin/node PID 1234", "another catalog handle of this process (PID 1234)", or "another process". */
const holderText = (holder: LockHolderText) =>
  holder.thisProcess
    ? `another catalog handle of this process (PID ${holder.pid})`
    : holder.pid === undefined
      ? 'another process (DuckDB did not name it)'
      : `${holder.program ?? 'a process'} PID ${holder.pid}`;

/** Where a user's own tables go, said by every refusal of a write through a read-only-for-users catalog. */
const OWN_TABLES =
  "For tables of your own use CREATE TEMP TABLE (kept while the catalog is open), or a DuckDB database of your own fed by COPY (SELECT …) TO 'file.parquet' or rdw export.";

/** The connection settings a study refuses when changed (shadowed-names.ts), and how each is set back. */
export type ConnectionSetting = 'TimeZone' | 'Calendar' | 'default_order' | 'search_path' | 'the current database';
const SETTING_RESET: Readonly<Record<ConnectionSetting, string>> = {
  TimeZone: "SET TimeZone = 'UTC'",
  Calendar: "SET Calendar = 'gregorian'",
  default_order: "SET default_order = 'ASC'",
  search_path: 'RESET search_path',
  'the current database': "USE the catalog's database, e.g. USE catalog",
};

export const catalogMessages = {
  /** names: `db.schema.fn()` for a macro, `db.schema.name` for a temp relation (shadowed-names.ts). */
  shadowedNames: (names: readonly string[]) => {
    const one = names.length === 1;
    const drops = names.map((name) => (name.endsWith('()') ? `DROP MACRO ${printableText(name.slice(0, -2))}` : `DROP VIEW / DROP TABLE ${printableText(name)}`));
    // A macro stored in the catalog file (not temp.*) outlives the connection: rdw verify --repair drops it.
    const stored = names.some((name) => name.endsWith('()') && !name.startsWith('temp.'));
    return `The catalog's connection defines ${names.map((name) => printableText(name)).join(', ')}, named like ${one ? (names[0]!.endsWith('()') ? "one of DuckDB's own functions" : 'a table or view of the catalog') : "DuckDB's own functions or the catalog's tables"}, which DuckDB would read instead in rdw's SQL and in derived features; drop ${one ? 'it' : 'them'} (${drops.join('; ')}${stored ? '; "rdw verify --repair" drops a macro stored in the catalog' : ''}) and run again.`;
  },
  currentViewReplaced: (view: string) =>
    `The catalog's view ${printableText(view)} is not rdw's any more (it was replaced, e.g. by CREATE OR REPLACE VIEW), so a study would not read the newest revision of each day; run "rdw verify --repair" to restore it.`,
  connectionSetting: (setting: ConnectionSetting, value: string) =>
    `The catalog's connection has ${setting} = ${printableText(value)}, which changes what rdw's SQL computes or reads; set it back (${SETTING_RESET[setting]}) and run the study again.`,
  userWriteRefused: () =>
    `This catalog refuses writes to rdw's tables (market_events, releases, …): they hold exactly the rows imported from verified files. ${OWN_TABLES}`,
  userTransactionRefused: () =>
    `This catalog runs your SQL in a read-only transaction and refuses BEGIN, COMMIT and ROLLBACK; run the statements without them. ${OWN_TABLES}`,
  userMethodRefused: (name: string, methods: readonly string[]) =>
    `The connection of this catalog offers ${methods.join(', ')}, not ${name}: each runs in a read-only transaction. ${OWN_TABLES}`,
  borrowedMemberRefused: (name: string) =>
    `catalog.connection of a catalog that lets its file go between operations (hold 'while-busy') offers its async methods only, not ${name}; use catalog.exclusive((connection) => …), which hands your function the open connection.`,
  rowsDiffer: (id: string, recorded: string, actual: string) =>
    `The catalog's rows of release ${id} differ from the rows imported from its verified files (rows fingerprint ${recorded.slice(0, 12)}… recorded, ${actual.slice(0, 12)}… now): something changed them outside rdw; run "rdw verify --repair" to re-import them from the stored files.`,
  rowsDifferFromFile: (id: string, fromFile: string, actual: string) =>
    `The catalog's rows of release ${id}, and the fingerprint recorded for them, differ from the rows its verified stored data file gives (rows fingerprint ${fromFile.slice(0, 12)}… from the file, ${actual.slice(0, 12)}… now): both were changed outside rdw; run "rdw verify --repair" to re-import them from the stored file.`,
  recordOrphanRows: (id: string, rows: number) =>
    `The catalog holds ${rows} rows of release ${id} but no record of that release (changed outside rdw): a study or export could read them; run "rdw verify --repair" to remove them (then pull the release again if you want it).`,
  recordNoDataFile: (id: string) =>
    `Release ${id} has no data file recorded in the catalog (changed outside rdw), so its rows cannot be checked, repaired or locked; run "rdw verify --repair" to record it again from its verified manifest.`,
  recordNoManifestFile: (id: string) =>
    `Release ${id} has no manifest recorded in the catalog (changed outside rdw), so its record cannot be checked; run "rdw verify --repair" to record it again.`,
  recordDiffers: (id: string, field: string, recorded: string, manifest: string) =>
    `The catalog records ${field} ${recorded} for release ${id}, but its verified manifest says ${manifest} (changed outside rdw${field === 'generated_at' ? '; it decides which revision of a day a study reads' : ''}); run "rdw verify --repair" to set it back.`,
  recordViewDiffers: (view: string, state: 'replaced' | 'missing') =>
    `The catalog's view ${view}, which picks the newest revision of each day for studies, ${state === 'replaced' ? 'is not rdw\'s any more (replaced outside rdw, e.g. by CREATE OR REPLACE VIEW)' : 'is missing (dropped outside rdw)'}; run "rdw verify --repair" to restore it.`,
  recordShadowingMacro: (macro: string) =>
    `The catalog stores a macro ${printableText(macro)} named like one of DuckDB's own functions: DuckDB would call it instead in rdw's SQL (its checks' hashes included), so no check or study can be believed; run "rdw verify --repair" to drop it.`,
  /** A row table's column not as rdw made it (row-table-columns.ts): `found` undefined when missing, `expected` when extra. */
  recordColumnDiffers: (table: string, column: string, expected: string | undefined, found: string | undefined, computed = false) => {
    const name = printableText(`${table}.${column}`);
    if (computed) {
      return `The catalog's column ${name} is computed by an expression (a default or a generated column, made outside rdw), so it can read one way to its rows fingerprint and another to a study; run "rdw verify --repair" to make it a plain ${expected} column again and re-import its rows.`;
    }
    const what =
      found === undefined
        ? `The catalog's column ${name} is missing (dropped outside rdw), so neither its rows fingerprint nor a study can read it`
        : expected === undefined
          ? `The catalog's table ${printableText(table)} has a column ${printableText(column)} of type ${printableText(found)} that rdw does not make (added outside rdw), which a study reading every column would read too`
          : `The catalog's column ${name} is ${printableText(found)}, not rdw's ${expected} (changed outside rdw, e.g. by ALTER TABLE): its rows fingerprint casts it back to ${expected}, so it cannot tell the values a study would read`;
    return `${what}; run "rdw verify --repair" to ${found === undefined ? 'add it back and re-import its rows' : expected === undefined ? 'drop it' : `alter it back to ${expected}`}.`;
  },
  recordManifestGone: (id: string) =>
    `Release ${id} cannot be mended from its manifest: the catalog's store holds no readable manifest of it; restore catalog.duckdb from a backup, or pull the release into a new home.`,
  recordRepaired: (problem: {
    kind: string;
    releaseId?: string;
    rows?: number;
    field?: string;
    manifest?: string;
    view?: string;
    macro?: string;
    table?: string;
    column?: string;
    expected?: string | undefined;
    found?: string | undefined;
    computed?: true;
  }) =>
    problem.kind === 'column_differs'
      ? problem.computed === true
        ? `Made the column ${printableText(`${problem.table}.${problem.column}`)} a plain ${problem.expected} column again (its rows are re-imported from the stored files).`
        : problem.found === undefined
        ? `Added the column ${printableText(`${problem.table}.${problem.column}`)} back as ${problem.expected}.`
        : problem.expected === undefined
          ? `Dropped the column ${printableText(`${problem.table}.${problem.column}`)}, which rdw does not make.`
          : `Altered the column ${printableText(`${problem.table}.${problem.column}`)} back to ${problem.expected}.`
      : problem.kind === 'shadowing_macro'
      ? `Dropped the macro ${problem.macro}, named like one of DuckDB's own functions.`
      : problem.kind === 'view_differs'
      ? `Restored the view ${problem.view} as rdw defines it (the newest revision of each day).`
      : problem.kind === 'orphan_rows'
      ? `Removed ${problem.rows} rows of release ${problem.releaseId} that the catalog held no record of.`
      : problem.kind === 'record_differs'
        ? `Set ${problem.field} of release ${problem.releaseId} back to ${problem.manifest}, as its verified manifest says.`
        : `Recorded the ${problem.kind === 'no_data_file' ? 'data file' : 'manifest'} of release ${problem.releaseId} again${problem.kind === 'no_data_file' ? ' from its verified manifest' : ''}.`,
  rowsUnrecorded: (id: string) =>
    `Release ${id} has no rows fingerprint yet (imported before rdw recorded them, and its stored data file could not give one); run "rdw verify --repair" to fetch the file again and re-import its rows.`,
  rowsSourceDamaged: (id: string, file: string) =>
    `The rows of release ${id} cannot be re-imported: its stored data file ${file} is missing or damaged; run "rdw verify --repair" to fetch it again.`,
  rowsRepaired: (id: string, what: string) => `re-imported the rows of release ${id} from its stored data file (${what}).`,
  rowsRepairFailed: (id: string, why: string) => `could not re-import the rows of release ${id}: ${why}; nothing was changed for it.`,
  badOption: (name: string, expected: string) => `The catalog option ${name} must be ${expected}.`,
  badSnapshot: (detail: string) => `The snapshot cannot be recorded: ${detail}.`,
  busy: (home: string, seconds: number, holder: LockHolderText) =>
    `The catalog in ${home} is held by ${holderText(holder)} (waited ${seconds} s); run again when it has finished${holder.pid === undefined || holder.thisProcess ? '' : `, or stop it (kill ${holder.pid})`}.`,
  waiting: (home: string, holder: LockHolderText, seconds: number) =>
    `The catalog in ${home} is held by ${holderText(holder)}; waiting for it up to ${seconds} s more.`,
  closed: (file: string) => `The catalog ${file} was closed; open it again (openCatalog or openWorkbench) to use it.`,
  stillWaiting: (home: string, holder: LockHolderText, seconds: number) =>
    `Still waiting for the catalog in ${home} (held by ${holderText(holder)}); ${seconds} s left.`,
  /** The detail of notImportedManifestMismatch for a release whose status is not `ready`. */
  releaseNotReady: (status: unknown) =>
    `its status is ${printableText(JSON.stringify(status) ?? String(status), 40)}, not "ready", so the release is not complete yet (pull it again later)`,
  notImportedManifestMismatch: (id: string, detail: string) =>
    `The manifest of release ${short(id)} is not usable: ${detail}. Nothing was imported.`,
  schemaVersionDisagrees: (id: string, schemaVersion: string, manifestVersion: string) =>
    `The bundled schema of release ${short(id)} is product version "${schemaVersion}", but its manifest says "${manifestVersion}". Nothing was imported.`,
  schemaColumnsMismatch: (id: string, source: string, detail: string) =>
    `The ${source} of release ${short(id)} does not match the Market Events fields of this rdw (${detail}). Nothing was imported.`,
  csvHeaderTooLong: (id: string, maxBytes: number) =>
    `The csv file of release ${short(id)} has no header line end in its first ${mebibytes(maxBytes)}; it is not a csv file rdw can read. Nothing was imported.`,
  csvNotReadable: (what: string) =>
    `The csv file of ${what} is not RFC 4180 csv that rdw can read (fields separated by commas, quoted with double quotes, lines ending in CRLF or LF). Nothing was imported.`,
  rowsRefused: (what: string, detail: string) =>
    `The rows of ${what} do not fit the Market Events fields (${detail}). Nothing was imported.`,
  acceptedVersion: (versions: readonly string[], known: string, releases: number) =>
    `${count(releases, 'release')} ${releases === 1 ? 'is' : 'are'} product version ${list(versions)}, not ${known} that this rdw was written for; imported as given (recorded in releases.version; each row keeps its calculation_version).`,
  acceptedWidened: (fields: readonly string[], releases: number) =>
    `${count(releases, 'release')} store${releases === 1 ? 's' : ''} number fields in other numeric types (${list(fields)}); imported as DOUBLE.`,
  acceptedExtraFields: (fields: readonly string[], releases: number) =>
    `${count(releases, 'release')} carr${releases === 1 ? 'ies' : 'y'} fields beyond the spec (${list(fields)}); kept per row as JSON in market_event_extras, never used as predictors.`,
  acceptedAbsentFields: (fields: readonly string[], releases: number) =>
    `${count(releases, 'release')} lack${releases === 1 ? 's' : ''} the nullable fields ${list(fields)}; imported as NULL (missing, never zero).`,
  acceptedNullTypedFields: (fields: readonly string[], releases: number) =>
    `${count(releases, 'release')} store${releases === 1 ? 's' : ''} the nullable fields ${list(fields)} as Parquet's Null type (no values); imported as NULL (missing, never zero).`,
  acceptedTypeWords: (words: readonly string[], releases: number) =>
    `The bundled schema of ${count(releases, 'release')} uses other type words (${list(words)}); read as the spec's types.`,
  acceptedNonFinite: (fields: readonly string[], releases: number) =>
    `${count(releases, 'release')} hold${releases === 1 ? 's' : ''} numbers that are not finite (NaN or ±Infinity) in ${list(fields)}; imported as NULL (missing, never a value).`,
  acceptedOtherValues: (values: readonly string[], releases: number) =>
    `${count(releases, 'release')} hold${releases === 1 ? 's' : ''} values outside the spec's value sets (${list(values.map((value) => printableText(value, 60)))}); kept as they are${values.some((value) => value.startsWith('status_')) ? ' (an outcome status other than complete is missing)' : ''}.`,
  schemaChecksumMismatch: (id: string, actual: string, expected: string) =>
    `The bundled schema of release ${short(id)} has sha256 ${actual.slice(0, 12)}…, the manifest says ${expected.slice(0, 12)}…. Nothing was imported.`,
  manifestContradicted: (id: string, detail: string, more: readonly string[]) =>
    `Release ${short(id)} was not imported: its manifest says ${detail}${more.length === 0 ? '' : ` (it also disagrees on ${list(more)})`}.`,
  /** Clauses after "its manifest says" (manifestContradicted), one per kind of contradiction. */
  manifestSays: {
    day: (day: string, first: string, last: string) =>
      `day ${day} but its rows' sample_time fall on ${first === last ? first : `${first} to ${last}`}`,
    rows: (stated: number, actual: number) => `rows ${stated} but it holds ${actual} rows`,
    repeatedRows: (stated: number, samples: number, rowId: string, rows: number) =>
      `rows ${stated} but they are ${samples} samples: row_id ${printableText(rowId, 13)} is on ${rows} rows, and each row is one sample`,
    sampleTime: (field: string, stated: unknown, actual: number | null, smallest: boolean) =>
      `${field} ${JSON.stringify(stated)} but ${actual === null ? 'no row has a sample_time' : `its rows' ${smallest ? 'smallest' : 'largest'} sample_time is ${actual}`}`,
    rowValues: (field: string, stated: string, column: string, actual: readonly string[]) =>
      `${field} ${stated} but its rows' ${column} ${actual.length === 1 ? 'is' : 'values are'} ${list(actual)}`,
    symbols: (stated: readonly string[], actual: readonly string[]) =>
      `coverage.symbols ${stated.length === 0 ? '(none)' : list(stated)} but its rows' symbols are ${actual.length === 0 ? '(none)' : list(actual)}`,
    count: (path: string, value: string, stated: unknown, actual: number, column: string) =>
      `${path}.${value} ${stated === undefined ? '(not listed)' : JSON.stringify(stated)} but ${actual} of its rows have ${column} ${value}`,
    listing: (path: string, stated: string, listed: string) => `${path} ${stated} but the /releases listing says ${listed}`,
    tooLarge: (format: string, bytes: number, limit: number) =>
      `the ${format} file is ${bytes} bytes, more than the largest daily byte allowance (${limit} bytes) could ever download`,
  },
  rowCountMismatch: (id: string, actual: number, expected: number) =>
    `Release ${short(id)} holds ${actual} rows, but its manifest says ${expected}. Nothing was imported.`,
  batchRowCountMismatch: (releases: number, actual: number, expected: number) =>
    `A batch of ${releases} releases holds ${actual} rows, but their manifests say ${expected}; each is imported on its own to find which.`,
  noDataFile: (id: string) => `Release ${short(id)} offers neither a parquet nor a csv file; nothing was imported.`,
  exportTarget: (dir: string) => `The export folder ${dir} exists and is not empty; choose an empty or new folder.`,
  /** `rdw export s3://…`: the prefix holds objects (an earlier export, another writer's), as exportTarget. */
  exportStoreTarget: (url: string) => `The export location ${url} already holds objects; choose an empty or new prefix.`,
  /** `given` arrives with any `user:secret@` part already replaced (parseStoreUrl). */
  exportStoreUrl: (given: string, why: string) =>
    `The export location ${JSON.stringify(given)} is not an S3 location: ${why}. Give s3://bucket/prefix (e.g. rdw export s3://desk-data/export) or a folder.`,
  exportStoreRefused: (url: string, detail: string) =>
    `The object store refused the export to ${url} (${detail}). Check that the bucket exists and that AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY may write to it.`,
  exportNoCredentials: (url: string) =>
    `No AWS credentials were found for the export to ${url}; set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`,
  exportStoreUnavailable: (url: string, detail: string) =>
    `The object store of ${url} could not be reached (${detail}). Check AWS_ENDPOINT_URL_S3 and that the server is up, then run the export again.`,
  newerCatalog: (found: number, known: number) =>
    `The catalog has schema version ${found}, newer than this rdw knows (${known}); upgrade rdw to open it.`,
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  embeddedMock: (baseUrl: string) => `rdw: no RDW_BASE_URL set; using the embedded mock API at ${baseUrl} (offline, seeded data).`,
  catalogCorrupt: (file: string, detail: string) =>
    `${file} is not a readable DuckDB catalog (${detail.split('\n')[0]!.replace(/[.!]+$/, '')}). Move it aside (mv ${file} ${file}.broken) and pull again (rdw pull <RELEASE_ID...> or rdw pull --latest N), or rebuild it from a study lock into a new folder: rdw --home <NEW_FOLDER> reproduce <LOCK>; the verified files in store/ stay as they are.`,
  pullFailed: (failed: number, total: number) =>
    failed === total
      ? `${total === 1 ? 'The release' : `All ${total} releases`} could not be pulled; nothing was imported.`
      : `${failed} of ${total} releases could not be pulled; the other ${total - failed} ${total - failed === 1 ? 'is' : 'are'} complete.`,
  verifyBad: (file: string, releaseId: string, problem: string) =>
    `Stored file ${file} of release ${releaseId.slice(0, 12)}… ${problem}; run "rdw verify --repair" to fetch it again by release ID (and re-import its rows).`,
  repairNeedsWriter: () => 'Repairing the store needs the catalog open for writing (not readOnly).',
  repairNoUse: (file: string) => `Stored file ${file} is named by no release, so it cannot be fetched again by release ID; remove it with rdw gc.`,
  repaired: (file: string, format: string, releaseId: string, problem: string, reimported: number) =>
    `${reimported > 0 ? 're-imported' : 'restored'} ${file} (${format} of release ${short(releaseId)}, which ${problem}): fetched again by ID and verified${reimported > 0 ? `; the rows of ${count(reimported, 'release')} re-imported from it` : ''}.`,
  repairFailed: (file: string, format: string, releaseId: string, reason: string) =>
    `could not repair ${file} (${format} of release ${short(releaseId)}): ${reason.replace(/\.$/, '')}; nothing was changed for it.`,
  repairDone: (repaired: number, files: number, releases: number) =>
    `Repaired ${count(repaired, 'stored file')}; all ${files} stored files of ${releases} releases match their checksums.`,
  rowsRepairDone: (releases: number) => `Re-imported the rows of ${count(releases, 'release')}; every release's rows match their fingerprint.`,
  rowsRepairIncomplete: (failed: number, total: number) =>
    `The rows of ${failed} of ${count(total, 'release')} could not be re-imported (reasons above); run "rdw verify --repair" again once that is fixed.`,
  repairIncomplete: (failed: number, total: number) =>
    `${failed} of ${count(total, 'damaged stored file')} could not be repaired (reasons above); run "rdw verify --repair" again once that is fixed.`,
  presentFileDamaged: (file: string, releaseId: string) =>
    `Stored file ${file} of release ${short(releaseId)} is missing or cut short; run "rdw verify --repair" to fetch it again by release ID (and re-import its rows).`,
  pullRepaired: (id: string, files: number, reimported: boolean) =>
    `release ${short(id)} was present, but ${count(files, 'stored file')} ${files === 1 ? 'was' : 'were'} missing or cut short; fetched again by ID and verified${reimported ? ', its rows re-imported' : ''}.`,
  verifyOk: (files: number, releases: number) =>
    `All ${files} stored files of ${releases} releases match their checksums; all rows match their fingerprints.`,
  unreferencedFiles: (files: number, bytes: number) =>
    `${files} stored file${files === 1 ? ' is' : 's are'} referenced by no release (${mebibytes(bytes)}); remove ${files === 1 ? 'it' : 'them'} with rdw gc.`,
  staleTemp: (files: number, bytes: number) =>
    `${files} partial or leftover download${files === 1 ? ' is' : 's are'} in store/tmp (${mebibytes(bytes)}); the next pull resumes a recent one, rdw gc removes ${files === 1 ? 'it' : 'them'}.`,
  gcNeedsWriter: () => 'Removing unreferenced store files needs the catalog open for writing (not readOnly); open it read-write or use dryRun.',
  gcDone: (files: number, bytes: number) =>
    files === 0 ? 'Nothing to remove: every stored file is referenced by a release and store/tmp is empty.' : `Removed ${files} file${files === 1 ? '' : 's'} no release needs (${mebibytes(bytes)}).`,
  gcDryRun: (files: number, bytes: number) =>
    files === 0
      ? 'Nothing to remove: every stored file is referenced by a release and store/tmp is empty.'
      : `Would remove ${files} file${files === 1 ? '' : 's'} no release needs (${mebibytes(bytes)}); run rdw gc without --dry-run to remove ${files === 1 ? 'it' : 'them'}.`,
  noReleases: () => 'The catalog holds no releases yet; pull some with "rdw pull --latest N".',
  // fullId false: the short note of rdw ls's 100-column table (rdw ls --full-ids or --json say more).
  otherRevisionListed: (id: string, current: boolean, fullId = true) =>
    fullId
      ? `${current ? '' : 'superseded; '}revision ${id.slice(0, 12)}… also listed (the listing gave no generated_at, so which is newer is unknown): rdw pull ${id}`
      : `${current ? 'other revision' : 'superseded; other'} ${id.slice(0, 12)} listed`,
  exported: (rows: number, partitions: number, dir: string) => `Exported ${rows} rows in ${partitions} day partitions to ${dir}.`,
  noRows: () => 'The catalog holds no Market Events rows; pull releases first with "rdw pull --latest N".',
  arrowTypeUnsupported: (column: string, type: string) =>
    `Column "${column}" has DuckDB type ${type}, which catalog.arrow does not turn into an Arrow column; CAST it in the SQL (e.g. to VARCHAR or DOUBLE).`,
  arrowHugeInt: (column: string) =>
    `Column "${column}" holds a HUGEINT beyond the 64-bit range of an Arrow Int64; CAST it to DOUBLE in the SQL.`,
};
