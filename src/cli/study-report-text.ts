// The event study as the CLI prints it (`rdw study event`, `rdw demo`): what the numbers mean, then the
// one study table of src/notebook.

import type { EventStudyResult } from '../analysis/index.js';
import { studyTableText } from '../notebook/index.js';
import { studyTextMessages as m } from './messages.js';

/** The study's headline, notes on returns and the bootstrap, and its table; ends with a blank line. */
export function studyReportText(result: EventStudyResult): string {
  const { metadata } = result;
  const { bootstrap } = metadata;
  return [
    m.headline(metadata.releaseIds.length, metadata.selection === 'current', metadata.rows, metadata.calculationVersions),
    ...(metadata.calculationVersionMix.length > 1 ? [pooledVersionsText(result)] : []),
    m.returns(),
    m.controls(bootstrap.confidence * 100, bootstrap.method === 'row', bootstrap.samples, bootstrap.seed),
    '',
    studyTableText(result),
    '',
  ].join('\n');
}

/** The one line saying which calculation versions a study pooled (only after --allow-mixed-versions). */
export function pooledVersionsText(result: EventStudyResult): string {
  return m.pooledVersions(result.metadata.calculationVersionMix);
}
