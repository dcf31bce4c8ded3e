// Checks of a caller's input, made before any request: each failure is a UsageError (exit 2) naming the option.

import { DOWNLOAD_FORMATS, UsageError, checkReleaseId as checkContractReleaseId } from '../contract/index.js';
import { messages } from './messages.js';

/** A dataset ID or live page key: one plain path segment. */
const PATH_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A release ID as the spec allows it (RELEASE_ID_PATTERN); option `releaseId`. */
export function checkReleaseId(releaseId: string): void {
  checkContractReleaseId(releaseId, (sentence) => new UsageError(sentence, { option: 'releaseId' }));
}

/** One of DOWNLOAD_FORMATS; option `format`. */
export function checkFormat(format: string): void {
  if (!(DOWNLOAD_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(messages.badFormat(String(format), DOWNLOAD_FORMATS), { option: 'format' });
  }
}

/** A dataset ID or live page key that is a plain path segment; option `datasetId`. */
export function checkSegment(id: string): void {
  if (typeof id !== 'string' || !PATH_SEGMENT.test(id)) throw new UsageError(messages.badDatasetId(String(id)), { option: 'datasetId' });
}

/** An integer `value` in [min, max] when given; option `option`. */
export function checkLimit(option: string, value: number | undefined, { min, max }: { min: number; max: number }): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
    throw new UsageError(messages.badLimit(option, min, max), { option });
  }
}
