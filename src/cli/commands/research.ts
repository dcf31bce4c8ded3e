// `rdw research catalog | get <DATASET_ID> | csv <DATASET_ID>`: the free Research scope (any valid key).
// A snapshot's observation time, calculation version and `stale` flag are always shown, never hidden; a
// document in another shape is shown as what it is (src/cli/document-view.ts).

import { connectApi } from '../api-connection.js';
import { CliUsageError } from '../cli-errors.js';
import { closestName } from '../closest-name.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages } from '../messages.js';
import { writeCsvTable, writeDocument, writeResearchCatalog } from '../document-view.js';

/** The actions of `rdw research`, in the order its usage names them. */
const RESEARCH_ACTIONS = ['catalog', 'get', 'csv'] as const;

export const researchCommand: Command = {
  name: 'research',
  line: COMMAND_LINES.research,
  async run(context, args) {
    const [action, datasetId, ...extra] = args.positionals;
    const needsId = action === 'get' || action === 'csv';
    // A typo names the action it is near; a get or csv without its dataset says so (both had said the usage alone).
    if (action !== undefined && action !== 'catalog' && !needsId) {
      throw new CliUsageError(commandMessages.unknownResearchAction(action, closestName(action, RESEARCH_ACTIONS)));
    }
    if (needsId && datasetId === undefined) throw new CliUsageError(commandMessages.researchNeedsDataset(action));
    if (action === undefined || (needsId ? extra.length > 0 : datasetId !== undefined)) {
      throw new CliUsageError(commandMessages.researchUsage());
    }
    // The free scope keeps nothing locally: run from any folder, it makes no ./datasets (pacing then stays in memory).
    const api = await connectApi(context, { homeIfPresent: true });
    context.onExit(() => api.close());
    if (action === 'catalog') return writeResearchCatalog(context, await api.client.research.catalog());
    if (action === 'get') return writeDocument(context, datasetId!, await api.client.research.snapshot(datasetId!));
    return writeCsvTable(context, await api.client.research.csv(datasetId!));
  },
};
