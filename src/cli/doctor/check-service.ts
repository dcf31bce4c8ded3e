// The service checks of `rdw doctor`: base URL reachable (and which one), key accepted, plan and limits
// (as reported or as assumed), and the service's clock against this machine's.

import { errors, type RdwClient } from '../../index.js';
import { probeService, urlSecret, validateApiKey, type AccountLimits, type ServiceProbe } from '../../workbench/index.js';
import { shownUrl } from '../../base/index.js';
import { EXIT_CODES, PLANS, UsageError } from '../../contract/index.js';
import type { CliContext } from '../cli-context.js';
import { byteText } from '../byte-text.js';
import { cliMessages, doctorMessages as m } from '../messages.js';
import { connectDoctor, type DoctorConnection } from './doctor-connection.js';
import { exitCodeOf, failed, messageOf, passed, skipped, warned, type DoctorCheck } from './doctor-check.js';

/** Clock skew above which the clock check warns, in seconds (byte budgets use UTC days). */
export const CLOCK_SKEW_LIMIT_SECONDS = 60;

const given = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

export interface ServiceCheckOptions {
  /**
   * Called with each check as soon as it is known, in the returned order (base_url and key before the plan's
   * reads): doctor prints each line then, so the plan's requests are not a silent wait behind them.
   */
  readonly onCheck?: (check: DoctorCheck) => void;
  /** Wraps the plan check's reads (doctor: a notice on a terminal while they are slow). Default: runs them. */
  readonly whilePlan?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Runs the four service checks, in order: base_url, key, plan, clock. Never throws for a service problem. */
export async function checkService(context: CliContext, options: ServiceCheckOptions = {}): Promise<DoctorCheck[]> {
  const done: DoctorCheck[] = [];
  const report = (check: DoctorCheck): DoctorCheck => {
    done.push(check);
    options.onCheck?.(check);
    return check;
  };
  const finish = (checks: readonly DoctorCheck[]): DoctorCheck[] => {
    for (const check of checks) report(check);
    return done;
  };
  const key = given(context.env.RDW_API_KEY);
  let keyProblem: string | undefined;
  if (key !== undefined) {
    try {
      validateApiKey(key);
    } catch (error) {
      keyProblem = messageOf(error);
    }
  }
  const notRun = (): DoctorCheck[] => [skipped('key', 'base_url'), skipped('plan', 'base_url'), skipped('clock', 'base_url')];

  // 1. which base URL: RDW_BASE_URL / --base-url, else the embedded mock (started with the given key, or its desk key)
  let baseUrl = given(context.baseUrl);
  // Keys stay in the header: a URL carrying a key, user:password, a query or a fragment is named, never echoed.
  const carried = baseUrl === undefined ? undefined : urlSecret(baseUrl, key);
  if (carried !== undefined) {
    return finish([failed('base_url', m.baseUrlCarriesSecret(carried), m.badBaseUrlRemedy(), EXIT_CODES.usage), ...notRun()]);
  }
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
    return finish([failed('base_url', m.badBaseUrl(baseUrl), m.badBaseUrlRemedy(), EXIT_CODES.usage), ...notRun()]);
  }
  const embedded = baseUrl === undefined;
  let api: DoctorConnection | undefined;
  if (embedded || (key !== undefined && keyProblem === undefined)) {
    try {
      api = await connectDoctor(context, baseUrl, keyProblem === undefined ? key : undefined);
    } catch (error) {
      // A base URL the client refuses (not ending in /v1, a query): a setting to fix, not a network problem.
      if (error instanceof UsageError && error.option === 'baseUrl') {
        return finish([failed('base_url', m.badBaseUrl(baseUrl ?? ''), m.badBaseUrlRemedy(), EXIT_CODES.usage), ...notRun()]);
      }
      // RDW_SITE_URL refused (not http(s), or carrying a secret): that setting to fix, not RDW_BASE_URL nor the network,
      // which the remedy had named.
      if (error instanceof UsageError && error.option === 'siteUrl') {
        const sentence = error.code === 'RDW_URL_CREDENTIALS' ? messageOf(error) : cliMessages.badSiteUrl(context.siteUrl ?? '');
        return finish([failed('base_url', sentence, m.siteUrlRemedy(), EXIT_CODES.usage), ...notRun()]);
      }
      return finish([failed('base_url', messageOf(error), m.unreachableRemedy(), exitCodeOf(error)), ...notRun()]);
    }
    baseUrl = api.baseUrl;
  }
  const shown = displayUrl(baseUrl!);
  const where = embedded ? m.embedded(shown) : shown;

  // 2. reachable: one request without the key through the client's transport; any HTTP answer will do
  let probe: ServiceProbe;
  try {
    probe = await probeService({ baseUrl: baseUrl! });
  } catch (error) {
    // Not an API root (no key, so no client has checked it yet): a setting to fix, as above.
    if (error instanceof UsageError && error.option === 'baseUrl') {
      return finish([failed('base_url', m.badBaseUrl(baseUrl!), m.badBaseUrlRemedy(), EXIT_CODES.usage), ...notRun()]);
    }
    throw error;
  }
  const facts = { baseUrl: shown, embedded };
  if (!probe.reachable) {
    return finish([failed('base_url', m.unreachable(where, probe.reason), m.unreachableRemedy(), EXIT_CODES.failure, facts), ...notRun()]);
  }
  report(baseUrlCheck(where, probe, facts));

  // 3. the key, on the free Research scope (any valid key)
  let keyCheck: DoctorCheck;
  if (keyProblem !== undefined) keyCheck = failed('key', m.keyMalformed(keyProblem), m.keyMalformedRemedy(), EXIT_CODES.usage);
  else if (api === undefined) keyCheck = failed('key', m.keyMissing(), m.keyMissingRemedy(), EXIT_CODES.auth);
  else keyCheck = await checkKey(api.client, embedded && key === undefined);
  report(keyCheck);

