// Fuzz: thousands of seeded random paths, queries, headers and methods. Never a 5xx but the designated
// 503 fault, never an unexpected handler failure, and the server still answers afterwards.

import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/base/index.js';
import type { Release } from '../../../src/contract/index.js';
import { withMockServer } from '../../support/with-mock-server.js';
import { get } from './http.js';


const REQUESTS = 3000;

describe('fuzz', () => {
  it(`answers ${REQUESTS} random requests without an unexpected 5xx`, async () => {
    await withMockServer({ days: 4, limits: { researcher: { rpm: 1e6 }, desk: { rpm: 1e6 }, free: { rpm: 1e6 }, publicRpm: 1e6 } }, async (server) => {
      const [release] = ((await get(`${server.baseUrl}/releases?limit=1`, server.keys.desk)).json as { items: [Release] }).items;
      // the one designated 503: the parquet of this release
      server.faults.add({ releaseId: release.id, format: 'parquet', kind: 'status503' });
      const random = seededRandom(20261101);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const junk = (length: number) => Array.from({ length }, () => String.fromCharCode(33 + Math.floor(random() * 94))).join('').replace(/[#?%]/g, 'x');
      const segments = [
        'v1', 'v2', 'api', 'research', 'live', 'catalog', 'schema', 'releases', 'rows', 'download', 'csv', 'parquet', 'json',
        'manifest', 'schema', 'market-breadth', 'funding-pressure', 'market-breadth.csv', '..', '.', '', '%2e%2e', '%00', 'etc',
        'passwd', release.id, release.id.toUpperCase(), 'f'.repeat(64), 'a'.repeat(200), '~', '%2F', 'x.csv',
      ];
      const valid = [
        '/v1/research/catalog', '/v1/research/market-breadth', '/v1/research/listing-calendar/csv', '/api/research/live/market-breadth',
        '/api/research/live/funding-pressure.csv', '/v1/catalog', '/v1/schema', '/v1/releases', `/v1/rows/${release.id}`,
        `/v1/download/${release.id}/csv`, `/v1/download/${release.id}/manifest`, `/v1/download/${release.id}/parquet`,
      ];
      const queryNames = ['symbol', 'sample_type', 'limit', 'offset', 'key', 'token', 'foo', '', 'limit[]', 'Symbol'];
      const queryValues = ['BTCUSDT', 'btcusdt', 'event', 'control', '0', '1', '100', '500', '501', '-1', '1.5', '1e3', '', '%ZZ', '%00', 'NaN', '99999999999999999999'];
      const auths = [undefined, '', `Bearer ${server.keys.desk}`, `Bearer ${server.keys.free}`, `Bearer ${server.keys.researcher}`, `Bearer ${server.keys.revoked}`,
        `Bearer ${server.keys.audit}`, `Bearer "${server.keys.desk}"`, 'Bearer', 'Basic abc', `Bearer ${'x'.repeat(500)}`, `bearer ${server.keys.downgradedExtra}`];
      const methods = ['GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'];
      const ranges = [undefined, 'bytes=0-10', 'bytes=-5', 'bytes=10-', 'bytes=999999999-', 'bytes=5-1', 'bytes=0-1,2-3', 'bytes=', 'junk'];

      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      const send = (index: number): Promise<void> => {
        let path = '';
        if (random() < 0.4) {
          path = pick(valid);
        } else {
          const depth = 1 + Math.floor(random() * 5);
          for (let i = 0; i < depth; i += 1) path += `/${random() < 0.1 ? junk(1 + Math.floor(random() * 12)) : pick(segments)}`;
        }
        if (random() < 0.6) {
          const pairs = Array.from({ length: Math.floor(random() * 4) }, () => `${pick(queryNames)}=${random() < 0.1 ? junk(6) : pick(queryValues)}`);
          path += `?${pairs.join('&')}`;
        }
        const headers: Record<string, string> = {};
        const auth = pick(auths);
        if (auth !== undefined) headers.authorization = auth;
        const range = pick(ranges);
        if (range !== undefined) headers.range = range;
        if (random() < 0.1) headers['if-none-match'] = random() < 0.5 ? `"${release.files.csv.sha256}"` : junk(10);
        if (random() < 0.05) headers['x-junk'] = junk(40);
        const method = pick(methods);
        return new Promise((resolve) => {
          const request = httpRequest({ host: '127.0.0.1', port: new URL(server.siteUrl).port, path, method, headers, agent }, (response) => {
            const status = response.statusCode ?? 0;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const designated = status === 503 && path.startsWith(`/v1/download/${release.id}/parquet`);
            if (status >= 500 && !designated) unexpected.push(`${index} ${method} ${path} -> ${status}`);
            response.resume();
            response.on('end', resolve);
            response.on('error', () => resolve());
          });
          request.on('error', (error) => {
            unexpected.push(`${index} ${method} ${path} -> ${error.message}`);
            resolve();
          });
          if (method === 'POST' || method === 'PUT') request.end(junk(20));
          else request.end();
        });
      };
      const workers = Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < REQUESTS; index += 8) await send(index);
      });
      await Promise.all(workers);
      agent.destroy();

      expect(unexpected).toEqual([]);
      expect(server.internalErrors).toEqual([]);
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS);
      // the fuzz reached more than the 404/405 walls
      for (const status of [200, 401, 404, 405, 422]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
      // still serving
      expect((await get(`${server.baseUrl}/catalog`, server.keys.desk)).status).toBe(200);
    });
  }, 60_000);
});
