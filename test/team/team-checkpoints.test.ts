/**
 * While a team store is connected, a new request is checkpointed at the next tool call even
 * inside the quiet window (UserPromptSubmit ends it): another machine restores from the last
 * checkpoint that reached the server, not from this machine's transcript (docs/team.md). Without
 * a team store the same request waits for the interval, as before. No server is needed: the
 * hooks never connect.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { signalQuietly } from '../../src/capture/process-tree.ts';
import { BIN, runShim } from '../helpers/cli.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { processesUnder } from '../helpers/processes.ts';
import {
  assistantLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from '../helpers/transcript-builders.ts';
import { pollUntil } from '../e2e/claude.ts';

function setup(team: boolean) {
  const dir = makeTempDir('shim-team-ckpt-');
  const home = join(dir, 'shim');
  mkdirSync(home, { recursive: true });
  if (team)
    writeFileSync(
      join(home, 'config.json'),
      `${JSON.stringify({ team: { url: 'postgres://ada@127.0.0.1:9/shim' } })}\n`,
    );
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  writeFileSync(transcript, toJsonl([userPromptLine('Port the importer to streaming reads')]));
  let calls = 0;
  const env = { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') };
  const hook = (event: string, payload: Record<string, unknown>) => {
    const r = spawnSync(process.execPath, [BIN, 'hook', event], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: dir,
        hook_event_name: event,
        ...payload,
      }),
      encoding: 'utf8',
      env,
    });
    assert.equal(r.status, 0, r.stderr);
  };
  return {
    home,
    read: () => {
      const id = `toolu_${++calls}`;
      const input = { file_path: `/src/f${calls}.ts` };
      appendFileSync(
        transcript,
        toJsonl([
          assistantLine({
            id: `msg_${calls}`,
            usage: { input: 5, cacheCreation: 1000, cacheRead: 20_000, output: 40 },
            content: [toolUseBlock(id, 'Read', input)],
          }),
          toolResultLine({ toolUseId: id, content: 'done' }),
        ]),
      );
      hook('PostToolUse', { tool_name: 'Read', tool_input: input, tool_response: {} });
    },
    ask: (prompt: string) => {
      appendFileSync(transcript, toJsonl([userPromptLine(prompt)]));
      hook('UserPromptSubmit', { prompt });
    },
    quiet: () =>
      (
        JSON.parse(readFileSync(join(home, 'cache', 'hooks', `${SESSION_ID}.json`), 'utf8')) as {
          quiet: unknown;
        }
      ).quiet,
    checkpoints: () => {
      const list = runShim(home, ['list', '--all', '--json']);
      return list.status === 0 ? (JSON.parse(list.stdout) as unknown[]).length : 0;
    },
    stop: () => {
      for (const pid of processesUnder(home)) signalQuietly(pid, 'SIGKILL');
    },
  };
}

test('connected: a follow-up request ends the quiet window and is checkpointed at the next call', async (t) => {
  const s = setup(true);
  t.after(s.stop);
  s.read();
  assert.ok(s.quiet(), 'a quiet window after the first full look');
  await pollUntil(() => s.checkpoints() >= 1, 60_000, 200);
  s.read();
  s.ask('Also stream the rows of the export');
  assert.equal(s.quiet(), null, 'UserPromptSubmit ended the window');
  s.read();
  await pollUntil(() => s.checkpoints() >= 2, 60_000, 200);
  const print = runShim(s.home, ['resume', '--print', '--session', SESSION_ID]);
  assert.match(print.stdout + print.stderr, /Also stream the rows of the export/);
});

test('not connected: the same request keeps the window and waits for the interval', async (t) => {
  const s = setup(false);
  t.after(s.stop);
  s.read();
  await pollUntil(() => s.checkpoints() >= 1, 60_000, 200);
  s.ask('Also stream the rows of the export');
  assert.ok(s.quiet(), 'the window holds');
  s.read();
  assert.ok(s.quiet(), 'the call stayed inside the window: no look, no checkpoint');
  assert.equal(s.checkpoints(), 1);
});
