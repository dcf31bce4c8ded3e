// `rdw verify`: re-hashes every stored file against release_files; exit 3 naming each bad file. Also
// reports store files no release references and store/tmp leftovers (exit code unchanged: rdw gc removes them).

import { catalogMessages, openCatalog, StoreMismatchError, verifyStore } from '../../catalog/index.js';
import { EXIT_CODES } from '../../contract/index.js';
import type { Command } from '../command.js';

const PROBLEM = { missing: 'is missing', size: 'has the wrong size', sha256: 'no longer matches its sha256' } as const;

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Re-hash every stored file against its manifest checksum; report files no release references.',
  usage: 'verify',
  details: [
    'Exit 3 when a stored file a release references is missing or differs (named on stderr).',
    'Store files no release references and leftovers in store/tmp are reported (one line each kind,',
    '"unreferenced"/"temp" in --json) but do not change the exit code: remove them with rdw gc.',
  ].join('\n'),
  options: {},
  allowPositionals: false,
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
    const messages = report.bad.map((bad) => catalogMessages.verifyBad(bad.file, bad.uses[0]!.releaseId, PROBLEM[bad.problem!]));
    for (const message of messages.slice(1)) context.stderr.write(`rdw: ${message}\n`);
    throw new StoreMismatchError(messages[0]!, { file: report.bad[0]!.file });
  },
};
