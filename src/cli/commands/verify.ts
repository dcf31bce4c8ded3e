// `rdw verify [--repair]`: re-hashes every stored file against release_files; exit 3 naming each bad file.
// Also reports store files no release references and store/tmp leftovers (exit code unchanged: rdw gc removes
// them). --repair fetches each bad file again by release ID, verified, and re-imports its releases' rows.

import {
  catalogMessages,
  repairStoredFiles,
  StoreMismatchError,
  verifyStore,
  type Catalog,
  type StoreFileRepair,
  type StoreVerification,
} from '../../catalog/index.js';
import { EXIT_CODES, isRdwError } from '../../contract/index.js';
import { connectApi } from '../api-connection.js';
import type { CliContext } from '../cli-context.js';
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
    const report = await verifyStore(catalog);
    if (repair && report.bad.length > 0) return repairAndReport(context, catalog, report);
    const releases = releaseCount(report);
    if (context.json) {
      const { unreferenced, unreferencedBytes, temp } = report;
      const repairs = repair ? { repairs: [] } : {};
      context.stdout.write(`${JSON.stringify({ ok: report.bad.length === 0, files: report.files, unreferenced, unreferencedBytes, temp, ...repairs })}\n`);
      // A bad file: said as the one error object on stderr too (exit 3), by the throw below.
      if (report.bad.length === 0) return EXIT_CODES.ok;
    }
    const garbage = garbageLines(report);
    if (report.bad.length === 0) {
      context.stdout.write(`${catalogMessages.verifyOk(report.files.length, releases)}\n`);
      for (const line of garbage) context.stdout.write(`${line}\n`);
      return EXIT_CODES.ok;
    }
    for (const line of garbage) context.stderr.write(`rdw: ${line}\n`);
    const messages = report.bad.map((bad) => catalogMessages.verifyBad(bad.file, bad.uses[0]!.releaseId, commandMessages.fileProblem[bad.problem!]));
    for (const message of messages.slice(1)) context.stderr.write(`rdw: ${message}\n`);
    throw new StoreMismatchError(messages[0]!, { file: report.bad[0]!.file });
  },
};

const releaseCount = (report: StoreVerification) => new Set(report.files.flatMap((file) => file.uses.map((use) => use.releaseId))).size;

function garbageLines(report: StoreVerification): string[] {
  const lines: string[] = [];
  if (report.unreferenced.length > 0) lines.push(catalogMessages.unreferencedFiles(report.unreferenced.length, report.unreferencedBytes));
  if (report.temp.length > 0) lines.push(catalogMessages.staleTemp(report.temp.length, report.temp.reduce((sum, file) => sum + file.bytes, 0)));
  return lines;
}

/** The repair of `report.bad`: one line per file as it ends, then the summary; exit 0 when the store is whole. */
async function repairAndReport(context: CliContext, catalog: Catalog, report: StoreVerification): Promise<number | ReportedFailure> {
  const api = await connectApi(context);
  context.onExit(() => api.close());
  const say = (repair: StoreFileRepair) => {
    if (context.json) return;
    const use = repair.uses[0]!;
    if (repair.error === undefined) {
      const problem = commandMessages.fileProblem[repair.problem];
      // A sentence, not a table: on a terminal it wraps between words (pipes get it whole).
      context.stdout.write(`${wrapText(catalogMessages.repaired(repair.file, use.format, use.releaseId, problem, repair.reimported.length), context.stdout.columns)}\n`);
    } else context.stderr.write(`rdw: ${catalogMessages.repairFailed(repair.file, use.format, use.releaseId, repair.error.message)}\n`);
  };
  const repairs = await repairStoredFiles(catalog, api.client, report.bad, { onRepair: say });
  const failed = repairs.filter((repair) => repair.error !== undefined);
  const first = failed[0]?.error;
  const exitCode = first === undefined ? EXIT_CODES.ok : isRdwError(first) ? first.exitCode : EXIT_CODES.failure;
  if (context.json) {
    const { files, unreferenced, unreferencedBytes, temp } = report;
    const shown = repairs.map(({ error, ...repair }) => ({
      ...repair,
      ...(error === undefined ? {} : { error: { code: isRdwError(error) ? error.code : 'RDW_ERROR', exitCode: isRdwError(error) ? error.exitCode : EXIT_CODES.failure, message: error.message } }),
    }));
    context.stdout.write(`${JSON.stringify({ ok: failed.length === 0, files, unreferenced, unreferencedBytes, temp, repairs: shown })}\n`);
    const firstShown = shown.find((repair) => repair.error !== undefined)?.error;
    if (firstShown === undefined) return exitCode;
    return { ...firstShown, message: `${catalogMessages.repairIncomplete(failed.length, repairs.length)} ${firstShown.message}` };
  }
  const out = failed.length === 0 ? context.stdout : context.stderr;
  const prefix = failed.length === 0 ? '' : 'rdw: ';
  if (failed.length === 0) context.stdout.write(`${wrapText(catalogMessages.repairDone(repairs.length, report.files.length, releaseCount(report)), context.stdout.columns)}\n`);
  else context.stderr.write(`rdw: ${catalogMessages.repairIncomplete(failed.length, repairs.length)}\n`);
  for (const line of garbageLines(report)) out.write(`${prefix}${line}\n`);
  return exitCode;
}
