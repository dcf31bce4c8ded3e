// Benjamini–Hochberg q-values: the false-discovery-rate adjustment of a study's per-group p-values, so that
// "significant" over up to 180 groups means the same thing as over one (docs/analysis.md, "Many groups").

/**
 * BH-adjusted p-values (q-values) of `pValues`, in input order: with the m finite p-values sorted,
 * p(1) <= … <= p(m), q(i) = min over j >= i of min(1, p(j) · m / j) (the running minimum from the largest
 * p down, so q is monotone in p and tied p-values get the same q). Rejecting every hypothesis with
 * q <= level is exactly the BH step-up rule at that level: reject the k smallest, k = max{ i : p(i) <= i/m · level }.
 * A null or NaN p-value (no estimate) is not a hypothesis: it gets a null q and does not count in m.
 * @param pValues two-sided p-values in [0, 1], or null/NaN when a group has none
 * @returns q-values in [0, 1] (null where the p-value was missing)
 */
export function benjaminiHochberg(pValues: readonly (number | null | undefined)[]): (number | null)[] {
  const tested = pValues
    .map((p, index) => ({ p, index }))
    .filter((entry): entry is { p: number; index: number } => typeof entry.p === 'number' && !Number.isNaN(entry.p));
  const m = tested.length;
  const q: (number | null)[] = pValues.map(() => null);
  // Sort by p (ties keep input order; they end with the same q either way), then take the running minimum
  // of p · m / rank from the largest p down.
  tested.sort((a, b) => a.p - b.p || a.index - b.index);
  let running = 1;
  for (let rank = m; rank >= 1; rank -= 1) {
    const entry = tested[rank - 1]!;
    running = Math.min(running, (entry.p * m) / rank);
    q[entry.index] = running;
  }
  return q;
}
