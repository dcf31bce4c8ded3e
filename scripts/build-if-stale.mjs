// `npm start`'s pre-step: builds dist/ when it is missing or older than a file under src/ (or a tsconfig),
// since no install script builds it (a `prepare` script would be an install script in a consumer's tree).

import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};
const newestUnder = (folder) =>
  Math.max(...readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => mtime(path.join(entry.parentPath, entry.name)) ?? 0));

const built = mtime(path.join(root, 'dist/cli/main.js'));
const sources = Math.max(newestUnder(path.join(root, 'src')), mtime(path.join(root, 'tsconfig.json')) ?? 0);
if (built === undefined || built < sources) {
  process.stderr.write(built === undefined ? 'Building dist/ (first run)…\n' : 'Building dist/ (src/ changed since the last build)…\n');
  execSync('npm run --silent build', { cwd: root, stdio: 'inherit' }); // the same compiler as `npm run build`
}
