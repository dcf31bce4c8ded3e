// Every user-facing sentence of the mock server: HTTP error messages and option errors.

export const messages = {
  // option and admin errors (thrown in-process)
  option: (name: string, value: unknown, expected: string) =>
    `Mock server option "${name}" is ${JSON.stringify(value) ?? String(value)}; expected ${expected}.`,
  limitsFile: (detail: string) => `The limits overrides are not valid: ${detail}.`,
  faultRule: (index: number, detail: string) => `Fault rule ${index} is not valid: ${detail}.`,
  unknownAccount: (accountId: string) => `No mock account has the ID "${accountId}". Create one with admin.createAccount(plan).`,
  keySlotsFull: (accountId: string, slots: number) =>
    `Account ${accountId} already uses all ${slots} key slot(s) of its plan; revoke a key or change the plan first.`,

  // HTTP error bodies (spec: "Errors")
  missingKey: () => 'No API key: send the header "Authorization: Bearer <API_KEY>".',
  malformedAuthorization: () =>
    'The Authorization header must be exactly "Bearer <API_KEY>", without quotation marks or extra spaces.',
  wrongKey: () => 'The API key is not valid. Check the key, or create a new one in your key page.',
  revokedKey: () => 'The API key was revoked. Create a new key in your key page.',
  auditKey: () => 'Internal audit keys are not accepted by the API.',
  keyInQuery: (parameter: string) =>
    `An API key was sent in the query string ("${parameter}"); keys belong only in the Authorization header. Revoke that key: URLs get logged.`,
  planRequired: () => 'Paid Market Events need an active Researcher or Research Desk data plan.',
  keyOverAllowance: (slots: number) =>
    `This key is over the ${slots}-key allowance of the account's plan after a downgrade; use the account's first key or upgrade.`,
  notFound: (path: string) => `Nothing is served at ${path}. See the endpoint list of the API specification.`,
  unknownRelease: (id: string) => `Release ${id} is not published. List releases with /releases.`,
  malformedReleaseId: () => 'A release ID is 64 lowercase hexadecimal characters.',
  unknownFormat: (format: string) => `"${format}" is not a download format; use csv, parquet, json, manifest or schema.`,
  noBundledSchema: (id: string) =>
    `Release ${id} predates its bundled schema; there is no schema file for it. Use /schema for the current product.`,
  unknownDataset: (id: string) => `No Research dataset has the ID "${id}". See /research/catalog.`,
  unknownPage: (key: string) => `No live research page has the key "${key}".`,
  methodNotAllowed: (method: string) => `${method} is not allowed; every endpoint uses GET.`,
  queryTooLarge: (total: number, max: number, id: string) =>
    `The row query matches ${total} rows, more than the row endpoint serves (${max}); download the full partition instead: /download/${id}/parquet.`,
  invalidParameter: (parameter: string, expected: string) => `Invalid parameter "${parameter}": expected ${expected}.`,
  unknownParameter: (parameter: string) => `Unknown query parameter "${parameter}"; this endpoint does not accept it.`,
  repeatedParameter: (parameter: string) => `Query parameter "${parameter}" was given more than once.`,
  rateLimited: (rpm: number, seconds: number) =>
    `Request limit of ${rpm} per minute reached; wait ${seconds} s (Retry-After) before the next request.`,
  publicRateLimited: (rpm: number, seconds: number) =>
    `Public live limit of ${rpm} requests per minute per IP reached; wait ${seconds} s (Retry-After).`,
  dailyByteLimit: (needed: number, remaining: number, nextDay: string) =>
    `Daily file-byte allowance reached: this file needs ${needed} bytes, ${remaining} remain today. It clears at ${nextDay} 00:00 UTC or on a plan change; do not retry before.`,
  rangeNotSatisfiable: (size: number) => `The requested range is outside the file (${size} bytes).`,
  unavailable: () => 'The service is temporarily unavailable; retry later with backoff.',
  unavailableRows: () => 'The row endpoint is temporarily unavailable; retry later, or download the full partition.',
  internalFailure: () => 'The mock failed to answer this request; this is a bug in the mock.',
};
