// The spec says only "hex digest" for a file's sha256, and case carries no meaning in one: every release object
// rdw reads (a manifest, a `/releases` item) has its hex digests in lower case, so a server that writes upper-case
// hex is compared, recorded and stored the same as one that writes lower case.

const HEX_64 = /^[0-9A-Fa-f]{64}$/;

/** `release` (a copy) with each `files.<format>.sha256` that is 64 hex characters in lower case; anything else as given. */
export function withLowerCaseDigests<T>(release: T): T {
  if (typeof release !== 'object' || release === null || Array.isArray(release)) return release;
  const files = (release as { files?: unknown }).files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return release;
  const lowered = Object.fromEntries(
    Object.entries(files).map(([format, digest]) => {
      const sha256 = (digest as { sha256?: unknown } | null)?.sha256;
      return [format, typeof sha256 === 'string' && HEX_64.test(sha256) ? { ...digest, sha256: sha256.toLowerCase() } : digest];
    }),
  );
  return { ...release, files: lowered };
}
