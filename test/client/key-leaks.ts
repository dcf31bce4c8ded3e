// Serializes a thrown value every way a user might (message, JSON, util.inspect with causes and hidden
// fields) and reports which of the given secrets appear.

import { inspect } from 'node:util';

export function keyLeaks(error: unknown, secrets: readonly string[]): string[] {
  const texts: string[] = [];
  for (let value: unknown = error, depth = 0; value !== undefined && value !== null && depth < 10; depth += 1) {
    const record = value as { message?: unknown; stack?: unknown; cause?: unknown };
    texts.push(String(record.message ?? ''), String(record.stack ?? ''));
    value = record.cause;
  }
  texts.push(JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})) ?? '');
  texts.push(JSON.stringify(error) ?? '');
  texts.push(inspect(error, { depth: Infinity, showHidden: true, getters: true }));
  const all = texts.join('\n');
  return secrets.filter((secret) => all.includes(secret) || all.includes(secret.slice(7)));
}