  // 4. plan and limits, on the paid scope
  const whilePlan = options.whilePlan ?? (<T>(work: () => Promise<T>) => work());
  const client = api?.client;
  const plan = keyCheck.status === 'fail' || client === undefined ? skipped('plan', 'key') : await whilePlan(() => checkPlan(client));
  return finish([plan, clockCheck(probe)]);
}

function baseUrlCheck(where: string, probe: Extract<ServiceProbe, { reachable: true }>, facts: Record<string, unknown>): DoctorCheck {
  const all = { ...facts, status: probe.status, elapsedMs: probe.elapsedMs };
  if (probe.status >= 500) return warned('base_url', m.serverError(where, probe.status), m.serverErrorRemedy(), all);
  if (probe.redirectOrigin !== undefined) {
    return passed('base_url', m.redirected(where, probe.status, probe.redirectOrigin), { ...all, redirectOrigin: probe.redirectOrigin });
  }
  return passed('base_url', m.answered(where, probe.status, probe.elapsedMs), all);
}

async function checkKey(client: RdwClient, embeddedDeskKey: boolean): Promise<DoctorCheck> {
  try {
    await client.research.catalog();
    return passed('key', embeddedDeskKey ? m.keyEmbedded() : m.keyAccepted());
  } catch (error) {
    if (error instanceof errors.UnauthorizedError) return unauthorized('key', error);
    if (error instanceof errors.ForbiddenError) {
      return failed('key', m.keyRefused(m.keyRefused403(error.apiCode)), m.keyRefused403Remedy(), EXIT_CODES.auth, { status: 403, code: error.apiCode ?? null });
    }
    // Not an answer about the key (a missing endpoint, an odd body): the plan check asks the paid scope.
    return warned('key', m.keyUnconfirmed(messageOf(error)));
  }
}

async function checkPlan(client: RdwClient): Promise<DoctorCheck> {
  let limits: AccountLimits | undefined;
  try {
    limits = await client.limits({ fresh: true });
    const [latest] = await client.releases({ limit: 1 });
    const facts = { limits, latestRelease: latest === undefined ? null : { id: latest.id, day: latest.day } };
    const text = limitsText(limits);
    const latestText = latest === undefined ? m.noReleases() : m.latestRelease(String(latest.day), String(latest.id));
    if (limits.source === 'assumed') return warned('plan', m.planAssumed(text, limits.origin, latestText), m.assumedRemedy(), facts);
    return passed('plan', m.planOpen(text, m.reportedBy(limits.origin), latestText), facts);
  } catch (error) {
    const facts = limits === undefined ? undefined : { limits };
    if (error instanceof errors.ForbiddenError) {
      return failed('plan', m.planClosed(error.apiCode), m.planClosedRemedy(), EXIT_CODES.auth, { ...facts, status: 403, code: error.apiCode ?? null });
    }
    if (error instanceof errors.UnauthorizedError) return unauthorized('plan', error, facts);
    return failed('plan', m.planFailed(messageOf(error)), m.planFailedRemedy(), exitCodeOf(error), facts);
  }
}

/**
 * A 401 in words: the key refused, or (the 401 came from another host a redirect led to, where rdw sent no
 * key) no verdict on the key at all, so no advice to replace it.
 */
function unauthorized(name: 'key' | 'plan', error: errors.UnauthorizedError, facts?: Record<string, unknown>): DoctorCheck {
  if (error.keyWithheld) return failed(name, m.keyWithheld(), m.keyWithheldRemedy(), EXIT_CODES.auth, { ...facts, status: 401, keyWithheld: true });
  return failed(name, m.keyRefused(m.keyRefused401()), m.keyRefused401Remedy(), EXIT_CODES.auth, { ...facts, status: 401 });
}

/** "Research Desk plan: 5 key slots, 300 requests/min, 5 GiB per UTC day" (the plan named only when the figures match one). */
function limitsText(limits: AccountLimits): string {
  const plan =
    limits.source === 'reported'
      ? Object.values(PLANS).find(
          (candidate) => candidate.rpm === limits.rpm && candidate.daily_bytes === limits.daily_bytes && (limits.keys === undefined || limits.keys === candidate.keys),
        )
      : undefined;
  const bytes =
    limits.daily_bytes === undefined ? m.bytesUnknown() : limits.daily_bytes === 0 ? m.bytesNone() : m.bytesPerDay(byteText(limits.daily_bytes));
  return `${plan === undefined ? '' : m.planName(plan.name)}${[m.keySlots(limits.keys), m.rpm(limits.rpm), bytes].join(', ')}`;
}

function clockCheck(probe: Extract<ServiceProbe, { reachable: true }>): DoctorCheck {
  if (probe.serverDateMs === undefined) return warned('clock', m.clockNoDate());
  // The Date header has whole seconds: the service's time lies in [date, date + 1 s).
  const skew = Math.round((probe.serverDateMs + 500 - probe.localMidMs) / 1000);
  const facts = { skewSeconds: skew, serverDate: new Date(probe.serverDateMs).toISOString() };
  if (Math.abs(skew) > CLOCK_SKEW_LIMIT_SECONDS) {
    return warned('clock', m.clockSkewed(skew, CLOCK_SKEW_LIMIT_SECONDS), m.clockSkewedRemedy(), facts);
  }
  return passed('clock', m.clockOk(skew), facts);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The base URL without credentials, query or fragment (shownUrl), and without a trailing slash. */
function displayUrl(value: string): string {
  return shownUrl(value).replace(/\/+$/, '');
}
