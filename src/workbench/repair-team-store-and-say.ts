// `rdw verify --repair` with RDW_STORE_URL: the team store's check and repair (catalog's repairTeamStore), said
// as one sentence per object replaced and one summary, for a command that prints them.

import { repairTeamStore, type Catalog, type TeamStoreRepair } from '../catalog/index.js';
import { storeMessages } from '../store/index.js';

/** Checks and repairs the team store in use by `catalog` (undefined when none is), telling `say` each sentence. */
export async function repairTeamStoreAndSay(catalog: Catalog, say: (sentence: string) => void): Promise<TeamStoreRepair | undefined> {
  const store = catalog.store.team?.href;
  if (store === undefined) return undefined;
  const report = await repairTeamStore(catalog, {
    onRepair: (repair) => {
      const what = storeMessages.fileWhat(repair.format, repair.releaseId);
      if (repair.replaced) say(storeMessages.objectReplaced(store, what, repair.why ?? storeMessages.objectAbsent()));
    },
  });
  if (report !== undefined && !report.stopped) say(storeMessages.storeChecked(store, report.checked, report.repairs.filter((repair) => repair.replaced).length));
  return report;
}
