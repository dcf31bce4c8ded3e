// Small HTTP helpers of the mock-server suites: fetch with a key, and the JSON error body.

import { request as httpRequest } from 'node:http';
import { isApiErrorBody, type ApiErrorBody } from '../../../src/contract/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  json: unknown;
}

/** GET (or `init.method`) `url` with an optional bearer key; the whole body read. */
export async function get(url: string, key?: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
  const response = await fetch(url, { ...init, headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

/** The error body of an answer; fails the test when the body is not the API error shape. */
export function errorOf(answer: Answer): ApiErrorBody['error'] {
  if (!isApiErrorBody(answer.json)) throw new Error(`not an API error body (status ${answer.status}): ${answer.text.slice(0, 200)}`);
  return answer.json.error;
}

/** A request with the path sent verbatim (no URL normalization), via node:http. */
export function raw(
  siteUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(siteUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}
