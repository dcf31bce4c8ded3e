// The bootstrap options every study shares (draws, seed, level, block length), checked in one place so the
// event study and the model evaluation accept the same values and say the same sentence for a bad one.

import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';

/** How many draws, from which seed, at which interval level. */
export interface BootstrapDraws {
  readonly samples: number;
  readonly seed: number;
  readonly confidence: number;
}

/**
 * The draws with defaults filled in: `samples` (default `defaultSamples`), an integer from 1 to 1,000,000;
 * `seed` (default 1), an integer; `confidence` (default 0.95), strictly between 0 and 1.
 * @param name the option's name in errors: `bootstrap` (default), or the event study's `interval`
 * @throws AnalysisOptionError (option `<name>.samples`, `.seed` or `.confidence`)
 */
export function resolveBootstrapDraws(options: Partial<BootstrapDraws>, defaultSamples: number, name = 'bootstrap'): BootstrapDraws {
  const samples = options.samples ?? defaultSamples;
  const seed = options.seed ?? 1;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(samples) || samples < 1 || samples > 1_000_000) {
    throw new AnalysisOptionError(analysisMessages.badBootstrap('samples must be an integer from 1 to 1,000,000', name), { option: `${name}.samples` });
  }
  if (!Number.isInteger(seed)) throw new AnalysisOptionError(analysisMessages.badBootstrap('seed must be an integer', name), { option: `${name}.seed` });
  if (!(confidence > 0 && confidence < 1)) {
    throw new AnalysisOptionError(analysisMessages.badBootstrap('confidence must be strictly between 0 and 1', name), { option: `${name}.confidence` });
  }
  return { samples, seed, confidence };
}

/** Days per drawn block, an integer from 1 to 10,000 (`auto` is the event study's, resolved per window). @throws AnalysisOptionError */
export function checkBlockDays(blockDays: number, auto = false, name = 'bootstrap'): number {
  if (!(Number.isInteger(blockDays) && blockDays >= 1 && blockDays <= 10_000)) {
    const rule = auto ? 'blockDays must be "auto" or an integer from 1 to 10,000' : 'blockDays must be an integer from 1 to 10,000';
    throw new AnalysisOptionError(analysisMessages.badBootstrap(rule, name), { option: `${name}.blockDays` });
  }
  return blockDays;
}
