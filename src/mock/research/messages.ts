// User-facing messages of the research snapshots, one function each.

export const messages = {
  snapshotTime: (value: unknown) =>
    `Research snapshot time was ${JSON.stringify(value)}; expected UTC Unix seconds as a finite number.`,
};
