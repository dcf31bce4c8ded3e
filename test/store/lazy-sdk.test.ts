// The AWS SDK costs nothing without RDW_STORE_URL (issue 32): the built CLI's `--help` and a pull from the embedded
// mock resolve no @aws-sdk module; with RDW_STORE_URL set they do (a module hook counts what Node resolves).
// Runs the built CLI: `npm run build` first.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { runBuiltCli } from '../support/run-built-cli.js';

let folder: string;
let register: string;

beforeAll(async () => {
  folder = await makeTemporaryFolder('rdw-lazy-sdk-');
  const hooks = path.join(folder, 'hooks.mjs');
  await writeFile(
    hooks,
    `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.includes('/@aws-sdk/')) process.stderr.write('SDK-RESOLVED ' + result.url + '\\n');
  return result;
}\n`,
  );
  register = path.join(folder, 'register.mjs');
  await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
});
afterAll(async () => {
  if (folder !== undefined) await removeTree(folder);
});

const sdkResolutions = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('SDK-RESOLVED')).length;

describe('the S3 SDK is loaded only with RDW_STORE_URL', () => {
  it('rdw --help and a pull without RDW_STORE_URL resolve no @aws-sdk module; a pull with it does', async () => {
    const env = { NODE_OPTIONS: `--import ${register}` };
    const help = await runBuiltCli(['--help'], { env });
    expect(help.code).toBe(0);
    expect(sdkResolutions(help.stderr)).toBe(0);
    const plain = await runBuiltCli(['pull', '--latest', '1', '--home', path.join(folder, 'plain')], { env, timeoutMs: 60_000 });
    expect(plain.code, plain.stderr).toBe(0);
    expect(sdkResolutions(plain.stderr)).toBe(0);
    const store = await runBuiltCli(['pull', '--latest', '1', '--home', path.join(folder, 'store')], {
      env: { ...env, RDW_STORE_URL: 's3://desk/rdw', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' },
      timeoutMs: 60_000,
    });
    expect(store.code, store.stderr).toBe(0);
    expect(sdkResolutions(store.stderr)).toBeGreaterThan(0);
    expect(store.stderr).toContain('could not be reached');
  }, 120_000);
});
