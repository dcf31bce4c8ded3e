// Every user-facing sentence of the catalog layer: what failed, on which thing, and what to do.

const short = (id: string) => `${id.slice(0, 12)}…`;

export const catalogMessages = {
  badReleaseId: (value: string) =>
    `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}" is not a release ID (64 lowercase hex characters); name releases exactly by ID, or use --latest N.`,
  badOption: (name: string, expected: string) => `The catalog option ${name} must be ${expected}.`,
  busy: (home: string, seconds: number) =>
    `The catalog in ${home} is in use by another rdw process (waited ${seconds} s); run again when it has finished.`,
  notImportedManifestMismatch: (id: string, detail: string) =>
    `The manifest of release ${short(id)} is not usable: ${detail}. Nothing was imported.`,
  schemaVersionMismatch: (id: string, found: string, expected: string) =>
    `Release ${short(id)} is product version "${found}", but this rdw reads "${expected}". Nothing was imported; upgrade rdw to read it.`,
  schemaColumnsMismatch: (id: string, source: string, detail: string) =>
    `The ${source} of release ${short(id)} does not match the Market Events fields of this rdw (${detail}). Nothing was imported.`,
  schemaChecksumMismatch: (id: string, actual: string, expected: string) =>
    `The bundled schema of release ${short(id)} has sha256 ${actual.slice(0, 12)}…, the manifest says ${expected.slice(0, 12)}…. Nothing was imported.`,
  rowCountMismatch: (id: string, actual: number, expected: number) =>
    `Release ${short(id)} holds ${actual} rows, but its manifest says ${expected}. Nothing was imported.`,
  batchRowCountMismatch: (releases: number, actual: number, expected: number) =>
    `A batch of ${releases} releases holds ${actual} rows, but their manifests say ${expected}; each is imported on its own to find which.`,
  noDataFile: (id: string) => `Release ${short(id)} offers neither a parquet nor a csv file; nothing was imported.`,
  storeFileMismatch: (file: string, releaseId: string, detail: string) =>
    `Stored file ${file} (release ${short(releaseId)}) ${detail}; run "rdw pull ${releaseId}" after removing it, or restore it from a backup.`,
  exportTarget: (dir: string) => `The export folder ${dir} exists and is not empty; choose an empty or new folder.`,
  newerCatalog: (found: number, known: number) =>
    `The catalog has schema version ${found}, newer than this rdw knows (${known}); upgrade rdw to open it.`,
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  embeddedMock: (baseUrl: string) => `rdw: no RDW_BASE_URL set; using the embedded mock API at ${baseUrl} (offline, seeded data).`,
  pullNeedsIds: () => 'Name release IDs to pull, or use --latest N (not both).',
  badCount: (flag: string, min: number, max: number) => `--${flag} must be an integer from ${min} to ${max}.`,
  sqlNeedsQuery: () => 'Give exactly one SQL query in quotes, e.g. rdw sql "SELECT count(*) FROM market_events".',
  sqlFailed: (detail: string) => `The query failed: ${detail.split('\n')[0]}`,
  exportNeedsDir: () => 'Give the folder to export to, e.g. rdw export ./export.',
  pullFailed: (failed: number, total: number) => `${failed} of ${total} releases could not be pulled; the others are complete.`,
  verifyBad: (file: string, releaseId: string, problem: string) =>
    `Stored file ${file} of release ${releaseId.slice(0, 12)}… ${problem}; remove it and pull the release again.`,
  verifyOk: (files: number, releases: number) => `All ${files} stored files of ${releases} releases match their checksums.`,
  noReleases: () => 'The catalog holds no releases yet; pull some with "rdw pull --latest N".',
  exported: (rows: number, partitions: number, dir: string) => `Exported ${rows} rows in ${partitions} day partitions to ${dir}.`,
  noRows: () => 'The catalog holds no Market Events rows; pull releases first with "rdw pull --latest N".',
};
