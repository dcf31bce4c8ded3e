// `rdw doctor`: the first command to run against a real service. One line per check (base URL, key, plan
// and limits, clock, RDW_HOME, catalog lock, Jupyter kernel) with ok / warn / fail / skip; --json for all.

import { EXIT_CODES } from '../../contract/index.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { checkCatalog } from '../doctor/check-catalog.js';
import { checkHome } from '../doctor/check-home.js';
import { checkKernel } from '../doctor/check-kernel.js';
import { checkService } from '../doctor/check-service.js';
import { checkStore } from '../doctor/check-store.js';
import { skipped, type DoctorCheck } from '../doctor/doctor-check.js';
import { doctorMessages as m } from '../messages.js';
import { sayWhileSlow } from '../slow-step-notice.js';
import { wrapText } from '../wrap-text.js';

export const doctorCommand: Command = {
  name: 'doctor',
  line: COMMAND_LINES.doctor,
  async run(context) {
    // The home is looked at first, before the client keeps its pacing state in it; the catalog is probed
    // only in a usable home; the catalog and kernel checks run beside the service checks.
    const home = await checkHome(context.home);
    const catalog = home.status === 'fail' ? Promise.resolve(skipped('catalog', 'home')) : checkCatalog(context.home);
    const kernel = checkKernel(context.env);
    const store = checkStore(context.env);
    // In text, each line as soon as its check is done (in the fixed order): a slow service is not a silent wait.
    // The label column is as wide as the longest label doctor can print, known before any check ends.
    const width = Math.max(...Object.values(m.labels).map((label) => label.length));
    const indent = 4 + 2 + width + 2;
    const say = (done: readonly DoctorCheck[]) => {
      if (context.json) return;
      for (const check of done) {
        const remedy = check.remedy === undefined || check.status === 'ok' ? '' : ` ${check.remedy}`;
        const text = wrapText(`${check.message}${remedy}`, context.stdout.columns, indent);
        context.stdout.write(`${check.status.padEnd(4)}  ${(m.labels[check.name] ?? check.name).padEnd(width)}  ${text}\n`);
      }
    };
    const checks: DoctorCheck[] = [];
    const add = (done: readonly DoctorCheck[]) => {
      checks.push(...done);
      say(done);
    };
    // The service lines one by one as each is known; a notice on a terminal while the plan's reads are slow.
    const service = await checkService(context, {
      onCheck: (check) => say([check]),
      whilePlan: (work) => sayWhileSlow(context, m.readingPlan(), work),
    });
    checks.push(...service);
    add([home]);
    add([await catalog]);
    add([await kernel]);
    const storeCheck = await store;
    if (storeCheck !== undefined) add([storeCheck]);
    const failure = checks.find((check) => check.status === 'fail');
    const exitCode = failure?.exitCode ?? (failure === undefined ? EXIT_CODES.ok : EXIT_CODES.failure);
    if (context.json) {
      context.stdout.write(`${JSON.stringify({ ok: failure === undefined, exitCode, checks })}\n`);
      // The first failed check is also the one error object on stderr: code RDW_DOCTOR_<CHECK>.
      if (failure !== undefined) {
        const code = `RDW_DOCTOR_${failure.name.toUpperCase()}`;
        return { code, exitCode, message: [failure.message, failure.remedy].filter(Boolean).join(' ') };
      }
      return exitCode;
    }
    const failures = checks.filter((check) => check.status === 'fail').length;
    const warnings = checks.filter((check) => check.status === 'warn').length;
    context.stdout.write(`\n${failure === undefined ? m.summaryOk(warnings) : m.summaryFailed(failures, exitCode)}\n`);
    return exitCode;
  },
};
