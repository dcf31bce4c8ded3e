// The event-vs-control study of notebook 02 as a plain script: reads the same lock, reproduces it (pulling
// missing releases by exact ID, verifying every checksum) and prints the same numbers. No Jupyter needed.
// Run: `npx tsx notebooks/02-event-study.ts` (after `npm run build`: it imports the built library, as the
// notebook does). Offline by default (embedded mock); RDW_BASE_URL + RDW_API_KEY select a real service.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RdwError, Study, notebook } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** RDW_HOME, else the repository's `datasets/` folder (the notebook's default too). */
const home = process.env.RDW_HOME || path.join(here, '..', 'datasets');
/** The embedded mock needs to cover only the locked days (the newest 10 of its default clock): 15 days is fast. */
const STUDY_MOCK = { days: 15 };
/** The study's settings, shared with notebook 02. */
const STUDY_OPTIONS = { windows: ['1h', '4h', '24h'] as const, by: ['event_kind', 'direction'] as const };

// Study.open verifies the lock (catalog records and stored bytes) before any number is computed; an
// rdw failure ends the script like the CLI: one sentence on stderr and its exit code (3: differs from the lock).
const study = await Study.open(path.join(here, '02-event-study.lock.json'), { env: process.env, home, mock: STUDY_MOCK }).catch((error: unknown) => {
  if (!(error instanceof RdwError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(error.exitCode);
});
try {
  const result = await study.eventStudy({ windows: [...STUDY_OPTIONS.windows], by: [...STUDY_OPTIONS.by] });
  console.log(notebook.studyHeaderText(study.lock));
  console.log(notebook.studyTableText(result));
} finally {
  await study.close();
}
