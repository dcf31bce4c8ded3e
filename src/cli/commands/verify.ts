// `rdw verify [--repair]`: re-hashes every stored file against release_files; exit 3 naming each bad file.
// Also reports store files no release references and store/tmp leftovers (exit code unchanged: rdw gc removes
// them). --repair fetches each bad file again by release ID, verified, and re-imports its releases' rows.

import {
  catalogMessages,
  CatalogRecordError,
  repairCatalogRecords,
  RowsMismatchError,
  StoreMismatchError,
  verifyStore,
  type Catalog,
  type CatalogRecordProblem,
  type CatalogRecordRepair,
  type ReleaseRowsCheck,
  type ReleaseRowsRepair,
  type StoreFileRepair,
  type StoreVerification,
} from '../../workbench/home-catalog.js';
import { repairTeamStore, storeMessages } from '../../workbench/home-catalog.js';
import { repairVerifiedStore } from '../../workbench/index.js';
import { EXIT_CODES, failureOf } from '../../contract/index.js';
import { connectApi } from '../api-connection.js';
import type { CliContext } from '../cli-context.js';
import { sayWhileSlow } from '../slow-step-notice.js';
import type { Command, ReportedFailure } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { wrapText } from '../wrap-text.js';

export const verifyCommand: Command = {
  name: 'verify',
  line: COMMAND_LINES.verify,
  async run(context, args) {
    const repair = args.values.repair === true;
    // Read-only unless repairing: then the normal writer open (DuckDB's lock: no other process pulls meanwhile).
    // Either way a home without a catalog is refused, not created: there is nothing to verify or repair.
    const catalog = await openCliCatalog(context, repair ? 'write' : 'read', { create: false });
    let report = await sayWhileSlow(context, commandMessages.verifying(), () => verifyStore(catalog));
    // The catalog's records first: a data-file record written again lets the store's check below find (or fetch) it.
    const recordRepairs = repair && report.records.length > 0 ? await repairRecordsAndSay(context, catalog, report.records) : [];
    if (recordRepairs.length > 0) report = await verifyStore(catalog);
    // With RDW_STORE_URL, --repair also makes the team store hold this home's whole files (said on stderr).
    if (repair) await repairTeamStoreAndSay(context, catalog);
    const whole = report.bad.length === 0 && report.badRows.length === 0 && report.records.length === 0;
    if (repair && (report.bad.length > 0 || report.badRows.length > 0)) {
      const ended = await repairAndReport(context, catalog, report, recordRepairs);
      if (report.records.length === 0) return ended;
      // A record its repair could not mend (said above) ends it: one error, exit 3.
      throw recordError(report.records[0]!);
    }
    const releases = releaseCount(report);
    if (context.json) {
      const { unreferenced, unreferencedBytes, temp, records } = report;
      const repairs = repair ? { repairs: [], rowRepairs: [], recordRepairs: shownRecordRepairs(recordRepairs) } : {};
      const rows = { rowsChecked: report.rows.length, badRows: report.badRows };
      context.stdout.write(`${JSON.stringify({ ok: whole, files: report.files, ...rows, records, unreferenced, unreferencedBytes, temp, ...repairs })}\n`);
      // A bad file or release: said as the one error object on stderr too (exit 3), by the throw below.
      if (whole) return EXIT_CODES.ok;
    }
    const garbage = garbageLines(report);
    if (whole) {
      context.stdout.write(`${catalogMessages.verifyOk(report.files.length, releases)}\n`);
      for (const line of garbage) context.stdout.write(`${line}\n`);
      return EXIT_CODES.ok;
    }
    for (const line of garbage) context.stderr.write(`rdw: ${line}\n`);
    const messages = report.bad.map((bad) => catalogMessages.verifyBad(bad.file, bad.uses[0]!.releaseId, commandMessages.fileProblem[bad.problem!]));
    const rowMessages = report.badRows.map(rowsMessage);
    const recordMessages = report.records.map(recordMessage);
    for (const message of [...messages, ...rowMessages, ...recordMessages].slice(1)) context.stderr.write(`rdw: ${message}\n`);
    if (messages.length > 0) throw new StoreMismatchError(messages[0]!, { file: report.bad[0]!.file });
    if (rowMessages.length > 0) throw new RowsMismatchError(rowMessages[0]!, { releaseId: report.badRows[0]!.releaseId });
    throw recordError(report.records[0]!);
  },
};

