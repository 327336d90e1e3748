/**
 * Once found, gone everywhere (issue 38), through the built binary as Claude Code runs it: a
 * value pasted bare in a prompt (nothing says it is a secret) is stored in a checkpoint, its
 * handoff and Claude Code's summary; later the session shows what it is (`export VAULT_TOKEN=…`,
 * a `.env` read). After that, the value is nowhere under SHIM_HOME — not in the earlier
 * checkpoint, its search index, the summary, the handoff, the cursor cache, the log or the
 * database's free pages — nor in what `shim export`, `resume` and `show` print; and the words
 * around it are still there.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { processesUnder, waitForProcessesUnder } from './helpers/processes.ts';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { placesUnder, whereRaw } from './helpers/shim-home-texts.ts';
import {
  assistantLine,
  compactBoundaryLine,
  compactSummaryLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';
import { B62, madeUp } from '../src/redact/made-up.test-helper.ts';

const { gen } = madeUp(0x5e55);

describe('a secret found once is gone from the whole session', () => {
  test('earlier requests, tool calls, the summary, checkpoints and caches', async () => {
    const dir = makeTempDir('shim-session-secrets-');
    const home = join(dir, 'shim');
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
    const sessionId = randomUUID();
    const transcript = join(dir, `${sessionId}.jsonl`);
    // Two values: one named by a command later, one only inside a `.env` the agent reads.
    const vault = `s.${gen(B62, 24)}`;
    const weather = gen(B62, 32);
    const at = (n: number) => ({ timestamp: new Date(Date.UTC(2026, 1, 1, 10, n)).toISOString() });
    const write = (entries: unknown[]) =>
      appendFileSync(
        transcript,
        toJsonl(entries.map((e) => ({ ...(e as object), sessionId, cwd: project }))),
      );
    const hook = (event: string, extra: Record<string, unknown> = {}) => {
      const run = runShim(home, ['hook', event], {
        cwd: project,
        input: JSON.stringify({
          session_id: sessionId,
          transcript_path: transcript,
          cwd: project,
          hook_event_name: event,
          ...extra,
        }),
      });
      assert.equal(run.status, 0, run.stderr);
    };
    try {
      // 1. The values stand bare: nothing can tell they are secrets.
      writeFileSync(transcript, '');
      write([
        userPromptLine(`please deploy it with ${vault} and ${weather} today`, at(0)),
        assistantLine({
          id: 'msg_1',
          ...at(1),
          content: [{ type: 'text', text: `Deploying with ${vault} now.` }],
        }),
        assistantLine({
          id: 'msg_2',
          ...at(2),
          content: [
            toolUseBlock('toolu_1', 'Bash', {
              command: `curl -H "X-Request: ${vault}" https://deploy.example.test/v1`,
            }),
          ],
        }),
        toolResultLine({ toolUseId: 'toolu_1', content: `rejected ${weather} (401)`, ...at(3) }),
      ]);
      hook('SessionStart', { source: 'startup' });
      hook('UserPromptSubmit', { prompt: `please deploy it with ${vault} and ${weather} today` });
      hook('PreCompact', { trigger: 'auto' });
      const summary = `The user asked to deploy with ${vault}; the API answered ${weather}.`;
      write([
        compactBoundaryLine({ trigger: 'auto', preTokens: 150_000, ...at(4) }),
        compactSummaryLine(summary, at(5)),
      ]);
      hook('PostCompact', { trigger: 'auto', compact_summary: summary });
      await waitForProcessesUnder(dir);
      const before = whereRaw(placesUnder(home), [vault, weather]);
      assert.ok(before.get(vault)!.includes('shim.db: checkpoints'), 'stored raw at first');

      // 2. The session shows what they are.
      write([
        assistantLine({
          id: 'msg_3',
          ...at(6),
          content: [toolUseBlock('toolu_2', 'Bash', { command: `export VAULT_TOKEN=${vault}` })],
        }),
        toolResultLine({ toolUseId: 'toolu_2', content: '', ...at(7) }),
        assistantLine({
          id: 'msg_4',
          ...at(8),
          content: [toolUseBlock('toolu_3', 'Read', { file_path: join(project, '.env') })],
        }),
        toolResultLine({
          toolUseId: 'toolu_3',
          content: `     1→MODE=prod\n     2→WEATHER_SERVICE=${weather}\n`,
          ...at(9),
        }),
        userPromptLine('thanks, now finish the deploy', at(10)),
      ]);
      hook('PostToolUse', { tool_name: 'Read', tool_input: { file_path: join(project, '.env') } });
      hook('PreCompact', { trigger: 'auto' });
      hook('SessionEnd', { reason: 'other' });
      await waitForProcessesUnder(dir);

      const printed = [
        ['export', sessionId, '-o', join(home, 'exports', 'session.json')],
        ['resume', '--print', '--session', sessionId, '--all'],
        ['list', '--all', '--json'],
      ].map((args) => {
        mkdirSync(join(home, 'exports'), { recursive: true });
        const run = runShim(home, args, { cwd: project });
        assert.equal(run.status, 0, run.stderr);
        return { where: `shim ${args[0]}`, text: run.stdout };
      });
      await waitForProcessesUnder(dir);
      const places = [...placesUnder(home), ...printed];
      const after = whereRaw(places, [vault, weather]);
      assert.deepEqual(after.get(vault), [], `the vault token is raw in ${after.get(vault)}`);
      assert.deepEqual(after.get(weather), [], `the .env value is raw in ${after.get(weather)}`);
      // What stood around the values is kept.
      const everything = places.map((p) => p.text).join('\n');
      assert.match(everything, /please deploy it with \[REDACTED:[\w-]+\] and \[REDACTED:[\w-]+\]/);
      assert.match(everything, /\[REDACTED:secret-file\] \(\.env, 2 lines\)/);
    } finally {
      // The warm look the hooks started leaves on SIGTERM, as at a user's shutdown.
      for (const pid of processesUnder(dir, true)) signalQuietly(pid, 'SIGTERM');
      while (processesUnder(dir, true).length > 0) await new Promise((r) => setTimeout(r, 50));
    }
  });
});
