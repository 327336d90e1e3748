/** `shim status` names the agent that wrote the log, in its header and in --json. */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { gzFixturePath, SHARED_FIXTURES_DIR } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';

const ROLLOUT = 'rollout-2025-10-04T22-31-15-0199b26c-737a-71a2-9939-52ce68c95cbe.jsonl.gz';
const CODEX_FIXTURE = join(SHARED_FIXTURES_DIR, 'agents', 'codex', `coda__${ROLLOUT}`);

test("a Codex rollout's status says Codex CLI, not Claude Code", (t) => {
  if (!existsSync(CODEX_FIXTURE)) return t.skip(`no ${CODEX_FIXTURE}`);
  const home = makeWarmHome('shim-home-');
  // Codex names its logs rollout-<time>-<id>; the shared copy carries a project prefix.
  const log = join(home, ROLLOUT);
  copyFileSync(CODEX_FIXTURE, log);
  const text = runShim(home, ['status', log]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout.split('\n')[0] ?? '', / · Codex CLI 0\.44\.0/);
  assert.doesNotMatch(text.stdout, /Claude Code/, 'nor anywhere else (settings files, warnings)');
  const json = runShim(home, ['status', '--json', log]);
  assert.equal((JSON.parse(json.stdout) as { agent: string }).agent, 'codex');
});

test("a Claude Code transcript's status says Claude Code", () => {
  const home = makeWarmHome('shim-home-');
  const path = gzFixturePath('spotter-short-v2.1.38.jsonl');
  const text = runShim(home, ['status', path]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout.split('\n')[0] ?? '', / · Claude Code /);
  const json = runShim(home, ['status', '--json', path]);
  assert.equal((JSON.parse(json.stdout) as { agent: string }).agent, 'claude');
});

test('a Gemini CLI chat of one JSON document (≤ 0.38), copied under another name, is told by its content', (t) => {
  const legacy = join(
    SHARED_FIXTURES_DIR,
    'agents',
    'gemini',
    'hyde__session-2025-09-25T09-04-e2963405.json.gz',
  );
  if (!existsSync(legacy)) return t.skip(`no ${legacy}`);
  const home = makeWarmHome('shim-home-');
  // Not under chats/ and not named session-…: only its content says whose it is.
  const copy = join(home, 'saved-chat.json');
  writeFileSync(copy, gunzipSync(readFileSync(legacy)));
  const json = runShim(home, ['status', '--json', copy]);
  assert.equal(json.status, 0, json.stderr);
  const status = JSON.parse(json.stdout) as { agent: string; sessionId: string | null };
  assert.equal(status.agent, 'gemini');
  assert.equal(status.sessionId, 'e2963405-f70f-4d49-b647-354739f8053a');
  const text = runShim(home, ['status', copy]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout.split('\n')[0] ?? '', / · Gemini CLI/);
});
