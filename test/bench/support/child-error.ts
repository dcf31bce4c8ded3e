// What a failed benchmark script died of, read from its stderr: Node's report of an uncaught error (its first
// line, and the code, syscall, path and reason it carries), so a clean-up that threw is shown as such.

/** The first line of an error report: `Error: …`, `TypeError [ERR_X]: …`, `[Error: …]`, `UnsafeDeleteError: …`. */
const HEADLINE = /^\[?(?:[A-Z][\w$]*)?(?:Error|Exception)(?: \[[A-Z_\d]+\])?\]?: \S/;
/** A field of the error Node prints after its stack: `  code: 'EBUSY',`. */
const FIELD = /^(code|syscall|path|reason): ('[^']*'|"[^"]*"|[-\w.]+),?$/;

/**
 * The last error report in `stderr` as one line, with its code, syscall, path and reason when it has them
 * (`Error: EBUSY: resource busy or locked, rmdir '/' (code 'EBUSY', syscall 'rmdir', path '/')`); else the
 * last line that names an error, else the last line; '' for no output.
 */
export function childError(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim());
  let headline = -1;
  for (let index = lines.length - 1; index >= 0 && headline < 0; index -= 1) if (HEADLINE.test(lines[index]!)) headline = index;
  if (headline < 0) {
    const told = lines.filter((line) => line !== '' && !line.startsWith('at ') && !line.startsWith('Node.js '));
    return [...told].reverse().find((line) => /error/i.test(line)) ?? told.at(-1) ?? '';
  }
  // The fields follow the stack, up to the closing brace.
  const fields: string[] = [];
  for (const line of lines.slice(headline + 1)) {
    if (line === '}') break;
    const field = FIELD.exec(line);
    if (field) fields.push(`${field[1]} ${field[2]}`);
  }
  const text = lines[headline]!.replace(/^\[(.*?)\]( \{)?$/, '$1');
  return fields.length > 0 ? `${text} (${fields.join(', ')})` : text;
}