/** The error of one disagreement of the catalog's records, naming its release or the view. */
const recordError = (problem: CatalogRecordProblem): CatalogRecordError =>
  problem.kind === 'view_differs'
    ? new CatalogRecordError(recordMessage(problem), { object: problem.view })
    : problem.kind === 'shadowing_macro'
      ? new CatalogRecordError(recordMessage(problem), { object: problem.macro })
      : problem.kind === 'column_differs'
      ? new CatalogRecordError(recordMessage(problem), { object: `${problem.table}.${problem.column}` })
      : new CatalogRecordError(recordMessage(problem), { releaseId: problem.releaseId });

/** The sentence of one disagreement of the catalog's records. */
function recordMessage(problem: CatalogRecordProblem): string {
  switch (problem.kind) {
    case 'view_differs':
      return catalogMessages.recordViewDiffers(problem.view, problem.state);
    case 'shadowing_macro':
      return catalogMessages.recordShadowingMacro(problem.macro);
    case 'column_differs':
      return catalogMessages.recordColumnDiffers(problem.table, problem.column, problem.expected, problem.found, problem.computed === true);
    case 'orphan_rows':
      return catalogMessages.recordOrphanRows(problem.releaseId, problem.rows);
    case 'no_data_file':
      return catalogMessages.recordNoDataFile(problem.releaseId);
    case 'no_manifest_file':
      return catalogMessages.recordNoManifestFile(problem.releaseId);
    case 'record_differs':
      return catalogMessages.recordDiffers(problem.releaseId, problem.field, problem.recorded, problem.manifest);
  }
}

/** Mends the catalog's records (repairCatalogRecords), a line for each as it ends: stdout when mended, stderr when not. */
async function repairRecordsAndSay(context: CliContext, catalog: Catalog, problems: readonly CatalogRecordProblem[]): Promise<CatalogRecordRepair[]> {
  const repairs = await repairCatalogRecords(catalog, problems);
  if (!context.json) {
    for (const repair of repairs) {
      if (repair.error === undefined) context.stdout.write(`${wrapText(catalogMessages.recordRepaired(repair.problem), context.stdout.columns)}\n`);
      else context.stderr.write(`rdw: ${repair.error.message}\n`);
    }
  }
  return repairs;
}

/** Record repairs as --json shows them: the error as its code, exit code and message. */
const shownRecordRepairs = (repairs: readonly CatalogRecordRepair[]) =>
  repairs.map(({ error, ...repair }) => ({ ...repair, ...(error === undefined ? {} : { error: failureOf(error) }) }));

/** The sentence of a release whose rows differ from their fingerprint or have none. */
const rowsMessage = (check: ReleaseRowsCheck) =>
  check.problem === 'differs_from_file'
    ? catalogMessages.rowsDifferFromFile(check.releaseId, check.fromFile!, check.actual)
    : check.recorded === null
      ? catalogMessages.rowsUnrecorded(check.releaseId)
      : catalogMessages.rowsDiffer(check.releaseId, check.recorded, check.actual);

const releaseCount = (report: StoreVerification) => new Set(report.files.flatMap((file) => file.uses.map((use) => use.releaseId))).size;

function garbageLines(report: StoreVerification): string[] {
  const lines: string[] = [];
  if (report.unreferenced.length > 0) lines.push(catalogMessages.unreferencedFiles(report.unreferenced.length, report.unreferencedBytes));
  if (report.temp.length > 0) lines.push(catalogMessages.staleTemp(report.temp.length, report.temp.reduce((sum, file) => sum + file.bytes, 0)));
  return lines;
}

