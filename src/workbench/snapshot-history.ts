// A workbench's local history of Research snapshots: fetched through a client, recorded in and read back
// from the catalog's history (src/catalog snapshot-records). src/notebook only charts what it is handed.

import { recordSnapshot, snapshotHistory, type Catalog, type RecordSnapshotOptions, type SnapshotHistoryEntry } from '../catalog/index.js';
import { UnexpectedResponseError, type RdwClient, type ResearchSnapshot } from '../client/index.js';
import { workbenchMessages } from './messages.js';

/** The snapshot-history methods of a Workbench. */
export interface SnapshotHistoryMethods {
  /**
   * Records `snapshot` (fetched by any client) in the catalog's history: true when new, false when that
   * dataset's snapshot of the same `generated_at` is already there (first fetch wins).
   * @throws CatalogOptionError (exit 2) when the snapshot has no `key` or no numeric `generated_at`.
   */
  recordSnapshot(snapshot: ResearchSnapshot, options?: RecordSnapshotOptions): Promise<boolean>;
  /** The recorded snapshots of `datasetId`, oldest `generated_at` first (empty when none). */
  snapshotHistory(datasetId: string): Promise<SnapshotHistoryEntry[]>;
  /**
   * Fetches the current snapshot of `datasetId` (through `options.client`, default the workbench's client,
   * which serves it from its cache for `refresh_seconds`) and records it; `recorded` as recordSnapshot's.
   * @throws UnexpectedResponseError (exit 1) when the service's snapshot cannot be recorded as `datasetId`'s: no
   *   numeric `generated_at` (it orders the history), or the `key` of another dataset.
   */
  fetchSnapshot(datasetId: string, options?: { client?: RdwClient }): Promise<{ snapshot: ResearchSnapshot; recorded: boolean }>;
}

/** The snapshot-history methods over `catalog`, fetching through `client` unless told otherwise. */
export function snapshotHistoryMethods(catalog: Catalog, client: RdwClient): SnapshotHistoryMethods {
  return {
    recordSnapshot: (snapshot, options = {}) => recordSnapshot(catalog, snapshot, options),
    snapshotHistory: (datasetId) => snapshotHistory(catalog, datasetId),
    async fetchSnapshot(datasetId, options = {}) {
      const snapshot = await (options.client ?? client).research.snapshot(datasetId);
      // The service's answer, not the caller's input: its faults are the service's (exit 1), never a usage error;
      // and the history of `datasetId` holds only what was fetched for it (spec: `key` is the snapshot's dataset ID).
      const generated = snapshot?.generated_at;
      if (typeof generated !== 'number' || !Number.isFinite(generated)) {
        throw new UnexpectedResponseError(workbenchMessages.snapshotUnrecordable(datasetId, 'has no numeric generated_at'));
      }
      const key = snapshot.key;
      if (key !== undefined && key !== null && key !== datasetId) {
        throw new UnexpectedResponseError(workbenchMessages.snapshotUnrecordable(datasetId, `names another dataset, ${JSON.stringify(String(key)).slice(0, 80)}, as its key`));
      }
      return { snapshot, recorded: await recordSnapshot(catalog, { ...snapshot, key: datasetId }) };
    },
  };
}
