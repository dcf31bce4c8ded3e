// User-facing messages of the release archive and the research snapshots, one function each.

export const messages = {
  archiveOption: (option: string, value: unknown, expected: string) =>
    `Release archive option ${option} was ${JSON.stringify(value)}; expected ${expected}.`,
  nonFiniteValue: (field: string, value: number) =>
    `Field ${field} held ${String(value)}, which no release file can carry; the simulator must give a finite number or null.`,
  regeneratedMismatch: (id: string, format: string, expected: string, actual: string) =>
    `Release ${id} regenerated a ${format} file with sha256 ${actual}, but it was published with ${expected}; the simulator is not deterministic.`,
  unknownRelease: (id: string) =>
    `Release ${id} is not published by this archive; list releases with /releases and use one of their IDs.`,
};
