// Installs the pinned Claude Code CLI the end-to-end tests run, on demand, into .e2e/claude-code/
// (the CLI is a 364 MB native binary that wants Node 22: never one of shim's dependencies). The pin
// is package.json "e2e.claudeCode". How: scripts/e2e-cli.mjs.
// Usage: node scripts/install-e2e-claude.mjs [--quiet] [--previous | --version <v>]
//   prints the binary's path. --previous installs package.json "e2e.claudeCodePrevious" (the
//   version the pin moved up from, kept for the scenarios whose rules differ: docs/claude-code.md)
//   into .e2e/claude-code-<version>/, beside the pinned one; run a test file against it with
//   SHIM_CLAUDE_BIN=$(node scripts/install-e2e-claude.mjs --previous) node scripts/test.mjs <file>
import { E2E_PINS, ensureE2eCli, runAsScript } from './e2e-cli.mjs';

const PIN = E2E_PINS.claudeCode;

export function ensureE2eClaude(version = PIN) {
  return ensureE2eCli({
    pkg: '@anthropic-ai/claude-code',
    version,
    // The pin in .e2e/claude-code, any other version beside it.
    dir: version === PIN ? 'claude-code' : `claude-code-${version}`,
    bin: 'claude',
    pinName: 'claudeCode',
  });
}

/** The version the command line asks for: the pin, --previous, or --version <x.y.z>. */
function askedVersion() {
  const at = process.argv.indexOf('--version');
  const version = process.argv.includes('--previous')
    ? E2E_PINS.claudeCodePrevious
    : at > 0
      ? process.argv[at + 1]
      : PIN;
  if (!version || !/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(
      `no version to install (${version ?? 'package.json has no "e2e.claudeCodePrevious"'}): give --version <x.y.z>`,
    );
  return version;
}

runAsScript(import.meta.url, () => ensureE2eClaude(askedVersion()));
