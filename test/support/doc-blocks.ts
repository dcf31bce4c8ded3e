// The fenced blocks of the project's Markdown, read with marked's CommonMark lexer, and what each one is for
// (issue 29 item 1). The info string is `LANGUAGE [MARKER ...]`: the language first, so GitHub still
// highlights it, then markers that say how the doc-execution test treats the block.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lexer, type Token, type Tokens } from 'marked';

/** Languages whose blocks are executed: shell blocks with bash, TypeScript type-checked then run, JavaScript run. */
export const EXECUTED_LANGUAGES = ['sh', 'ts', 'js'] as const;
/** Languages that are shown, never executed: output, file layouts, configuration and other engines' code. */
export const SHOWN_LANGUAGES = ['text', 'json', 'sql', 'python', 'ini', 'crontab', 'properties'] as const;

/**
 * Markers after the language:
 * - `no-run`: a command or program that must not run in the suite (needs a real service or network, runs until
 *   stopped, or is the test suite itself); the reason is said next to the block.
 * - `sketch`: TypeScript or JavaScript that outlines an API (signatures, options with `?:`, names defined
 *   elsewhere): neither compiled nor run.
 * - `vitest`: a TypeScript test file for vitest: type-checked, then run by vitest.
 * - `cell`: a notebook cell: a file's `cell` blocks are one program, in order (as cells of one kernel session
 *   share their names), type-checked and run together from `notebooks/` (see `notebookProgram`).
 */
export const MARKERS = ['no-run', 'sketch', 'vitest', 'cell'] as const;

export type ExecutedLanguage = (typeof EXECUTED_LANGUAGES)[number];
export type Marker = (typeof MARKERS)[number];

/** What the doc-execution test does with a block. */
export type BlockUse = 'shell' | 'typescript' | 'vitest' | 'javascript' | 'cell' | 'no-run' | 'sketch' | 'shown';

export interface DocBlock {
  /** The Markdown file, relative to the repository root, e.g. `docs/cli.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The whole info string, as written. */
  info: string;
  language: string;
  markers: string[];
  /** The block's text, without the fences. */
  text: string;
  /** Indented code (no fence, so no language). */
  indented: boolean;
}

/** Every code block of `text`, in document order, with the line of its opening fence. */
export function docBlocks(file: string, text: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let searchFrom = 0;
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'code') {
        const code = token as Tokens.Code;
        // marked gives no positions: find the block's raw text after the previous block (a nested block's raw
        // text is de-indented, so for it the first line is looked for).
        const raw = code.raw.replace(/^\n+/, '').trimEnd();
        let at = text.indexOf(raw, searchFrom);
        let length = raw.length;
        if (at < 0) {
          const firstLine = raw.split('\n')[0]!.trim();
          at = text.indexOf(firstLine, searchFrom);
          length = firstLine.length;
        }
        const offset = at < 0 ? searchFrom : at;
        searchFrom = offset + length;
        const info = (code.lang ?? '').trim();
        const [language = '', ...markers] = info.split(/\s+/).filter((word) => word !== '');
        blocks.push({ file, line: text.slice(0, offset).split('\n').length, info, language, markers, text: code.text, indented: code.codeBlockStyle === 'indented' });
      }
      const nested = token as { tokens?: Token[]; items?: Token[] };
      if (nested.tokens) visit(nested.tokens);
      if (nested.items) visit(nested.items);
    }
  };
  visit(lexer(text));
  return blocks;
}

/** The blocks of a Markdown file under `root`. */
export function readDocBlocks(root: string, file: string): DocBlock[] {
  return docBlocks(file, readFileSync(path.join(root, file), 'utf8'));
}

/** Why a block's info string is not understood, or undefined when it is. */
export function infoStringProblem(block: DocBlock): string | undefined {
  if (block.indented) return 'indented code has no info string: fence it with a language (```text for output)';
  if (block.language === '') return 'no language: the info string starts with one (```sh, ```ts, ```text, …)';
  const executed = (EXECUTED_LANGUAGES as readonly string[]).includes(block.language);
  if (!executed && !(SHOWN_LANGUAGES as readonly string[]).includes(block.language)) {
    return `unknown language "${block.language}" (executed: ${EXECUTED_LANGUAGES.join(', ')}; shown: ${SHOWN_LANGUAGES.join(', ')})`;
  }
  const unknown = block.markers.filter((marker) => !(MARKERS as readonly string[]).includes(marker));
  if (unknown.length > 0) return `unknown marker ${unknown.map((marker) => `"${marker}"`).join(', ')} (known: ${MARKERS.join(', ')})`;
  if (!executed && block.markers.length > 0) return `markers belong to executed languages (${EXECUTED_LANGUAGES.join(', ')}), not "${block.language}"`;
  if (block.markers.length > 1) return `one marker at most, not ${block.markers.join(' ')}`;
  if (block.language === 'sh' && block.markers[0] !== undefined && block.markers[0] !== 'no-run') return `"${block.markers[0]}" is for ${block.markers[0] === 'sketch' ? 'ts and js' : 'ts'} blocks; a shell block runs, or is no-run`;
  if (block.language === 'js' && (block.markers[0] === 'vitest' || block.markers[0] === 'cell')) return `"${block.markers[0]}" is for ts blocks`;
  return undefined;
}

/** What the doc-execution test does with a block whose info string is understood. */
export function blockUse(block: DocBlock): BlockUse {
  const marker = block.markers[0];
  if (marker === 'no-run') return 'no-run';
  if (marker === 'sketch') return 'sketch';
  if (marker === 'vitest') return 'vitest';
  if (marker === 'cell') return 'cell';
  if (block.language === 'sh') return 'shell';
  if (block.language === 'ts') return 'typescript';
  if (block.language === 'js') return 'javascript';
  return 'shown';
}

/** One program made of a file's notebook cells, and the Markdown line of each of its lines. */
export interface NotebookProgram {
  text: string;
  /** `file:line` of each line of `text` (1-based lines of `text` at index line − 1). */
  origins: string[];
}

/**
 * The `cell` blocks of one file as one program, as a kernel runs them: every cell's single-line imports first
 * (an import written by two cells once), then the cells' other lines in order.
 */
export function notebookProgram(cells: DocBlock[]): NotebookProgram {
  const imports: string[] = [];
  const importOrigins: string[] = [];
  const body: string[] = [];
  const bodyOrigins: string[] = [];
  for (const cell of cells) {
    cell.text.split('\n').forEach((line, index) => {
      const origin = `${cell.file}:${cell.line + 1 + index}`;
      if (/^import\s.*from\s+['"][^'"]+['"];?\s*(\/\/.*)?$/.test(line)) {
        if (!imports.includes(line.trim())) {
          imports.push(line.trim());
          importOrigins.push(origin);
        }
      } else {
        body.push(line);
        bodyOrigins.push(origin);
      }
    });
  }
  return { text: `${[...imports, ...body].join('\n')}\n`, origins: [...importOrigins, ...bodyOrigins] };
}
