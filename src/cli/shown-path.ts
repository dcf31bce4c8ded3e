// How a path rdw made (under RDW_HOME, or next to a path given) is printed: relative to the working folder when
// it lies inside it, so the lines stay short and can be pasted; absolute otherwise, never a `../../tmp/…` walk.

import path from 'node:path';

/** `file` relative to `cwd` when inside it (`.` for cwd itself), else absolute. */
export function shownPath(cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
