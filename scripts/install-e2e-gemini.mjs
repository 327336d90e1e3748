// Installs the pinned Gemini CLI the end-to-end tests run, on demand, into .e2e/gemini-cli/ (the
// pin is package.json "e2e.geminiCli"). How: scripts/e2e-cli.mjs.
// Usage: node scripts/install-e2e-gemini.mjs [--quiet]   (prints the CLI's entry path)
import { E2E_PINS, ensureE2eCli, runAsScript } from './e2e-cli.mjs';

export function ensureE2eGemini() {
  return ensureE2eCli({
    pkg: '@google/gemini-cli',
    version: E2E_PINS.geminiCli,
    dir: 'gemini-cli',
    bin: 'gemini',
    pinName: 'geminiCli',
  });
}

runAsScript(import.meta.url, ensureE2eGemini);
