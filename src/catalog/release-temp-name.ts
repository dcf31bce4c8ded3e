// The store/tmp name of one part of a release (pulls and repairs download there before the store).

/**
 * The store/tmp file name of one part of a release: the exact ID with each upper-case letter written `^x`
 * (`^` is not in an ID), so IDs differing only in case never share a temp file on a case-insensitive file
 * system; the mock's lowercase IDs are used as they are.
 */
export function tempName(id: string, part: string): string {
  return `${id.replace(/[A-Z]/g, (letter) => `^${letter.toLowerCase()}`)}.${part}`;
}
