/**
 * The hooks judge the response they are about, never the one before it: Claude Code runs a tool
 * (and its PostToolUse hook) while the response that asked for it may not be in the transcript
 * yet, and writes a compaction's boundary before the next response (docs/claude-code.md, "The
 * transcript lags the hooks"). `shim hook` as Claude Code runs it, on built transcripts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { endWarmLooksUnder, waitForProcessesUnder } from './helpers/processes.ts';
import { sharingCodeCache, withSharedCodeCache } from './helpers/shared-code-cache.ts';
import {
  assistantLine,
  compactBoundaryLine,
  compactSummaryLine,
  SESSION_ID,
  toJsonl,
  toolCallLines,
  userPromptLine,
  type RawEntry,
} from './helpers/transcript-builders.ts';

type Setup = { home: string; transcript: string };

// The hooks start a warm look in each home (src/hook/warm-look/), as they do for users: ended
// when the file is done, not left to wait out its idle minutes.
const homes: string[] = [];
after(() => Promise.all(homes.map((home) => endWarmLooksUnder(home))));

// Homes share the code caches of the file's earlier ones (helpers/shared-code-cache.ts): nothing
// here is about the cache.
function setup(entries: RawEntry[]): Setup {
  const home = withSharedCodeCache(makeTempDir('shim-lag-'));
  homes.push(home);
  const transcript = join(home, 'session.jsonl');
  writeFileSync(transcript, toJsonl(entries));
  return { home, transcript };
}

type Output = {
  systemMessage?: string;
  hookSpecificOutput?: { additionalContext?: string };
} | null;

function hook(s: Setup, event: string, extra: Record<string, unknown> = {}): Output {
  const r = sharingCodeCache(s.home, () =>
    spawnSync(process.execPath, [BIN, 'hook', event], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: s.transcript,
        cwd: '/home/user/project',
        hook_event_name: event,
        ...extra,
      }),
      encoding: 'utf8',
      env: { ...process.env, SHIM_HOME: s.home, CLAUDE_CONFIG_DIR: join(s.home, 'no-claude') },
    }),
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim() ? (JSON.parse(r.stdout) as Output) : null;
}

const postToolUse = (s: Setup, n: number) =>
  hook(s, 'PostToolUse', {
    tool_name: 'Bash',
    tool_use_id: `toolu_${n}`,
    tool_input: { command: `echo ${n}` },
  });

/** What the stored checkpoints were triggered by, once the hooks' background ones are saved. */
async function triggers(s: Setup): Promise<string[]> {
  await waitForProcessesUnder(s.home);
  const run = runShim(s.home, ['list', '--all', '--json']);
  // An empty home lists [] with exit 0: a refusal is a failure to show, not "no checkpoint".
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as Array<{ triggeredBy: string }>).map((c) => c.triggeredBy);
}

/** shim's log under the test's home (what a background checkpoint said when it failed). */
function logOf(s: Setup): string {
  const path = join(s.home, 'logs', 'shim.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '(no log)';
}

function memory(s: Setup): { hookToolCalls: number; alertedLevel: string; epoch: number } {
  const path = join(s.home, 'cache', 'hooks', `${SESSION_ID}.json`);
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as {
        hookToolCalls: number;
        alertedLevel: string;
        epoch: number;
      })
    : { hookToolCalls: 0, alertedLevel: 'L0', epoch: 0 };
}

// A 2.1.39 session on a 200k model: the auto-compact threshold is 167,000.
const bash = (n: number, context: number) =>
  toolCallLines(n, context, 'Bash', { command: `echo ${n}` });
const PROMPT = userPromptLine('Please build the ZEBRA-42 importer.');

