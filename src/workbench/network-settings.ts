// The client's network bounds a person can set in the environment: RDW_REQUEST_DEADLINE (the total
// deadline of one request, seconds) and RDW_MAX_RESPONSE_MB (the size limit of every kind of response read
// into memory, MiB). Read from the env object given, never process.env; unset or empty keeps the client's defaults.

import type { ClientOptions } from '../client/index.js';
import { workbenchMessages } from './messages.js';
import { WorkbenchOptionError } from './workbench-errors.js';

/** Largest RDW_REQUEST_DEADLINE, in seconds (one day). */
const MAX_DEADLINE_SECONDS = 86_400;
/** Largest RDW_MAX_RESPONSE_MB (4 GiB: a string in memory cannot be much longer). */
const MAX_RESPONSE_MB = 4_096;

/**
 * `timeouts.totalMs` and `responseLimits` from RDW_REQUEST_DEADLINE and RDW_MAX_RESPONSE_MB, for createClient.
 * @throws WorkbenchOptionError (exit 2) naming the variable when its value is not a number in range.
 */
export function networkSettings(env: Readonly<Record<string, string | undefined>>): Pick<ClientOptions, 'timeouts' | 'responseLimits'> {
  const deadline = numberSetting(env, 'RDW_REQUEST_DEADLINE', 1, MAX_DEADLINE_SECONDS);
  const mebibytes = numberSetting(env, 'RDW_MAX_RESPONSE_MB', 0.01, MAX_RESPONSE_MB);
  const bytes = mebibytes === undefined ? undefined : Math.max(1024, Math.round(mebibytes * 1024 * 1024));
  return {
    ...(deadline === undefined ? {} : { timeouts: { totalMs: Math.round(deadline * 1000) } }),
    ...(bytes === undefined ? {} : { responseLimits: { document: bytes, rows: bytes, csv: bytes } }),
  };
}

function numberSetting(env: Readonly<Record<string, string | undefined>>, name: string, min: number, max: number): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value < min || value > max) {
    throw new WorkbenchOptionError(workbenchMessages.badNetworkSetting(name, min, max), { option: name });
  }
  return value;
}
