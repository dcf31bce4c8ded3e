// Finds the machine-readable result a benchmark script prints: the last stdout line that is a JSON object.

/** The last line of `stdout` that parses as a JSON object, or undefined. */
export function lastJsonLine(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('{'));
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    try {
      const value = JSON.parse(lines[index]!) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // a table line that happens to start with '{': keep looking
    }
  }
  return undefined;
}
