/**
 * EST-002 under the real hook: a request that names a plan which will not fit in the context
 * left gets one note (user and model), once per plan; a plan that fits gets none.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  assistantLine,
  SESSION_ID,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

const STEPS = Array.from({ length: 12 }, (_, i) => `- [ ] Step ${i + 1}: rework module ${i + 1}`);

function project(context: number) {
  const root = makeTempDir('shim-plan-warning-');
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(
    join(root, 'docs', 'plan.md'),
    `# Rework\n\nGoal: all modules.\n\n${STEPS.join('\n')}\n`,
  );
  writeFileSync(join(root, 'docs', 'small.md'), '# Tiny\n\n- [ ] fix the typo\n');
  const transcript = join(root, `${SESSION_ID}.jsonl`);
  writeFileSync(
    transcript,
    toJsonl([
      userPromptLine('Start'),
      assistantLine({
        id: 'msg_1',
        usage: { input: 5, cacheCreation: 0, cacheRead: 20_000, output: 10 },
      }),
      assistantLine({
        id: 'msg_2',
        usage: { input: 5, cacheCreation: 0, cacheRead: context, output: 10 },
      }),
    ]),
  );
  const prompt = (text: string) => {
    const r = spawnSync(process.execPath, [BIN, 'hook', 'UserPromptSubmit'], {
      input: JSON.stringify({
        session_id: SESSION_ID,
        transcript_path: transcript,
        cwd: root,
        hook_event_name: 'UserPromptSubmit',
        prompt: text,
      }),
      encoding: 'utf8',
      env: {
        ...process.env,
        SHIM_HOME: join(root, 'shim'),
        CLAUDE_CONFIG_DIR: join(root, 'no-claude'),
      },
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim() === ''
      ? null
      : (JSON.parse(r.stdout) as {
          systemMessage?: string;
          hookSpecificOutput?: { additionalContext?: string };
        });
  };
  return { prompt };
}

describe('UserPromptSubmit: a plan that will not fit', () => {
  test('one note for the user and the model, with what would fit instead; once per plan', () => {
    // 100k of Claude Code 2.1.39's 167k threshold: ~67k left, less than 12 steps need.
    const { prompt } = project(100_000);
    const out = prompt('Please implement docs/plan.md step by step.');
    assert.match(
      out?.systemMessage ?? '',
      /^shim: docs\/plan\.md needs ~\d+k tokens of context \(80%: /,
    );
    assert.match(
      out?.systemMessage ?? '',
      /are left before compaction\. .*You can proceed anyway\.$/,
    );
    assert.match(
      out?.hookSpecificOutput?.additionalContext ?? '',
      /^\[shim\] The plan docs\/plan\.md is estimated at/,
    );
    assert.equal(prompt('Continue with docs/plan.md')?.systemMessage, undefined, 'once per plan');
  });

  test('a plan that fits, or no plan at all: nothing', () => {
    const { prompt } = project(30_000);
    assert.equal(prompt('Do docs/small.md'), null);
    assert.equal(prompt('Fix the bug in src/a.ts'), null);
    assert.equal(prompt('Read docs/missing.md'), null);
  });
});

describe('PostToolUse: a task list that will not fit', () => {
  test('one note when a task tool leaves more open tasks than the context left holds', () => {
    const root = makeTempDir('shim-task-warning-');
    const transcript = join(root, `${SESSION_ID}.jsonl`);
    const todos = Array.from({ length: 12 }, (_, i) => ({
      content: `Module ${i + 1}`,
      status: 'pending',
      activeForm: `Doing ${i + 1}`,
    }));
    const lines = [
      userPromptLine('Rework every module'),
      assistantLine({
        id: 'msg_1',
        usage: { input: 5, cacheCreation: 0, cacheRead: 100_000, output: 10 },
      }),
      assistantLine({
        id: 'msg_2',
        usage: { input: 5, cacheCreation: 0, cacheRead: 110_000, output: 10 },
        content: [toolUseBlock('toolu_1', 'TodoWrite', { todos })],
      }),
      toolResultLine({ toolUseId: 'toolu_1', content: 'ok' }),
    ];
    writeFileSync(transcript, toJsonl(lines));
    const postToolUse = () => {
      const r = spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
        input: JSON.stringify({
          session_id: SESSION_ID,
          transcript_path: transcript,
          cwd: root,
          hook_event_name: 'PostToolUse',
          tool_name: 'TodoWrite',
          tool_input: { todos },
          tool_response: {},
        }),
        encoding: 'utf8',
        env: { ...process.env, SHIM_HOME: join(root, 'shim'), CLAUDE_CONFIG_DIR: join(root, 'c') },
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim();
    };
    const out = JSON.parse(postToolUse()) as {
      systemMessage?: string;
      hookSpecificOutput?: { additionalContext?: string };
    };
    assert.match(out.systemMessage ?? '', /^shim: the 12 open tasks need ~\d+k tokens of context/);
    assert.match(
      out.hookSpecificOutput?.additionalContext ?? '',
      /^\[shim\] The 12 open tasks are estimated at/,
    );
    assert.equal(postToolUse(), '', 'once per context window');
  });
});
