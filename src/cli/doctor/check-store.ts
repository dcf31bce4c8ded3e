// rdw doctor's team-store line, only when RDW_STORE_URL is set: one signed listing of the store's manifests
// (bucket, endpoint and credentials checked, nothing written). A store that fails is a failed check, not a crash.

import { probeTeamStore } from '../../workbench/use-team-store.js';
import { doctorMessages } from '../messages.js';
import { exitCodeOf, failed, messageOf, passed, type DoctorCheck } from './doctor-check.js';

/** The `store` check, or undefined when no team store is configured. */
export async function checkStore(env: Readonly<Record<string, string | undefined>>): Promise<DoctorCheck | undefined> {
  try {
    const probe = await probeTeamStore(env);
    if (probe === undefined) return undefined;
    return passed('store', doctorMessages.storeAnswered(probe.url, probe.manifests), { url: probe.url, manifests: probe.manifests });
  } catch (error) {
    return failed('store', messageOf(error), doctorMessages.storeRemedy(), exitCodeOf(error));
  }
}
