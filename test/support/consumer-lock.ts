// A package-lock.json for a throwaway consumer project of the packed rdw tarball, cut from this repository's
// own lock: the consumer then installs with `npm ci --offline`, from the npm cache this repository's `npm ci`
// filled. (`npm install <tarball> --offline` cannot: it needs each dependency's registry document, which a
// lockfile install never caches; only the tarballs are there.)

/** One entry of a lockfile's `packages`. */
interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  peer?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface ConsumerLockOptions {
  /** This repository's package-lock.json, parsed. */
  repositoryLock: { packages: Record<string, LockEntry> };
  /** The packed package.json of rdw (its `dependencies` are the consumer's transitive ones). */
  packedManifest: LockEntry & { name: string; version: string };
  /** The tarball's file name in the consumer folder, and its `sha512-…` integrity. */
  tarball: { file: string; integrity: string };
  /** The consumer's package.json: name, version, `dependencies` (rdw and the rest) and `devDependencies`. */
  consumer: { name: string; version: string; dependencies: Record<string, string>; devDependencies?: Record<string, string> };
}

/** The folder a package `name` required from the package at `from` resolves to, as Node walks node_modules up. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/**
 * The consumer's lock: its root, rdw from the tarball, and every package the repository's lock holds that rdw's
 * dependencies and the consumer's other dependencies reach (each at the same path, without its `dev` flag).
 */
export function consumerLock(options: ConsumerLockOptions): object {
  const source = options.repositoryLock.packages;
  const { packedManifest, tarball, consumer } = options;
  const rdwEntry: LockEntry = {
    version: packedManifest.version,
    resolved: `file:${tarball.file}`,
    integrity: tarball.integrity,
    license: packedManifest.license,
    dependencies: packedManifest.dependencies,
    bin: packedManifest.bin,
    engines: packedManifest.engines,
    peerDependencies: packedManifest.peerDependencies,
    peerDependenciesMeta: packedManifest.peerDependenciesMeta,
  };
  const packages: Record<string, LockEntry> = { 'node_modules/rdw': rdwEntry };
  const queue: { from: string; name: string; optional: boolean }[] = [];
  const want = (from: string, deps: Record<string, string> | undefined, optional: boolean) => {
    for (const name of Object.keys(deps ?? {})) queue.push({ from, name, optional });
  };
  want('node_modules/rdw', packedManifest.dependencies, false);
  want('', { ...consumer.dependencies, ...consumer.devDependencies }, false);
  while (queue.length > 0) {
    const { from, name, optional } = queue.shift()!;
    if (name === packedManifest.name) continue;
    const found = locate(source, from, name);
    if (found === undefined) {
      if (optional) continue;
      throw new Error(`The repository's lock has no ${name} (needed by ${from || 'the consumer'}): run npm ci first.`);
    }
    if (packages[found] !== undefined) continue;
    const { dev: _dev, devOptional: _devOptional, ...entry } = source[found]!;
    packages[found] = entry;
    want(found, entry.dependencies, false);
    want(found, entry.optionalDependencies, true);
    // npm installs a required peer with its dependent; an optional one only when something else asks for it.
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    for (const peer of Object.keys(entry.peerDependencies ?? {})) if (optionalPeers[peer]?.optional !== true) queue.push({ from: found, name: peer, optional: false });
  }
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b)));
  return {
    name: consumer.name,
    version: consumer.version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: consumer.name, version: consumer.version, dependencies: consumer.dependencies, devDependencies: consumer.devDependencies }, ...sorted },
  };
}
