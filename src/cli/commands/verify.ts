// `rdw verify`: re-hashes every stored file against release_files; exit 3 naming each bad file. Also
// reports store files no release references and store/tmp leftovers (exit code unchanged: rdw gc removes them).

import { catalogMessages, openCatalog, StoreMismatchError, verifyStore } from '../../catalog/index.js';
import { EXIT_CODES } from '../../contract/index.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages, helpMessages } from '../messages.js';

export const verifyCommand: Command = {
  name: 'verify',
  line: COMMAND_LINES.verify,
  details: helpMessages.verifyDetails(),
  async run(context) {
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    const report = await verifyStore(catalog);
    const releases = new Set(report.files.flatMap((file) => file.uses.map((use) => use.releaseId))).size;
    if (context.json) {
      const { unreferenced, unreferencedBytes, temp } = report;
      context.stdout.write(`${JSON.stringify({ ok: report.bad.length === 0, files: report.files, unreferenced, unreferencedBytes, temp })}\n`);
      return report.bad.length === 0 ? EXIT_CODES.ok : EXIT_CODES.integrity;
    }
    const garbage: string[] = [];
    if (report.unreferenced.length > 0) garbage.push(catalogMessages.unreferencedFiles(report.unreferenced.length, report.unreferencedBytes));
    if (report.temp.length > 0) garbage.push(catalogMessages.staleTemp(report.temp.length, report.temp.reduce((sum, file) => sum + file.bytes, 0)));
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