describe('PostToolUse judges the response that made the call', () => {
  test('its response not on disk yet: no level, no note, no level checkpoint; the call is counted', async () => {
    // Response 2 (87%, L2) is on disk; response 3 (which asked for toolu_3, at 102%) is not.
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 145_000)]);
    assert.equal(postToolUse(s, 3), null, 'nothing said about the response before');
    const stored = await triggers(s);
    assert.ok(!stored.includes('danger_zone'), stored.join(', '));
    assert.equal(memory(s).alertedLevel, 'L0');
    assert.equal(memory(s).hookToolCalls, 1);
  });

  test('its response on disk: the level of that response', () => {
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 145_000)]);
    const out = postToolUse(s, 2);
    assert.match(out?.systemMessage ?? '', /context at 87% of the auto-compact threshold \(L2\)/);
    assert.match(out?.hookSpecificOutput?.additionalContext ?? '', /87% .*\(L2\)/);
  });

  test('after a compaction whose next response is not written yet: nothing from before the boundary counts', async () => {
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 145_000)]);
    postToolUse(s, 2); // L2 alerted in the first context window
    appendFileSync(
      s.transcript,
      toJsonl([
        ...bash(3, 169_900),
        compactBoundaryLine({ trigger: 'auto', preTokens: 170_000 }),
        compactSummaryLine('Ran some commands.'),
      ]),
    );
    // toolu_4's response (30k) is not on disk: the 169,900 one before the boundary must not
    // make an L3 alert, checkpoint or handoff.
    assert.equal(postToolUse(s, 4), null);
    const levelRows = (await triggers(s)).filter((t) => t === 'danger_zone');
    assert.equal(
      levelRows.length,
      1,
      `only the L2 checkpoint of the first window; shim's log:\n${logOf(s)}`,
    );
    assert.deepEqual(handoffKinds(s), ['level_L2']);
    // Once it is written, it is judged: 18%, nothing to say.
    appendFileSync(s.transcript, toJsonl(bash(4, 30_000)));
    assert.equal(postToolUse(s, 4), null);
    // A call the warm look answered has its files written just after the answer: ending the
    // warm look (as a shutdown does) writes them, then they are read.
    await endWarmLooksUnder(s.home);
    assert.equal(memory(s).epoch, 1);
  });
});

function handoffKinds(s: Setup): string[] {
  const db = new DatabaseSync(join(s.home, 'shim.db'), { readOnly: true, timeout: 5000 });
  try {
    return (db.prepare('SELECT kind FROM handoffs').all() as Array<{ kind: string }>).map(
      (r) => r.kind,
    );
  } finally {
    db.close();
  }
}

describe('Stop judges the response that ended the turn', () => {
  const finalText = (context: number) =>
    assistantLine({
      id: `msg_final_${context}`,
      usage: { input: 5, cacheRead: context - 5, output: 30 },
      content: [{ type: 'text', text: 'Done.' }],
    });

  test('the final response not on disk yet: no notice from the response before', () => {
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 93_500)]);
    assert.equal(hook(s, 'Stop', { stop_hook_active: false }), null);
  });

  test('the final response on disk: its percentage', () => {
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 93_500), finalText(100_200)]);
    assert.match(
      hook(s, 'Stop', { stop_hook_active: false })?.systemMessage ?? '',
      /context at 60%/,
    );
  });

  test('a notice band from before a compaction does not silence the next window', () => {
    const s = setup([PROMPT, ...bash(1, 20_000), ...bash(2, 140_000), finalText(150_300)]);
    assert.match(hook(s, 'Stop')?.systemMessage ?? '', /context at 90%/);
    appendFileSync(
      s.transcript,
      toJsonl([
        compactBoundaryLine({ trigger: 'auto', preTokens: 151_000 }),
        compactSummaryLine('Ran some commands.'),
        userPromptLine('Go on.'),
        ...bash(3, 80_000),
        finalText(90_200),
      ]),
    );
    // 90,200 of the threshold this session's compaction taught (at most its 151,000 preTokens).
    assert.match(hook(s, 'Stop')?.systemMessage ?? '', /context at 60% /);
  });
});
