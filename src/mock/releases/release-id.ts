// The release ID: SHA-256 of the canonical JSON of what makes a release's content (see docs/mock-releases.md).

import type { FileDigest } from '../../contract/index.js';
import { sha256Hex } from '../../base/index.js';
import { canonicalJson } from './canonical-json.js';

/** The content files an ID is derived from; `json` and `manifest` are excluded (they carry the ID). */
export interface ReleaseIdInput {
  dataset: string;
  version: string;
  day: string;
  files: { csv: FileDigest; parquet: FileDigest; schema?: FileDigest };
}

/**
 * 64 lowercase hex: sha256 of the UTF-8 text
 * `{"dataset":…,"version":…,"day":…,"files":{"csv":{"sha256":…,"bytes":…},"parquet":{…}[,"schema":{…}]}}\n`.
 * Keys in exactly that order; `schema` only when the release bundles one.
 */
export function releaseId(input: ReleaseIdInput): string {
  const digest = (file: FileDigest): FileDigest => ({ sha256: file.sha256, bytes: file.bytes });
  const files: Record<string, FileDigest> = { csv: digest(input.files.csv), parquet: digest(input.files.parquet) };
  if (input.files.schema) files.schema = digest(input.files.schema);
  return sha256Hex(canonicalJson({ dataset: input.dataset, version: input.version, day: input.day, files }));
}
