// DuckDB's TimeZone follows the machine's TZ, so a derived feature such as hour(to_timestamp(sample_time)) gave
// other numbers on a machine in India than in London (an adversary's trial, session 38). Every catalog rdw opens
// is set to UTC, the zone of rdw's days: the built CLI in a process started with TZ=Asia/Kolkata reads UTC hours.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

const CLI = path.join(import.meta.dirname, '../../dist/cli/main.js');
let fixture: FixtureCatalog;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: 1, label: 'time-zone' });
  await fixture.detach();
}, 120_000);
afterAll(async () => fixture?.close());

describe('the catalog connection is in UTC whatever the machine zone', () => {
  it('rdw sql under TZ=Asia/Kolkata reads TimeZone UTC and the UTC hour of a sample time', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', RDW_HOME: fixture.dir, TZ: 'Asia/Kolkata' };
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'sql', '--csv', "SELECT current_setting('TimeZone') AS tz, hour(to_timestamp(0)) AS h"], { env });
    expect(stdout.trim().split('\n')).toEqual(['tz,h', 'UTC,0']);
    // The zone is the machine's when DuckDB is opened without rdw (what this guards against).
    const { stdout: plain } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', "import { DuckDBInstance } from '@duckdb/node-api'; const c = await (await DuckDBInstance.create(':memory:')).connect(); console.log(String((await c.runAndReadAll('SELECT hour(to_timestamp(0)) AS h')).getRowObjectsJS()[0].h));"],
      { env, cwd: path.join(import.meta.dirname, '../..') },
    );
    expect(plain.trim()).toBe('5');
  });
});
