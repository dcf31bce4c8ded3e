// "Did you mean …": the known name nearest to a mistyped one, by edit distance (insertions, deletions,
// substitutions and swaps of two neighbouring letters each count 1), or the one name it starts, or none.

/**
 * The name of `known` nearest to `typed`, when it is near enough to be a typo: at most one edit for names of
 * up to 5 letters (`lss` → `ls`), two for longer ones (`--latst` → `--latest`). Ties: the first in `known`. Else the
 * one name that starts with `typed` (3 letters or more besides leading dashes: `--dry` → `--dry-run`), if one does.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    const allowed = name.length <= 5 ? 1 : 2;
    if (distance <= allowed && distance < (best?.distance ?? Infinity)) best = { name, distance };
  }
  if (best !== undefined) return best.name;
  // A name cut short (`--dry` for --dry-run: 4 edits) is the start of exactly one known name; 3 letters at least.
  if (typed.replace(/^-+/, '').length < 3) return undefined;
  const starting = known.filter((name) => name.startsWith(typed));
  return starting.length === 1 ? starting[0] : undefined;
}

/** Optimal string alignment distance between `a` and `b` (Damerau-Levenshtein without repeated edits of one part). */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between a's first i letters and b's first j.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}
