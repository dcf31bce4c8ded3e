// `rdw research catalog | get <DATASET_ID> | csv <DATASET_ID>`: the free Research scope (any valid key).
// A snapshot's observation time, calculation version and `stale` flag are always shown, never hidden; a
// document in another shape is shown as what it is (src/cli/document-view.ts).

import { UsageError } from '../../contract/index.js';
import { connectApi } from '../api-connection.js';
import type { Command } from '../command.js';
import { writeCsvTable, writeDocument, writeResearchCatalog } from '../document-view.js';

export const researchCommand: Command = {
  name: 'research',
  summary: 'The free Research scope: the catalog, a dataset snapshot, or its CSV rows.',
  usage: 'research catalog | get <DATASET_ID> | csv <DATASET_ID>',
  options: {},
  allowPositionals: true,
  async run(context, args) {
    const [action, datasetId, ...extra] = args.positionals;
    const needsId = action === 'get' || action === 'csv';
    if (!(action === 'catalog' || needsId) || (needsId ? datasetId === undefined || extra.length > 0 : datasetId !== undefined)) {
      throw new UsageError('Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".');
    }
    const api = await connectApi(context);
    context.onExit(() => api.close());
    if (action === 'catalog') return writeResearchCatalog(context, await api.client.research.catalog());
    if (action === 'get') return writeDocument(context, datasetId!, await api.client.research.snapshot(datasetId!));
    return writeCsvTable(context, await api.client.research.csv(datasetId!));
  },
};
