// Immutable file responses: conditional requests (If-None-Match -> 304), single byte ranges
// (Range -> 206, 416 when unsatisfiable, If-Range), and the fault kinds that break a body on the wire.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parseEntityTag, parseEntityTagList, strongMatch, weakMatch } from './entity-tag.js';
import type { ActiveFault } from './fault-rule.js';

/** What a file request asks for, once conditional and range headers are read. */
export type FilePlan =
  | { kind: 'not-modified' }
  | { kind: 'unsatisfiable' }
  | { kind: 'body'; start: number; end: number; partial: boolean };

/** Chunk size of a `slow` body. */
export const SLOW_CHUNK_BYTES = 16 * 1024;

/** Reads `If-None-Match`, `Range` and `If-Range` against the file's strong `etag` and `size` (bytes). */
export function planFile(request: IncomingMessage, etag: string, size: number): FilePlan {
  const own = parseEntityTag(etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string') {
    const tags = parseEntityTagList(ifNoneMatch);
    if (tags === '*' || (own !== undefined && tags.some((tag) => weakMatch(tag, own)))) return { kind: 'not-modified' };
  }
  const full: FilePlan = { kind: 'body', start: 0, end: size - 1, partial: false };
  const range = request.headers.range;
  if (typeof range !== 'string') return full;
  const ifRange = request.headers['if-range'];
  if (typeof ifRange === 'string') {
    const tag = parseEntityTag(ifRange); // a date, a weak tag or another tag: the file may have changed, send it whole
    if (tag === undefined || own === undefined || !strongMatch(tag, own)) return full;
  }
  // One range only; a malformed or multi-range header is ignored, as RFC 9110 allows.
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(range.trim());
  if (!match || (match[1] === '' && match[2] === '')) return full;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'body', start: Math.max(0, size - suffix), end: size - 1, partial: true };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return full;
  return { kind: 'body', start, end, partial: true };
}

/** Same length, bytes flipped at the middle and every 4093 bytes: a checksum must catch it. */
export function corruptBytes(bytes: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(bytes);
  if (copy.length === 0) return copy;
  copy[copy.length >> 1]! ^= 0xff;
  for (let index = 0; index < copy.length; index += 4093) copy[index]! ^= 0x5a;
  return copy;
}

/**
 * Writes `body` (headers already set, `Content-Length` = its full length) with an optional fault.
 * @returns the number of body bytes handed to the socket.
 */
export function writeBody(response: ServerResponse, body: Uint8Array, fault: ActiveFault | undefined, timers: Set<NodeJS.Timeout>): number {
  switch (fault?.kind) {
    case 'corrupt':
      response.end(corruptBytes(body));
      return body.length;
    case 'truncate': {
      const part = body.subarray(0, body.length >> 1);
      response.write(part, () => response.destroy());
      return part.length;
    }
    case 'reset': {
      const part = body.subarray(0, body.length >> 2);
      const socket = response.socket as (Socket & { resetAndDestroy?: () => void }) | null;
      response.write(part, () => (socket?.resetAndDestroy ? socket.resetAndDestroy() : socket?.destroy()));
      return part.length;
    }
    case 'slow': {
      let offset = 0;
      const next = (): void => {
        if (response.destroyed || response.writableEnded) return;
        const chunk = body.subarray(offset, offset + SLOW_CHUNK_BYTES);
        offset += chunk.length;
        if (offset >= body.length) {
          response.end(chunk);
          return;
        }
        response.write(chunk);
        const timer = setTimeout(() => {
          timers.delete(timer);
          next();
        }, fault.delayMs);
        timers.add(timer);
      };
      next();
      return body.length;
    }
    default:
      response.end(body);
      return body.length;
  }
}
