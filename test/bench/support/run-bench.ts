// Runs one benchmark of the suite in its own process and judges it: ok (exit 0 and a JSON line), failed (any
// other exit, a clean-up that threw included, with the error it died of), timeout, or skipped (by mode, or by
// the script itself: a JSON line with `skipped`). Returns its outcome and its rows of the summary table.

import { type BenchMode, type BenchSpec, type SummaryRow } from './bench-suite.js';
import { childError } from './child-error.js';
import { lastJsonLine } from './last-json-line.js';
import { runChild } from './run-child.js';

export type BenchStatus = 'ok' | 'failed' | 'timeout' | 'skipped';

export interface BenchOutcome {
  name: string;
  script: string;
  args: readonly string[];
  status: BenchStatus;
  exitCode: number | null;
  seconds: number;
  peakTreeRssMiB: number;
  result?: Record<string, unknown>;
  /** Why it failed, timed out or was skipped: for a failure, the error it died of (childError). */
  error?: string;
}

export interface RunBenchOptions {
  /** The repository root: the script's working folder. */
  root: string;
  /** Benches named by --only: they run whatever the mode. Default none. */
  only?: readonly string[];
  /** The child's environment. Default process.env without the API settings. */
  env?: NodeJS.ProcessEnv;
}

/** Characters of an error kept in the outcome (the JSON file) and in a table row. */
const ERROR_CHARS = 2000;
const ROW_ERROR_CHARS = 160;

/** Runs `bench` in `mode` (or skips it when the mode leaves it out); never throws for a failing bench. */
export async function runBench(bench: BenchSpec, mode: BenchMode, options: RunBenchOptions): Promise<{ outcome: BenchOutcome; rows: SummaryRow[] }> {
  const args = bench.args[mode];
  if (!(options.only ?? []).includes(bench.name) && !(bench.runsIn ?? ['quick', 'full']).includes(mode)) {
    const outcome: BenchOutcome = { name: bench.name, script: bench.script, args: [], status: 'skipped', exitCode: null, seconds: 0, peakTreeRssMiB: 0, error: `skipped in ${mode} mode` };
    return { outcome, rows: [{ bench: bench.name, figure: `skipped in ${mode} mode`, value: '-', detail: `run with --only ${bench.name}` }] };
  }
  console.error(`\n== ${bench.name}: ${bench.script} ${args.join(' ')} (budget ${bench.budgetSeconds[mode]} s)`);
  const run = await runChild(process.execPath, ['--expose-gc', '--import', 'tsx', bench.script, ...args], {
    cwd: options.root,
    env: options.env ?? { ...process.env, RDW_BASE_URL: undefined, RDW_API_KEY: undefined, FORCE_COLOR: '0' },
    timeoutSeconds: bench.budgetSeconds[mode],
  });
  const result = lastJsonLine(run.stdout);
  const outcome: BenchOutcome = {
    name: bench.name,
    script: bench.script,
    args,
    // A non-zero exit fails the bench even after its JSON line: a clean-up that threw is a failure.
    status: run.timedOut ? 'timeout' : run.code === 0 && result !== undefined ? 'ok' : 'failed',
    exitCode: run.code,
    seconds: Number(run.seconds.toFixed(2)),
    peakTreeRssMiB: run.peakTreeRssMiB,
    ...(result === undefined ? {} : { result }),
  };
  const rows: SummaryRow[] = [];
  if (outcome.status === 'ok' && typeof result?.skipped === 'string') {
    // 1. The script found what it needs missing, outside CI (under CI=true it fails instead).
    outcome.status = 'skipped';
    outcome.error = result.skipped;
    rows.push({ bench: bench.name, figure: 'SKIPPED by the script', value: '-', detail: result.skipped.slice(0, ROW_ERROR_CHARS) });
  } else if (outcome.status !== 'ok') {
    // 2. Failed or out of time: the error it died of, and what finished before, when the spec can read it.
    const why = run.timedOut
      ? `over its ${bench.budgetSeconds[mode]} s budget`
      : run.spawnError ?? (result === undefined && run.code === 0 ? 'no JSON line on stdout' : `exit ${run.code ?? run.signal}`);
    const error = childError(run.stderr);
    outcome.error = `${why}${error ? `: ${error}` : ''}`.slice(0, ERROR_CHARS);
    rows.push({ bench: bench.name, figure: outcome.status.toUpperCase(), value: '-', detail: outcome.error.slice(0, ROW_ERROR_CHARS) });
    try {
      const partial = bench.partial?.(run.stdout, run.stderr);
      if (partial !== undefined) {
        outcome.result = partial;
        rows.push(...bench.summarize(partial).map((row) => ({ ...row, figure: `${row.figure} (finished before the ${outcome.status})` })));
      }
    } catch {
      // no usable partial result
    }
  } else {
    // 3. Ok: its figures.
    try {
      rows.push(...bench.summarize(result!));
    } catch (error) {
      outcome.status = 'failed';
      outcome.error = `unexpected JSON shape: ${(error as Error).message}`;
      rows.push({ bench: bench.name, figure: 'FAILED (output shape)', value: '-', detail: outcome.error });
    }
  }
  console.error(`== ${bench.name}: ${outcome.status} in ${outcome.seconds} s (peak tree RSS ${outcome.peakTreeRssMiB} MiB)${outcome.status === 'failed' || outcome.status === 'timeout' ? `\n   ${outcome.error}` : ''}`);
  return { outcome, rows };
}
