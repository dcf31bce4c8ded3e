// A real S3 server for the team-store tests (issue 32): Ceph's RADOS Gateway on a throw-away single-node cluster
// (1 mon, 1 memstore OSD) on 127.0.0.1, started by ./s3-server/start-rgw.sh (rdw's copy of
// ../shared/tools/s3-server). .ci/run installs Debian's packages; under CI=true a missing radosgw fails the suite.

import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

const run = promisify(execFile);
// Tests that build their own S3Client (to plant or read objects) keep the SDK's "needs Node 22" banner out of the
// output, as rdw's openS3Client does.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const SCRIPTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3-server');

/** The Debian packages .ci/run installs when radosgw is missing. */
export const S3_SERVER_PACKAGES = ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common', 'curl'] as const;

/** Region the SDK is given for RGW (RGW ignores it; the SDK needs one). */
export const S3_TEST_REGION = 'us-east-1';

/** A running radosgw and what a client needs to reach it. */
export interface S3Server {
  /** `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
  /** The AWS SDK's standard variables for a child process (endpoint, credentials, region). */
  readonly env: Readonly<Record<string, string>>;
  /** Stops the daemons (SIGTERM, then SIGKILL) and removes the cluster's folder. */
  stop(): Promise<void>;
}

/** True when the radosgw binaries start-rgw.sh needs are installed. */
export async function hasS3Server(): Promise<boolean> {
  for (const binary of ['/usr/bin/radosgw', '/usr/bin/ceph-mon', '/usr/bin/ceph-osd', '/usr/bin/radosgw-admin']) {
    try {
      await access(binary);
    } catch {
      return false;
    }
  }
  return true;
}

/** The sentence a test throws under CI=true when radosgw is missing. */
export function missingS3ServerMessage(): string {
  return `radosgw is missing: install the Debian packages ${S3_SERVER_PACKAGES.join(' ')} (apt-get update first; .ci/run does).`;
}

/** Starts a fresh cluster (about 3 s) in its own temporary folder, on free ports. */
export async function startS3Server(options: { timeoutSeconds?: number } = {}): Promise<S3Server> {
  const dir = await makeTemporaryFolder('rdw-s3-');
  const port = await freePort();
  const monPort = await freePortPair();
  let line: string;
  try {
    const { stdout } = await run('bash', [path.join(SCRIPTS, 'start-rgw.sh'), dir, String(port)], {
      env: { ...process.env, RGW_QUIET: '1', RGW_MON_PORT: String(monPort), RGW_TIMEOUT: String(options.timeoutSeconds ?? 120) },
      timeout: ((options.timeoutSeconds ?? 120) * 4 + 30) * 1000,
    });
    line = stdout.trim().split('\n').pop() ?? '';
  } catch (error) {
    await stopCluster(dir);
    throw error;
  }
  const started = JSON.parse(line) as { endpoint: string; accessKeyId: string; secretAccessKey: string };
  const env = {
    AWS_ENDPOINT_URL_S3: started.endpoint,
    AWS_ACCESS_KEY_ID: started.accessKeyId,
    AWS_SECRET_ACCESS_KEY: started.secretAccessKey,
    AWS_REGION: S3_TEST_REGION,
  };
  return { ...started, region: S3_TEST_REGION, env, stop: () => stopCluster(dir) };
}

async function stopCluster(dir: string): Promise<void> {
  try {
    await run('bash', [path.join(SCRIPTS, 'stop-rgw.sh'), dir], { env: { ...process.env, RGW_QUIET: '1' }, timeout: 60_000 });
  } finally {
    await removeTree(dir, { maxRetries: 3 });
  }
}

function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : undefined));
    });
  });
}

async function freePort(): Promise<number> {
  const port = await listenOnce(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}

/** A port p with p+1 also free: the mon listens on msgr2 (p) and v1 (p+1). */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await freePort();
    if (port < 65535 && (await listenOnce(port + 1)) !== undefined) return port;
  }
  throw new Error('no free pair of TCP ports on 127.0.0.1');
}
