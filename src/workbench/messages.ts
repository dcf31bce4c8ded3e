// Every user-facing sentence of the workbench layer.

/** How each way of naming the home folder is shown in an example. */
const HOME_EXAMPLES = { '--home': '--home ./datasets', home: "home: './datasets'", RDW_HOME: 'export RDW_HOME=$HOME/rdw-data' } as const;

export const workbenchMessages = {
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  badNetworkSetting: (name: string, min: number, max: number) =>
    `${name} must be a number from ${min} to ${max} (${name === 'RDW_REQUEST_DEADLINE' ? 'the seconds one request may take in all' : 'the MiB of one response rdw reads into memory'}); unset it for the default.`,
  embeddedMock: (baseUrl: string) => `rdw: RDW_BASE_URL is not set: the embedded mock at ${baseUrl} serves seeded data.`,
  emptyHome: (setting: '--home' | 'home' | 'RDW_HOME') =>
    `${setting} is empty; give the folder that holds catalog.duckdb and store/ (e.g. ${HOME_EXAMPLES[setting]}), or leave it out for ./datasets.`,
  syncBusy: (file: string, pid: number, host: string, startedAt: string, otherHost: boolean) =>
    otherHost
      ? `Another rdw sync holds this home: PID ${pid} on host ${host}${startedAt === '' ? '' : ` since ${startedAt}`} (${file}); wait for it, or remove ${file} once that sync is surely gone.`
      : `Another rdw sync is running on this home (PID ${pid}${startedAt === '' ? '' : `, since ${startedAt}`}); this one stops. Wait for it to finish, or stop PID ${pid} first.`,
  syncLockTakenOver: (pid: number, startedAt: string) =>
    pid === 0
      ? 'rdw: took over an unreadable sync.lock left by a killed sync.'
      : `rdw: took over the sync lock of PID ${pid}${startedAt === '' ? '' : ` (started ${startedAt})`}, which is no longer running.`,
  snapshotNotDue: (refreshSeconds: number, nextAt: string) => `not due: its refresh interval is ${refreshSeconds} s, next fetch at ${nextAt}`,
  badSnapshotDataset: (dataset: string) =>
    `${JSON.stringify(dataset)} is not a dataset ID; name free-scope datasets as "rdw research catalog" lists them (e.g. market-breadth).`,
  studyReleasesFixed: () => 'Study.eventStudy runs over exactly the locked release IDs; drop the `releases` option (or write a new lock).',
};
