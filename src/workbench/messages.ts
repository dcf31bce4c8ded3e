// Every user-facing sentence of the workbench layer.

export const workbenchMessages = {
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  embeddedMock: (baseUrl: string) => `rdw: RDW_BASE_URL is not set: the embedded mock at ${baseUrl} serves seeded data.`,
  studyReleasesFixed: () => 'Study.eventStudy runs over exactly the locked release IDs; drop the `releases` option (or write a new lock).',
};
