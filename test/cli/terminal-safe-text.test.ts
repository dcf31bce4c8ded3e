// A service's text on a terminal (a second server's adversary, session 35: `rdw research csv` and `rdw live --csv`
// wrote raw ESC and OSC sequences from the service to the terminal, where the table view escaped them). On a
// terminal control characters are shown as \uXXXX; piped, every byte goes out as sent. `rdw live --csv` against a
// scripted server (not the mock) that puts an OSC title sequence and a bidi override in a cell.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { controlCharactersEscaped } from '../../src/base/index.js';
import { forOutput } from '../../src/cli/terminal-safe-text.js';
import { captureOutput } from '../support/capture-output.js';
import { sendJson, startScriptedServer } from '../support/scripted-server.js';
import { withTempHome } from '../support/temp-home.js';

const HOSTILE = 'BTC\u001b]0;pwned\u0007USDT \u202eevil\u202c';

describe('controlCharactersEscaped and forOutput', () => {
  it('writes control characters but tab and line breaks as \\uXXXX, and leaves printable text alone', () => {
    expect(controlCharactersEscaped(`a\tb\r\nc${HOSTILE}\u009b2J\u007f`)).toBe('a\tb\r\ncBTC\\u001b]0;pwned\\u0007USDT \\u202eevil\\u202c\\u009b2J\\u007f');
    expect(controlCharactersEscaped('a\u2028b')).toBe('a\\u2028b');
    expect(controlCharactersEscaped('plain, "quoted" ünïcödé')).toBe('plain, "quoted" ünïcödé');
    expect(forOutput({ isTTY: false }, HOSTILE)).toBe(HOSTILE);
    expect(forOutput({ isTTY: true }, HOSTILE)).not.toContain('\u001b');
  });

  it('rdw live --csv: escaped on a terminal, every byte as sent when piped', async () => {
    const site = await startScriptedServer((_req, res, url) => {
      if (url.pathname !== '/api/research/live/market-breadth.csv') return sendJson(res, 404, {});
      res.writeHead(200, { 'content-type': 'text/csv' }).end(`symbol,price\n"${HOSTILE}",1\n`);
    });
    try {
      await withTempHome(async (home) => {
        const run = async (tty: boolean) => {
          const out = captureOutput(tty);
          const code = await runCli(['live', 'market-breadth', '--csv', '--home', home], {
            env: { RDW_BASE_URL: `${site.origin}/v1`, RDW_SITE_URL: site.origin },
            stdout: out.output,
            stderr: captureOutput().output,
          });
          return { code, text: out.text() };
        };
        const terminal = await run(true);
        expect(terminal.code).toBe(0);
        expect(terminal.text).not.toMatch(/[\u001b\u0007\u202e]/);
        expect(terminal.text).toContain('BTC\\u001b]0;pwned\\u0007USDT');
        const piped = await run(false);
        expect(piped.text).toContain(HOSTILE);
      });
    } finally {
      await site.close();
    }
  });
});
