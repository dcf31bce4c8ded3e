// `rdw verify`: re-hashes every stored file against release_files; exit 3 naming each bad file.

import { catalogMessages, openCatalog, StoreMismatchError, verifyStore } from '../../catalog/index.js';
import { EXIT_CODES } from '../../spec/index.js';
import type { Command } from '../command.js';

const PROBLEM = { missing: 'is missing', size: 'has the wrong size', sha256: 'no longer matches its sha256' } as const;

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Re-hash every stored file against its manifest checksum.',
  usage: 'verify',
  options: {},
  allowPositionals: false,
  async run(context) {
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    const report = await verifyStore(catalog);
    const releases = new Set(report.files.flatMap((file) => file.uses.map((use) => use.releaseId))).size;
    if (context.json) {
      context.stdout.write(`${JSON.stringify({ ok: report.bad.length === 0, files: report.files, unreferenced: report.unreferenced })}\n`);
      return report.bad.length === 0 ? EXIT_CODES.ok : EXIT_CODES.integrity;
    }
    if (report.bad.length === 0) {
      context.stdout.write(`${catalogMessages.verifyOk(report.files.length, releases)}\n`);
      return EXIT_CODES.ok;
    }
    const messages = report.bad.map((bad) => catalogMessages.verifyBad(bad.file, bad.uses[0]!.releaseId, PROBLEM[bad.problem!]));
    for (const message of messages.slice(1)) context.stderr.write(`rdw: ${message}\n`);
    throw new StoreMismatchError(messages[0]!, { file: report.bad[0]!.file });
  },
};
