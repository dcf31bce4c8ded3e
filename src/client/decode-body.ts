// Content-Encoding on responses: reads the codings a response declares and decodes gzip, br and
// deflate (zlib or raw) as the body streams, so lengths and SHA-256 are always of the decoded bytes.

import { Transform, pipeline, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { UnexpectedResponseError } from './client-errors.js';
import { discardBody } from './discard-body.js';
import type { ResponseBody, TransportResponse } from './transport-response.js';
import { messages } from './messages.js';

/** Codings rdw decodes (`x-gzip` is gzip's old name; `identity` means none). */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  br: () => createBrotliDecompress(),
  deflate: () => new InflateAuto(),
};

/** The codings of a Content-Encoding header, in the order they were applied; `identity` and blanks dropped. */
export function contentCodings(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The first coding rdw cannot decode, or undefined when all can be. */
export function unsupportedCoding(codings: readonly string[]): string | undefined {
  return codings.find((coding) => !Object.hasOwn(DECODERS, coding));
}

/** The body decoded (codings undone last-applied first). Errors of the source or a decoder surface when reading. */
export function decodeBody(source: ResponseBody & NodeJS.ReadableStream, codings: readonly string[]): ResponseBody {
  const stages = [...codings].reverse().map((coding) => DECODERS[coding]!());
  const out = stages[stages.length - 1]!;
  pipeline([source, ...stages], () => undefined); // errors are re-emitted on `out`, where the reader sees them
  return {
    [Symbol.asyncIterator]: () => out[Symbol.asyncIterator](),
    dump: async () => {
      out.on('error', () => {});
      source.on('error', () => {});
      out.destroy();
    },
    on: (event, listener) => out.on(event, listener),
  };
}

/**
 * The response with its body decoded per Content-Encoding (Content-Length, of the wire bytes, removed).
 * An encoding rdw cannot decode on a `success` response is an UnexpectedResponseError naming `path`;
 * on another status the body is passed as it came (the status still speaks).
 */
export async function decodeResponse(
  response: Dispatcher.ResponseData,
  success: boolean,
  path: string,
): Promise<Omit<TransportResponse, 'deadline' | 'keyWithheld'>> {
  const { statusCode, headers } = response;
  const codings = contentCodings(headers['content-encoding']);
  if (codings.length === 0 || headers['content-length'] === '0') {
    return { statusCode, headers, body: response.body, encoded: false };
  }
  const unknown = unsupportedCoding(codings);
  if (unknown !== undefined) {
    if (!success) return { statusCode, headers, body: response.body, encoded: true };
    await discardBody(response.body);
    throw new UnexpectedResponseError(messages.unsupportedEncoding(path, unknown), { status: statusCode });
  }
  const { 'content-length': _wireLength, ...decodedHeaders } = headers;
  return { statusCode, headers: decodedHeaders, body: decodeBody(response.body, codings), encoded: true };
}

/**
 * `deflate` as servers really send it: RFC 9110 means zlib-wrapped, some send raw DEFLATE. The first
 * two bytes decide (a zlib header: method 8 and a header checksum divisible by 31).
 */
class InflateAuto extends Transform {
  #inner: Transform | undefined;
  #head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.#inner === undefined) {
      this.#head = Buffer.concat([this.#head, chunk]);
      if (this.#head.length < 2) return done();
      chunk = this.#head;
      const zlib = (chunk[0]! & 0x0f) === 8 && ((chunk[0]! << 8) | chunk[1]!) % 31 === 0;
      const inner = zlib ? createInflate() : createInflateRaw();
      inner.on('data', (data: Buffer) => this.push(data));
      inner.on('error', (error) => this.destroy(error));
      this.#inner = inner;
    }
    this.#inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    const inner = this.#inner;
    if (inner === undefined) return done(this.#head.length === 0 ? undefined : new Error('deflate body shorter than its header'));
    inner.once('end', () => done());
    inner.end();
  }
}