/** The repair of `report.bad`: one line per file as it ends, then the summary; exit 0 when the store is whole. */
async function repairAndReport(
  context: CliContext,
  catalog: Catalog,
  report: StoreVerification,
  recordRepairs: readonly CatalogRecordRepair[],
): Promise<number | ReportedFailure> {
  const say = (repair: StoreFileRepair) => {
    if (context.json) return;
    const use = repair.uses[0]!;
    if (repair.error === undefined) {
      const problem = commandMessages.fileProblem[repair.problem];
      // A sentence, not a table: on a terminal it wraps between words (pipes get it whole).
      context.stdout.write(`${wrapText(catalogMessages.repaired(repair.file, use.format, use.releaseId, problem, repair.reimported.length), context.stdout.columns)}\n`);
    } else context.stderr.write(`rdw: ${catalogMessages.repairFailed(repair.file, use.format, use.releaseId, repair.error.message)}\n`);
  };
  // The API only when a stored file must be fetched: rows are re-imported from the verified store.
  const { repairs, rowRepairs } = await repairVerifiedStore(catalog, report, { connect: async () => (await connect(context)).client, onRepair: say });
  const sayRows = (repair: ReleaseRowsRepair) => {
    if (context.json) return;
    if (repair.error === undefined) context.stdout.write(`${wrapText(catalogMessages.rowsRepaired(repair.releaseId, commandMessages.rowsProblem[repair.problem]), context.stdout.columns)}\n`);
    else context.stderr.write(`rdw: ${catalogMessages.rowsRepairFailed(repair.releaseId, repair.error.message)}\n`);
  };
  rowRepairs.forEach(sayRows);
  const failedRows = rowRepairs.filter((repair) => repair.error !== undefined);
  const failed = [...repairs, ...failedRows].filter((repair) => repair.error !== undefined);
  const first = failed[0]?.error;
  const exitCode = first === undefined ? EXIT_CODES.ok : failureOf(first).exitCode;
  if (context.json) {
    const { files, unreferenced, unreferencedBytes, temp } = report;
    const shown = repairs.map(({ error, ...repair }) => ({ ...repair, ...(error === undefined ? {} : { error: failureOf(error) }) }));
    const shownRows = rowRepairs.map(({ error, ...repair }) => ({ ...repair, ...(error === undefined ? {} : { error: failureOf(error) }) }));
    const rows = { rowsChecked: report.rows.length, badRows: report.badRows };
    const recordsShown = { records: report.records, recordRepairs: shownRecordRepairs(recordRepairs) };
    const ok = failed.length === 0 && report.records.length === 0;
    context.stdout.write(`${JSON.stringify({ ok, files, ...rows, ...recordsShown, unreferenced, unreferencedBytes, temp, repairs: shown, rowRepairs: shownRows })}\n`);
    const firstShown = [...shown, ...shownRows].find((repair) => repair.error !== undefined)?.error;
    if (firstShown === undefined) return exitCode;
    return { ...firstShown, message: `${incomplete(repairs, rowRepairs)} ${firstShown.message}` };
  }
  const out = failed.length === 0 ? context.stdout : context.stderr;
  const prefix = failed.length === 0 ? '' : 'rdw: ';
  if (failed.length === 0) {
    if (repairs.length > 0) context.stdout.write(`${wrapText(catalogMessages.repairDone(repairs.length, report.files.length, releaseCount(report)), context.stdout.columns)}\n`);
    if (rowRepairs.length > 0) context.stdout.write(`${wrapText(catalogMessages.rowsRepairDone(rowRepairs.length), context.stdout.columns)}\n`);
  } else context.stderr.write(`rdw: ${incomplete(repairs, rowRepairs)}\n`);
  for (const line of garbageLines(report)) out.write(`${prefix}${line}\n`);
  return exitCode;
}

/** The summary of a repair that left something damaged: the files', else the rows'. */
function incomplete(repairs: readonly StoreFileRepair[], rowRepairs: readonly ReleaseRowsRepair[]): string {
  const failedFiles = repairs.filter((repair) => repair.error !== undefined).length;
  if (failedFiles > 0) return catalogMessages.repairIncomplete(failedFiles, repairs.length);
  return catalogMessages.rowsRepairIncomplete(rowRepairs.filter((repair) => repair.error !== undefined).length, rowRepairs.length);
}

async function connect(context: CliContext) {
  const api = await connectApi(context);
  context.onExit(() => api.close());
  return api;
}

/** The team store's check and repair (`repairTeamStore`): a line per object replaced, then one summary line. */
async function repairTeamStoreAndSay(context: CliContext, catalog: Catalog): Promise<void> {
  const store = catalog.store.team?.href;
  if (store === undefined) return;
  const say = (line: string) => context.stderr.write(`rdw: ${line}\n`);
  const report = await repairTeamStore(catalog, {
    onRepair: (repair) => {
      const what = storeMessages.fileWhat(repair.format, repair.releaseId);
      if (repair.replaced) say(storeMessages.objectReplaced(store, what, repair.why ?? storeMessages.objectAbsent()));
    },
  });
  if (report !== undefined && !report.stopped) say(storeMessages.storeChecked(store, report.checked, report.repairs.filter((repair) => repair.replaced).length));
}
