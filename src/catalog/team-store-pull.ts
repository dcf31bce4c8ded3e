// One release's use of the team store during a pull (issue 32): its manifest, bundled schema and data file
// read from the store when they are there and verified exactly as a download (the manifest against the
// release listing, each file against the manifest's SHA-256 and size); what came from the API is published
// once the release passed every check. What the store holds is never trusted: a refused object is said once
// (a notice), fetched from the API, and repaired by the publish that follows.

import { manifestFromBytes, type BundledSchemaResult, type ManifestResult, type RdwClient } from '../client/index.js';
import type { FileDigest, ListedRelease, Release, SchemaDocument } from '../contract/index.js';
import { parseJsonText, sha256Hex } from '../base/index.js';
import { storeMessages, TeamStore } from '../store/index.js';
import type { Catalog } from './catalog.js';
import { checkManifest } from './check-release-schema.js';
import { listingContradictions } from './check-manifest-statements.js';
import { recordedListing } from './record-listings.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `listed` (a `/releases` item) vouches for every statement of `release` that a pull relies on: its
 * day, version and each file's sha256 and bytes, and every other plain field both state (rows, generated_at …).
 * `refused` names a contradiction of day, version or a file; not vouched without it, the listing leaves it in doubt.
 */
export function listingVouches(release: Release, listed: ListedRelease | undefined): { vouched: true } | { vouched: false; refused?: string } {
  if (listed === undefined || !isObject(listed.files)) return { vouched: false };
  const [contradiction] = listingContradictions(release, listed);
  if (contradiction !== undefined) return { vouched: false, refused: contradiction.detail };
  const listedFiles = listed.files as Record<string, unknown>;
  for (const format of Object.keys(release.files)) {
    const digest = listedFiles[format];
    if (!isObject(digest) || typeof digest.sha256 !== 'string' || typeof digest.bytes !== 'number') return { vouched: false };
  }
  // Any other plain field both state must be equal; one that is not leaves it in doubt (not a refusal: the
  // listing may state it in another form), and the API's manifest decides.
  for (const [field, value] of Object.entries(release as unknown as Record<string, unknown>)) {
    const stated = (listed as Record<string, unknown>)[field];
    if (field === 'files' || stated === undefined || stated === null || isObject(value) || Array.isArray(value)) continue;
    if (stated !== value) return { vouched: false };
  }
  return { vouched: true };
}

/**
 * Starts fetching release `id`'s manifest ahead of its pull: from the team store when one is in use and the
 * client's listing states the release's files (then, when the store has none, from the API), else from the API.
 * Never throws; the pull reads what was fetched (the client and the team store keep it).
 */
export function prefetchManifest(catalog: Catalog, client: RdwClient, id: string): void {
  const team = catalog.store.team;
  const listed = client.listedRelease(id);
  if (team === undefined || !team.available || listed === undefined || !isObject(listed.files)) {
    // Without a listing that states the files, the pull takes the API's manifest (and not the store's).
    client.manifest(id).catch(() => undefined);
    return;
  }
  team
    .prefetchManifest(id)
    .then((bytes) => (bytes === undefined ? client.manifest(id) : undefined))
    .catch(() => undefined);
}

/**
 * Release `id`'s manifest when a study lock pins its SHA-256: the team store's when its bytes hash to the pin
 * (the pin vouches for them as a listing would), else the API's (the caller compares it with the pin). A stored
 * manifest whose bytes differ from the API's is refused (said; repaired by the pull's publish).
 */
export async function pinnedManifest(catalog: Catalog, client: RdwClient, id: string, sha256: string): Promise<ManifestResult> {
  const team = catalog.store.team;
  if (team === undefined || !team.available) return client.manifest(id);
  const bytes = await team.fetchManifest(id);
  if (bytes !== undefined && sha256Hex(bytes) === sha256) {
    try {
      const read = manifestFromBytes(id, bytes);
      team.manifestVerified(id);
      return read;
    } catch {
      // the API's bytes are the same: the pull says what is wrong with them
    }
  }
  const served = await client.manifest(id);
  if (bytes !== undefined && served.sha256 !== sha256Hex(bytes)) team.refuseManifest(id, storeMessages.manifestDiffers(sha256Hex(bytes), served.sha256));
  return served;
}

/** The team store's part in one release's pull; `TeamStorePull.of` gives none without a usable team store. */
export class TeamStorePull {
  readonly #catalog: Catalog;
  readonly #client: RdwClient;
  readonly #id: string;
  readonly #team: TeamStore;
  /** The manifest came from the team store (verified against the listing). */
  #manifestFromStore = false;

