// A malformed RDW_SITE_URL is named as the setting to fix, by every command and by rdw doctor: the client's own
// sentence said "pass {site_url}", and doctor's remedy sent the user to RDW_BASE_URL and the network.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { cliMessages, doctorMessages } from '../../src/cli/messages.js';
import { captureOutput } from '../support/capture-output.js';
import { withTempHome } from '../support/temp-home.js';

/** Nothing listens there; every case is refused before a request. */
const env = { RDW_BASE_URL: 'http://127.0.0.1:9/v1', RDW_API_KEY: 'rdw_sk_siteurl0123456789abcdef0123456789' };

describe('a malformed RDW_SITE_URL', () => {
  it.each(['127.0.0.1:8787', 'ftp://host'])('%s: rdw live and rdw research say RDW_SITE_URL (exit 2)', async (site) => {
    await withTempHome(async (home) => {
      for (const argv of [['live', 'market-breadth'], ['research', 'catalog']]) {
        const err = captureOutput();
        expect(await runCli([...argv, '--home', home, '--json'], { env: { ...env, RDW_SITE_URL: site }, stderr: err.output })).toBe(2);
        expect(JSON.parse(err.text()).error.message).toBe(cliMessages.badSiteUrl(site));
      }
    });
  });

  it.each([
    ['not http(s)', '127.0.0.1:8787', cliMessages.badSiteUrl('127.0.0.1:8787')],
    ['carrying user:password', 'http://u:p@127.0.0.1:9', expect.stringMatching(/^The site URL carries a user@/)],
  ])('%s: doctor fails the base URL line with the RDW_SITE_URL remedy, not RDW_BASE_URL', async (_name, site, message) => {
    await withTempHome(async (home) => {
      const out = captureOutput();
      const code = await runCli(['doctor', '--json', '--home', home], { env: { ...env, RDW_SITE_URL: site }, stdout: out.output });
      expect(code).toBe(2);
      const checks = (JSON.parse(out.text()) as { checks: { name: string; message: string; remedy?: string }[] }).checks;
      expect(checks[0]).toMatchObject({ name: 'base_url', message, remedy: doctorMessages.siteUrlRemedy() });
      expect(checks[0]!.message).not.toContain('u:p');
    });
  });
});
