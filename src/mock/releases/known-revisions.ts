// Revisions an earlier run of the same mock code and options published, kept in a file: a day's release object
// and its check time, so the archive lists it without simulating and building the day (docs/mock-releases.md
// "Known revisions"). File bytes are never kept: a file asked for is rebuilt and checked against these digests.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PRODUCT_VERSION, type Release } from '../../contract/index.js';
import { makeFolder, replaceFile, sha256Hex } from '../../base/index.js';
import { releaseId } from './release-id.js';

/** A published revision as the archive records it: the release object and the check that published it. */
export interface KnownRevision {
  readonly release: Release;
  readonly check: number;
}

/** What the archive asks of a store of known revisions: one per (day, as-of time). */
export interface KnownRevisions {
  /** The revision current for `day` as of check time `asOf`, when a run of the same code and options published it. */
  revision(day: string, asOf: number): KnownRevision | undefined;
  /** Records the revision current for `day` as of `asOf` (kept by `save`). */
  remember(day: string, asOf: number, revision: KnownRevision): void;
}

/** The file's content: what made the revisions, and the revisions by `<day>@<asOf>`. */
interface KnownRevisionsDocument {
  made_by: string;
  revisions: Record<string, KnownRevision>;
}

/**
 * Known revisions in one JSON file, for one fingerprint (the mock's code and the simulator's options). A file made
 * by other code or options, unreadable or malformed is not used (and is replaced by `save`). Entries whose ID is not
 * their own files' digests' ID are not used either.
 */
export class KnownRevisionsFile implements KnownRevisions {
  readonly #file: string;
  readonly #madeBy: string;
  readonly #revisions = new Map<string, KnownRevision>();
  #added = 0;

  /**
   * @param file the JSON file (read now if it is there; written by `save`).
   * @param options what the revisions depend on besides the code: the simulator's resolved options.
   */
  constructor(file: string, options: unknown) {
    this.#file = file;
    const code = mockCodeFingerprint();
    this.#madeBy = code === UNKNOWN_CODE ? UNKNOWN_CODE : sha256Hex(`${code}\n${JSON.stringify(options)}`);
    // A fingerprint that cannot be taken (code not laid out as built) makes nothing known and nothing kept.
    if (this.#madeBy === UNKNOWN_CODE) return;
    for (const [key, revision] of Object.entries(readDocument(file, this.#madeBy))) {
      if (isConsistent(revision)) this.#revisions.set(key, revision);
    }
  }

  revision(day: string, asOf: number): KnownRevision | undefined {
    return this.#revisions.get(`${day}@${asOf}`);
  }

  remember(day: string, asOf: number, revision: KnownRevision): void {
    const key = `${day}@${asOf}`;
    if (this.#revisions.get(key)?.release.id === revision.release.id) return;
    this.#revisions.set(key, { release: revision.release, check: revision.check });
    this.#added += 1;
  }

  /**
   * Writes the file when revisions were added since it was read: whole (replaceFile: a reader never sees half a
   * file). A cache: a folder that cannot be written keeps nothing and says nothing.
   * @returns true when the file was written.
   */
  async save(): Promise<boolean> {
    if (this.#added === 0 || this.#madeBy === UNKNOWN_CODE) return false;
    const document: KnownRevisionsDocument = { made_by: this.#madeBy, revisions: Object.fromEntries(this.#revisions) };
    try {
      await makeFolder(path.dirname(this.#file));
      await replaceFile(this.#file, `${JSON.stringify(document)}\n`);
    } catch {
      return false;
    }
    this.#added = 0;
    return true;
  }
}

function readDocument(file: string, madeBy: string): Record<string, KnownRevision> {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  if (typeof document !== 'object' || document === null) return {};
  const { made_by, revisions } = document as Partial<KnownRevisionsDocument>;
  return made_by === madeBy && typeof revisions === 'object' && revisions !== null ? revisions : {};
}

/** An entry is used only when its ID is the ID of the digests it lists (a damaged or edited entry is not). */
function isConsistent(revision: KnownRevision): boolean {
  const release = revision?.release;
  if (typeof revision?.check !== 'number' || typeof release?.id !== 'string' || typeof release.files !== 'object') return false;
  const { csv, parquet, schema } = release.files;
  if (csv === undefined || parquet === undefined) return false;
  return releaseId({ dataset: release.dataset, version: release.version, day: release.day, files: { csv, parquet, ...(schema ? { schema } : {}) } }) === release.id;
}

let fingerprint: string | undefined;
/** What mockCodeFingerprint gives when it cannot read the code: never matched, never kept. */
const UNKNOWN_CODE = 'unknown';
/**
 * SHA-256 over the source of the code a release's bytes come from (this package's mock, contract and base modules,
 * as they run: dist/ or src/), the product version and the Parquet writer's version: other code, other revisions.
 */
export function mockCodeFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  try {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const parts: string[] = [PRODUCT_VERSION, parquetWriterVersion()];
    for (const folder of ['mock', 'contract', 'base']) {
      const files = (readdirSync(path.join(root, folder), { recursive: true }) as string[])
        .filter((name) => /\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'))
        .sort();
      for (const name of files) parts.push(`${folder}/${name}`, sha256Hex(readFileSync(path.join(root, folder, name))));
    }
    fingerprint = sha256Hex(parts.join('\n'));
  } catch {
    fingerprint = UNKNOWN_CODE;
  }
  return fingerprint;
}

function parquetWriterVersion(): string {
  const main = createRequire(import.meta.url).resolve('parquet-wasm');
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version);
}
