/**
 * What a restore prints goes into the next session's first request: it holds no value any
 * session of the home has learned is a secret, whatever the restored checkpoint stored (issue 38).
 * Through the built binary as Claude Code runs it: session A mentions a value bare (stored raw —
 * nothing says what it is) and the user writes a handoff of it; session B, unrelated to A, shows
 * the value is a secret; the next session picks up A's handoff at startup.
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
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';
import { B62, madeUp } from '../src/redact/made-up.test-helper.ts';

const { gen } = madeUp(0x7e57);

describe('a restore prints no value the home learned is a secret', () => {
  test('a handoff stored before another session learned the value', async () => {
    const dir = makeTempDir('shim-restore-learned-');
    const home = join(dir, 'shim');
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
    const value = gen(B62, 40);
    const at = (n: number) => ({ timestamp: new Date(Date.UTC(2026, 1, 1, 10, n)).toISOString() });
    const session = (entries: unknown[]) => {
      const id = randomUUID();
      const transcript = join(dir, `${id}.jsonl`);
      writeFileSync(transcript, '');
      appendFileSync(
        transcript,
        toJsonl(entries.map((e) => ({ ...(e as object), sessionId: id, cwd: project }))),
      );
      const hook = (event: string, extra: Record<string, unknown> = {}) => {
        const run = runShim(home, ['hook', event], {
          cwd: project,
          input: JSON.stringify({
            session_id: id,
            transcript_path: transcript,
            cwd: project,
            hook_event_name: event,
            ...extra,
          }),
        });
        assert.equal(run.status, 0, run.stderr);
        return run.stdout;
      };
      return { id, hook };
    };
    try {
      // A: the value bare in a request; checkpointed as it stands, then handed off.
      const a = session([userPromptLine(`please deploy the release with ${value} today`, at(0))]);
      a.hook('SessionStart', { source: 'startup' });
      a.hook('UserPromptSubmit', { prompt: `please deploy the release with ${value} today` });
      a.hook('PreCompact', { trigger: 'auto' });
      a.hook('SessionEnd', { reason: 'other' });
      await waitForProcessesUnder(dir);
      const handoff = runShim(home, ['handoff', '--session', a.id], { cwd: project });
      assert.equal(handoff.status, 0, handoff.stderr);
      assert.ok(
        whereRaw(placesUnder(home), [value]).get(value)!.includes('shim.db: checkpoints'),
        'stored raw at first',
      );

      // B: another session of the home shows what the value is.
      const b = session([
        userPromptLine('set up the deploy environment', at(1)),
        assistantLine({
          id: 'msg_b1',
          ...at(2),
          content: [toolUseBlock('toolu_b1', 'Bash', { command: `export DEPLOY_TOKEN=${value}` })],
        }),
        toolResultLine({ toolUseId: 'toolu_b1', content: '', ...at(3) }),
      ]);
      b.hook('PostToolUse', {
        tool_name: 'Bash',
        tool_input: { command: `export DEPLOY_TOKEN=${value}` },
        tool_response: { stdout: '', stderr: '', interrupted: false },
      });
      b.hook('PreCompact', { trigger: 'auto' });
      b.hook('SessionEnd', { reason: 'other' });
      await waitForProcessesUnder(dir);

      // The next session starts: A's handoff is restored into its first request.
      const printed = session([]).hook('SessionStart', { source: 'startup' });
      await waitForProcessesUnder(dir);
      assert.match(printed, /please deploy the release with \[REDACTED:[\w-]+\] today/);
      assert.ok(!printed.includes(value), 'the restore printed the value another session learned');
    } finally {
      for (const pid of processesUnder(dir, true)) signalQuietly(pid, 'SIGTERM');
      while (processesUnder(dir, true).length > 0) await new Promise((r) => setTimeout(r, 50));
    }
  });
});
