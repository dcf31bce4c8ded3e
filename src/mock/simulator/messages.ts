// User-facing messages of the market simulator, one function each.

export const messages = {
  option: (option: string, value: unknown, expected: string) =>
    `Simulator option ${option} was ${JSON.stringify(value) ?? String(value)}; expected ${expected}.`,
  argument: (argument: string, value: unknown, expected: string) =>
    `Simulator argument ${argument} was ${JSON.stringify(value) ?? String(value)}; expected ${expected}.`,
};
