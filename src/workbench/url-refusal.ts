// The client's refusal of a key (or any credential) in a base or site URL, as the light commands reach it: this
// file imports only the client's refusal (its sentences and errors), so `rdw openapi`, which writes the URLs
// into its document, refuses the same URLs without loading the transport, DuckDB or the rest of the workbench.

export { refuseSecretsInUrls } from '../client/refuse-secrets-in-urls.js';
