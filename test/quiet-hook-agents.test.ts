/**
 * Codex CLI's PostToolUse and Gemini CLI's AfterTool get the quiet window Claude Code's
 * PostToolUse has (test/quiet-hook.test.ts), as the agents run the hooks (`shim hook --agent
 * codex PostToolUse`, `shim gemini-hook AfterTool`): after a full look, a shell command that can
 * change no work, far from every threshold, is answered from the log's tail without a fold (the
 * cursor cache and the hook memory are not touched); a test run, a failed command or a
 * compaction brings the full look back.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { waitForProcessesUnder } from './helpers/processes.ts';
import {
  CODEX_SESSION,
  codexSession,
  GEMINI_SESSION,
  geminiSession,
  world,
  type Call,
  type World,
} from './helpers/shell-sessions.ts';
import { gone, waitForWarmLook, warmLookPid } from './helpers/warm-look.ts';
import { signalQuietly } from '../src/capture/process-tree.ts';

/** Every cursor file's text: a full look that folded something rewrites it. */
function cursors(w: World): string {
  const dir = join(w.home, 'cache', 'cursors');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

function logText(w: World): string {
  const path = join(w.home, 'logs', 'shim.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function memoryText(w: World, sessionId: string): string {
  return readFileSync(join(w.home, 'cache', 'hooks', `${sessionId}.json`), 'utf8');
}

/**
 * The steps every agent's test takes: a full look grants the window, `ls`-like commands stay
 * inside it (no fold, no write), and `breaks` (a test run, a failure) each bring the full look.
 */
async function assertQuietWindow(w: World, sessionId: string, call: Call): Promise<void> {
  call(1, 'ls src');
  const granted = JSON.parse(memoryText(w, sessionId)) as { quiet: { callsLeft: number } | null };
  assert.ok(granted.quiet && granted.quiet.callsLeft >= 3, 'a window after the first full look');
  await waitForProcessesUnder(w.home); // the session's first checkpoint, in the background
  const folded = cursors(w);
  const memory = memoryText(w, sessionId);
  call(2, 'cat src/a.ts');
  call(3, 'rg parse src');
  assert.equal(cursors(w), folded, 'no fold inside the window');
  assert.equal(memoryText(w, sessionId), memory, 'no write inside the window');
  call(4, 'npm test');
  assert.notEqual(cursors(w), folded, 'a test run may be a milestone: full look');
  await waitForProcessesUnder(w.home);
  const afterTests = cursors(w);
  call(5, 'ls');
  assert.equal(cursors(w), afterTests, 'quiet again after the full look');
  call(6, 'ls missing', { failed: true });
  assert.notEqual(cursors(w), afterTests, 'a failed command: full look');
  await waitForProcessesUnder(w.home);
}

describe('Codex CLI PostToolUse and Gemini CLI AfterTool: the quiet window', () => {
  test('Codex: an ordinary shell command is answered from the rollout tail; a test run or a failure is looked at', async () => {
    const w = world('shim-quiet-codex-');
    await assertQuietWindow(w, CODEX_SESSION, codexSession(w));
  });

  test('Gemini: an ordinary shell command is answered from the chat tail; a test run or a failure is looked at', async () => {
    const w = world('shim-quiet-gemini-');
    await assertQuietWindow(w, GEMINI_SESSION, geminiSession(w));
  });
});

describe('the warm look answers Codex CLI and Gemini CLI too', () => {
  for (const [name, start] of [
    ['Codex', codexSession],
    ['Gemini', geminiSession],
  ] as const)
    test(`${name}: the first full look starts the process; the next calls are its to answer`, async () => {
      const w = world(`shim-warm-${name.toLowerCase()}-`, true);
      const call = start(w);
      try {
        call(1, 'ls src');
        await waitForWarmLook(w.home);
        call(2, 'cat src/a.ts');
        call(3, 'npm test');
        call(4, 'ls');
        call(5, 'ls missing', { failed: true });
        // Quiet calls and full looks alike: every one answered by the process (counted once the
        // calls pause), with the same empty answer the hook's own process gives.
        await waitForWarmLook(w.home, (stats) => (stats?.answered ?? 0) >= 4);
        assert.doesNotMatch(logText(w), /"level":"(?:warn|error)"/);
      } finally {
        const pid = warmLookPid(w.home);
        if (pid !== null) {
          signalQuietly(pid, 'SIGTERM');
          await gone(pid);
        }
        await waitForProcessesUnder(w.home);
      }
    });
});
