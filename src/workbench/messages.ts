// Every user-facing sentence of the workbench layer.

/** How each way of naming the home folder is shown in an example. */
const HOME_EXAMPLES = { '--home': '--home ./datasets', home: "home: './datasets'", RDW_HOME: 'export RDW_HOME=$HOME/rdw-data' } as const;

export const workbenchMessages = {
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  embeddedMock: (baseUrl: string) => `rdw: RDW_BASE_URL is not set: the embedded mock at ${baseUrl} serves seeded data.`,
  emptyHome: (setting: '--home' | 'home' | 'RDW_HOME') =>
    `${setting} is empty; give the folder that holds catalog.duckdb and store/ (e.g. ${HOME_EXAMPLES[setting]}), or leave it out for ./datasets.`,
  studyReleasesFixed: () => 'Study.eventStudy runs over exactly the locked release IDs; drop the `releases` option (or write a new lock).',
};
