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
  outputs?: NotebookOutput[];
}
export interface Notebook {
  cells: NotebookCell[];
  metadata: Record<string, unknown>;
}

export async function readNotebook(file: string): Promise<Notebook> {
  return JSON.parse(await readFile(file, 'utf8')) as Notebook;
}

const joined = (value: unknown) => (Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : JSON.stringify(value));

/** Per code cell: its printed text (stdout/stderr streams and text/plain results), in order. */
export function printedText(notebook: Notebook): { id: string; text: string }[] {
  return notebook.cells
    .filter((cell) => cell.cell_type === 'code')
    .map((cell, index) => ({
      id: cell.id ?? String(index),
      text: (cell.outputs ?? [])
        .map((output) => {
          if (output.output_type === 'stream') return joined(output.text);
          if (output.output_type === 'error') return `ERROR ${output.ename}: ${output.evalue}`;
          return output.data && 'text/plain' in output.data ? joined(output.data['text/plain']) : '';
        })
        .join(''),
    }));
}

/** Every output of every cell as text (all MIME types), to search for secrets. */
export function allOutputText(notebook: Notebook): string {
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .map((output) => [joined(output.text ?? ''), ...Object.values(output.data ?? {}).map(joined), output.evalue ?? ''].join('\n'))
    .join('\n');
}

/** Errors raised by any cell. */
export function cellErrors(notebook: Notebook): string[] {
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .filter((output) => output.output_type === 'error')
    .map((output) => `${output.ename}: ${output.evalue}`);
}