  private constructor(catalog: Catalog, client: RdwClient, id: string, team: TeamStore) {
    this.#catalog = catalog;
    this.#client = client;
    this.#id = id;
    this.#team = team;
  }

  /** The team store's part in the pull of `id`, or undefined when the catalog's store has no team store in use. */
  static of(catalog: Catalog, client: RdwClient, id: string): TeamStorePull | undefined {
    const team = catalog.store.team;
    return team === undefined || !team.available ? undefined : new TeamStorePull(catalog, client, id, team);
  }

  /**
   * Step 3: the manifest from the store when the release listing (this client's, else the catalog's recorded
   * one) vouches for it; else the API's. A stored manifest the listing contradicts (day, version, a file), that
   * is not a manifest of this release, or whose bytes differ from the API's is refused (said; repaired by the
   * publish). No listing that states the files: the API's, and the store's is not read.
   */
  async manifest(): Promise<ManifestResult> {
    const listed = this.#client.listedRelease(this.#id) ?? (await recordedListing(this.#catalog, this.#id));
    if (listed === undefined || !isObject(listed.files)) return this.#client.manifest(this.#id);
    const bytes = await this.#team.fetchManifest(this.#id);
    if (bytes === undefined) return this.#client.manifest(this.#id);
    let problem: string | undefined;
    try {
      const read = manifestFromBytes(this.#id, bytes);
      checkManifest(this.#id, read.release);
      const check = listingVouches(read.release, listed);
      if (check.vouched) {
        this.#manifestFromStore = true;
        this.#team.manifestVerified(this.#id);
        return read;
      }
      if (check.refused !== undefined) problem = storeMessages.manifestNotVouched(check.refused);
    } catch (error) {
      problem = storeMessages.manifestUnreadable(error instanceof Error ? error.message : String(error));
    }
    // In doubt (the listing states a field otherwise, in a form rdw cannot compare): the API's bytes decide.
    const served = await this.#client.manifest(this.#id);
    if (problem === undefined && served.sha256 !== sha256Hex(bytes)) problem = storeMessages.manifestDiffers(sha256Hex(bytes), served.sha256);
    if (problem !== undefined) this.#team.refuseManifest(this.#id, problem);
    return served;
  }

  /** Step 4: the bundled schema from the store (verified against the manifest's digest), or undefined. */
  async bundledSchema(expected: FileDigest): Promise<BundledSchemaResult | undefined> {
    const bytes = await this.#team.fetchBytes(expected, storeMessages.fileWhat('schema', this.#id));
    if (bytes === undefined) {
      this.#missingFrom('schema', expected);
      return undefined;
    }
    try {
      return { document: parseJsonText<SchemaDocument>(bytes), bytes, sha256: expected.sha256 };
    } catch {
      // The API's file has these very bytes: the pull's own check says what is wrong with them.
      return undefined;
    }
  }

  /** Step 5: the data file from the store into `temp`, verified against the manifest's digest; false when not had. */
  async dataFile(format: string, expected: FileDigest, temp: string): Promise<boolean> {
    if ((await this.#team.fetchFile(expected, temp, storeMessages.fileWhat(format, this.#id))) === 'verified') return true;
    this.#missingFrom(format, expected);
    return false;
  }

  /**
   * After the release passed every check: publishes what the store lacks (conditional writes; an object the
   * store held refused is overwritten). A failed publish is a notice (the store is then out of use), never a
   * failure of the pull.
   */
  async publish(manifest: ManifestResult, schemaBytes: Uint8Array | undefined, data: { path: string; digest: FileDigest }): Promise<void> {
    const team = this.#team;
    await Promise.all([
      this.#manifestFromStore ? undefined : team.publishManifest(this.#id, manifest.bytes),
      schemaBytes === undefined ? undefined : team.publishBytes(schemaBytes),
      team.holds(data.digest.sha256) ? undefined : team.publishFile(data.path, data.digest),
    ]);
  }

  /** A file of a release whose manifest the store holds, yet missing from it: refused (said), repaired later. */
  #missingFrom(format: string, expected: FileDigest): void {
    if (!this.#manifestFromStore || !this.#team.available || this.#team.holds(expected.sha256)) return;
    if (this.#team.isRefused(expected.sha256)) return;
    this.#team.refuse(TeamStore.fileKey(expected.sha256), storeMessages.fileWhat(format, this.#id), storeMessages.objectMissing());
  }
}
