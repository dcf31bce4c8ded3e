// `rdw gc [--dry-run]`: removes store files no release references and store/tmp leftovers, all or nothing.

import { catalogMessages, collectGarbage, openCatalog } from '../../catalog/index.js';
import type { Command } from '../command.js';

export const gcCommand: Command = {
  name: 'gc',
  summary: 'Remove store files no release references (left by killed pulls) and store/tmp leftovers.',
  usage: 'gc [--dry-run]',
  details: [
    'Opens the catalog for writing (waits for, then refuses, a catalog another rdw process holds), lists',
    'every stored file no release references and every entry of store/tmp (partial downloads included),',
    'then removes the stored files all or none, then the store/tmp entries.',
    '--dry-run lists what would go and removes nothing.',
    '--json: { dryRun, removed, bytes, unreferenced: [{ file, sha256, bytes }],',
    '        temp: [{ file, bytes }] }.',
  ].join('\n'),
  options: { 'dry-run': { type: 'boolean', default: false } },
  allowPositionals: false,
  async run(context, args) {
    const catalog = await openCatalog(context.home);
    context.onExit(() => catalog.close());
    const dryRun = args.values['dry-run'] === true;
    const result = await collectGarbage(catalog, { dryRun });
    if (context.json) {
      context.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    const files = [...result.unreferenced, ...result.temp];
    if (dryRun) for (const file of files) context.stdout.write(`${file.file}\t${file.bytes}\n`);
    context.stdout.write(`${dryRun ? catalogMessages.gcDryRun(files.length, result.bytes) : catalogMessages.gcDone(result.removed, result.bytes)}\n`);
  },
};
