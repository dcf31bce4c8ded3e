// The one ETag parser (RFC 9110 §8.8.3): an entity tag is an opaque quoted string, optionally marked weak
// with `W/`; conditional headers compare tags weakly (If-None-Match) or strongly (If-Range).

/** A parsed entity tag. */
export interface EntityTag {
  /** Marked `W/`: the representation may differ in bytes (never good enough for a byte range). */
  weak: boolean;
  /** The opaque tag between the quotes. */
  opaque: string;
}

/** `[W/]"<etagc>*"`: etagc is any visible character but `"` (and obs-text). `W` is case-sensitive. */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** Parses one entity tag (surrounding whitespace ignored); undefined when it is not one (unquoted, a date, `w/"x"`). */
export function parseEntityTag(text: string): EntityTag | undefined {
  const match = ENTITY_TAG.exec(text.trim());
  return match === null ? undefined : { weak: match[1] !== undefined, opaque: match[2]! };
}

/**
 * Parses an If-None-Match / If-Match value: `*` (any tag), or a comma-separated list of entity tags. A comma
 * inside the quotes belongs to the tag; a member that is not exactly an entity tag is left out.
 */
export function parseEntityTagList(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (const member of header.match(/\s*(?:W\/)?"[^"]*"\s*(?=,|$)|[^,]+/g) ?? []) {
    const tag = parseEntityTag(member);
    if (tag !== undefined) tags.push(tag);
  }
  return tags;
}

/** Weak comparison (If-None-Match): the opaque tags are equal, either or both may be weak. */
export function weakMatch(a: EntityTag, b: EntityTag): boolean {
  return a.opaque === b.opaque;
}

/** Strong comparison (If-Range, If-Match): neither is weak and the opaque tags are equal. */
export function strongMatch(a: EntityTag, b: EntityTag): boolean {
  return !a.weak && !b.weak && a.opaque === b.opaque;
}
