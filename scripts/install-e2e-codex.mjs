// Installs the pinned Codex CLI the end-to-end tests run, on demand, into .e2e/codex/ (the pin is
// package.json "e2e.codex"; its platform binary comes as an optional dependency of the wrapper
// package). How: scripts/e2e-cli.mjs.
// Usage: node scripts/install-e2e-codex.mjs [--quiet]   (prints the binary's path)
import { E2E_PINS, ensureE2eCli, runAsScript } from './e2e-cli.mjs';

export function ensureE2eCodex() {
  return ensureE2eCli({
    pkg: '@openai/codex',
    version: E2E_PINS.codex,
    dir: 'codex',
    bin: 'codex',
    pinName: 'codex',
  });
}

runAsScript(import.meta.url, ensureE2eCodex);
