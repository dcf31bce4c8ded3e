// Reads the text a notebook printed, cell by cell, so a test can compare a fresh run with the committed one.

import { readFile } from 'node:fs/promises';

interface NotebookOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
interface NotebookCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  execution_count?: number | null;
  metadata?: { execution?: Record<string, string>; [key: string]: unknown };
  outputs?: NotebookOutput[];
}
export interface Notebook {
  cells: NotebookCell[];
  metadata: Record<string, unknown>;
}

export async function readNotebook(file: string): Promise<Notebook> {
  return JSON.parse(await readFile(file, 'utf8')) as Notebook;
}

/** A multi-line notebook string (string or array of lines) as one string; other values as JSON. */
export const joinedText = (value: unknown): string => (Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : JSON.stringify(value));

/** Per code cell: its printed text (stdout/stderr streams and text/plain results), in order. */
export function printedText(notebook: Notebook): { id: string; text: string }[] {
  return notebook.cells
    .filter((cell) => cell.cell_type === 'code')
    .map((cell, index) => ({
      id: cell.id ?? String(index),
      text: (cell.outputs ?? [])
        .map((output) => {
          if (output.output_type === 'stream') return joinedText(output.text);
          if (output.output_type === 'error') return `ERROR ${output.ename}: ${output.evalue}`;
          return output.data && 'text/plain' in output.data ? joinedText(output.data['text/plain']) : '';
        })
        .join(''),
    }));
}

/** Every output of every cell as text (all MIME types), to search for secrets. */
export function allOutputText(notebook: Notebook): string {
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .map((output) => [joinedText(output.text ?? ''), ...Object.values(output.data ?? {}).map(joinedText), output.evalue ?? ''].join('\n'))
    .join('\n');
}

/** Errors raised by any cell. */
export function cellErrors(notebook: Notebook): string[] {
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .filter((output) => output.output_type === 'error')
    .map((output) => `${output.ename}: ${output.evalue}`);
}
