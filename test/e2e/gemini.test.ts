/**
 * The real Gemini CLI (pinned 0.61.0) offline against a local Gemini API: shim installed into its
 * settings, checkpoints from its hooks, each response's context as the server sent it (`shim
 * replay`), its state carried through a compression and into the next session after a kill -9,
 * an uninstall that gives every byte back, and bad input.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { createScratch, pollUntil, type Scratch } from './claude.ts';
import {
  chatFiles,
  endShellCommand,
  ensureGemini,
  GEMINI_E2E_SKIP,
  readShimLog,
  runGemini,
  shim,
  spawnGemini,
  writeGeminiSettings,
} from './gemini.ts';
import { firstUserText, startMockGemini, type MockGemini } from './mock-gemini.ts';

/** In every restore's heading (its words say what happened: core/resume/resume-prompt.ts). */
const RESTORE_HEAD = ' (shim checkpoint #';

/** A line of code with < and > (Gemini CLI sends hook context with them as &lt; and &gt;). */
const LEXER_LINE = "export const lex = (a: number, b: number) => (a > b ? '<gt>' : '<lt>');";

/** The pid the command killed mid-run writes: a kill -9 of the CLI may leave its shell running. */
const SLOW_PID = 'slow-NUMBAT.pid';

type Listed = { id: string; sessionId: string; triggeredBy: string };

/** The `<hook_context>` block of a request's text that holds shim's restore ('' if none). */
function restoreBlock(text: string): string {
  const blocks = [...text.matchAll(/<hook_context>([\s\S]*?)<\/hook_context>/g)].map((m) => m[1]!);
  return blocks.find((block) => block.includes(RESTORE_HEAD)) ?? '';
}

function checkpoints(scratch: Scratch, shimHome: string): Listed[] {
  const out = shim(scratch, shimHome, ['list', '--all', '--json']);
  if (out.status !== 0) return [];
  return JSON.parse(out.stdout) as Listed[];
}

describe('Gemini CLI end to end', { skip: GEMINI_E2E_SKIP, timeout: 600_000 }, () => {
  before(() => ensureGemini());

  test('install → checkpoints, each context as sent → a compression carries the restore → kill -9 → the next session gets it → uninstall gives every byte back', async () => {
    const scratch = createScratch('shim-gemini-e2e-');
    const shimHome = join(scratch.root, 'shim');
    // 0.02 × 1,048,576 = 20,972 tokens: a compression after the response of 25,000.
    const settingsPath = writeGeminiSettings(scratch, {}, { compressionThreshold: 0.02 });
    const before = readFileSync(settingsPath);
    let mock: MockGemini | null = null;
    try {
      const install = shim(scratch, shimHome, ['install', '--agent', 'gemini']);
      assert.equal(install.status, 0, install.stderr);
      assert.match(readFileSync(settingsPath, 'utf8'), /gemini-hook AfterTool/);
      assert.match(readFileSync(settingsPath, 'utf8'), /gemini-hook BeforeModel/);

      mock = await startMockGemini({
        steps: [
          {
            parts: [
              {
                functionCall: {
                  name: 'write_todos',
                  args: {
                    todos: [
                      { description: 'write the tokenizer', status: 'in_progress' },
                      { description: 'test the tokenizer', status: 'pending' },
                    ],
                  },
                },
              },
            ],
            // Cached tokens are part of the prompt's count, not added to it (shim replay below).
            usage: { promptTokenCount: 12_000, cachedContentTokenCount: 4_000 },
          },
          {
            parts: [
              {
                functionCall: {
                  name: 'write_file',
                  args: { file_path: join(scratch.project, 'tokenizer.txt'), content: 'v1' },
                },
              },
            ],
            usage: { promptTokenCount: 15_000 },
          },
          { parts: [{ text: 'The tokenizer is written.' }], usage: { promptTokenCount: 18_000 } },
          // The second run: a tool call at 19,000, then one at 25,000 (over the threshold).
          {
            parts: [
              {
                functionCall: { name: 'run_shell_command', args: { command: 'echo 2 > two.txt' } },
              },
            ],
            usage: { promptTokenCount: 19_000 },
          },
          {
            parts: [
              {
                functionCall: {
                  name: 'run_shell_command',
                  args: { command: 'echo 3 > three.txt' },
                },
              },
            ],
            usage: { promptTokenCount: 25_000 },
          },
          { parts: [{ text: 'Compressed and done.' }], usage: { promptTokenCount: 9_000 } },
        ],
      });
      const first = await runGemini({
        scratch,
        mock,
        shimHome,
        prompt: 'Write the tokenizer REQ-ONE',
      });
      assert.equal(first.exitCode, 0, first.stderr);
      await pollUntil(() => checkpoints(scratch, shimHome).length > 0, 60_000);
      // The context of every response is the usage the server sent (shim replay --json).
      const [chat] = chatFiles(scratch);
      assert.ok(chat, 'the CLI wrote a chat');
      const replayed = shim(scratch, shimHome, ['replay', chat!, '--json']);
      assert.equal(replayed.status, 0, replayed.stderr);
      const turns = replayed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; contextTokens: number; windowTokens: number })
        .filter((e) => e.kind === 'turn');
      assert.deepEqual(
        turns.map((t) => t.contextTokens),
        mock.mainRequests().map((r) => r.usage!.promptTokenCount),
      );
      assert.ok(turns.every((t) => t.windowTokens === 1_048_576));
      // --agent forces the format; the same objects come out.
      const forced = shim(scratch, shimHome, ['replay', chat!, '--json', '--agent', 'gemini']);
      assert.equal(forced.status, 0, forced.stderr);
      assert.equal(forced.stdout, replayed.stdout);

      const second = await runGemini({
        scratch,
        mock,
        shimHome,
        prompt: 'Now the second part REQ-TWO',
        resume: true,
      });
      assert.equal(second.exitCode, 0, second.stderr);
      const sides = mock.requests.filter((r) => r.kind === 'side');
      assert.ok(
        sides.some((r) => r.text.includes('<state_snapshot>')),
        'the CLI compressed (a snapshot request reached the mock)',
      );
      const afterCompression = mock.mainRequests().at(-1)!;
      assert.ok(
        afterCompression.text.includes(RESTORE_HEAD),
        'the request after the compression carries shim’s restore',
      );
      assert.match(afterCompression.text, /Gemini CLI compacted this conversation/);
      assert.match(afterCompression.text, /write the tokenizer/);
      const replay = shim(scratch, shimHome, ['replay', chatFiles(scratch)[0]!, '--json']);
      assert.match(replay.stdout, /"kind":"compact","line":\d+,"trigger":"auto","preTokens":25000/);

      // kill -9 in the middle of a request: the next session's first request carries the state.
      // A failing command and one after it first (issue 40: where the work was).
      const shell = (command: string, tokens: number) => ({
        parts: [{ functionCall: { name: 'run_shell_command', args: { command } } }],
        usage: { promptTokenCount: tokens },
      });
      mock.reset({
        steps: [
          {
            parts: [
              {
                functionCall: {
                  name: 'write_todos',
                  args: {
                    todos: [
                      { description: 'lex the NUMBAT input', status: 'in_progress' },
                      { description: 'test the NUMBAT lexer', status: 'pending' },
                    ],
                  },
                },
              },
            ],
            usage: { promptTokenCount: 11_000 },
          },
          shell('ls no-such-NUMBAT-dir', 12_000),
          shell('echo lexed-NUMBAT-5', 13_000),
          {
            parts: [
              {
                functionCall: {
                  name: 'write_file',
                  args: { file_path: join(scratch.project, 'lexer.txt'), content: 'x' },
                },
              },
            ],
            usage: { promptTokenCount: 14_000 },
          },
          // Killed while this runs: the CLI writes a call to its chat only once it completes, so
          // only BeforeTool's note knows it (issue 40). The shell records its pid to be ended.
          shell(`echo $$ > ${SLOW_PID} && exec sleep 120 # lex-NUMBAT-all`, 15_000),
          { parts: [{ text: 'never seen' }], usage: { promptTokenCount: 16_000 } },
        ],
      });
      // The project's standing instructions, in the file Gemini CLI reads (issue 39: not CLAUDE.md).
      // An uncommitted change whose diff holds < and >: Gemini CLI escapes every hook's context,
      // and shim's BeforeModel hook gives its restore the characters back (issue 39).
      const git = (...args: string[]) => {
        const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e.x', ...args], {
          cwd: scratch.project,
          encoding: 'utf8',
        });
        assert.equal(run.status, 0, run.stderr);
      };
      const lexerTs = join(scratch.project, 'lexer.ts');
      writeFileSync(lexerTs, 'export const lex = 1;\n');
      git('add', 'lexer.ts');
      git('commit', '-q', '-m', 'the lexer');
      writeFileSync(lexerTs, `${LEXER_LINE}\n`);
      const geminiMd = join(scratch.project, 'GEMINI.md');
      writeFileSync(
        geminiMd,
        '# Team rules\n\n## Lex with numbat-rules\n\nAlways lex with numbat-rules.\n',
      );
      rmSync(join(scratch.home, '.gemini', 'tmp'), { recursive: true, force: true });
      const doomed = spawnGemini({ scratch, mock, shimHome, prompt: 'Write the lexer REQ-THREE' });
      const pidFile = join(scratch.project, SLOW_PID);
      await pollUntil(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
        90_000,
      );
      doomed.kill();
      const killed = await doomed.result;
      assert.equal(killed.signal, 'SIGKILL');
      endShellCommand(pidFile);

      mock.reset({
        steps: [{ parts: [{ text: 'Picked up.' }], usage: { promptTokenCount: 8_000 } }],
      });
      const next = await runGemini({ scratch, mock, shimHome, prompt: 'Carry on REQ-FOUR' });
      assert.equal(next.exitCode, 0, next.stderr);
      const opening = firstUserText(mock.mainRequests()[0]?.body);
      const firstText = mock.mainRequests()[0]!.text;
      assert.ok(
        firstText.includes(RESTORE_HEAD),
        `the first request carries the restore:\n${opening.slice(0, 500)}`,
      );
      assert.match(firstText, /REQ-THREE/);
      assert.match(firstText, /lexer\.txt/);
      // Where it was: the command in flight (from BeforeTool's note: the chat does not hold it),
      // the last commands with their exit status, the newest failure with its output.
      assert.match(firstText, /## Where you were/);
      assert.match(firstText, /\*\*In flight when it stopped\*\*/);
      assert.ok(
        firstText.includes(`${SLOW_PID} && exec sleep 120 # lex-NUMBAT-all`),
        `the command in flight is named:\n${opening.slice(0, 3000)}`,
      );
      assert.match(firstText, /killed with the session/);
      assert.match(firstText, /`echo lexed-NUMBAT-5` → exit 0/);
      assert.match(firstText, /`ls no-such-NUMBAT-dir` → \*\*exit 2\*\*/);
      assert.match(firstText, /\*\*Newest failure\*\* \(run_shell_command, exit 2/);
      assert.match(firstText, /No such file or directory/);
      // Issue 39: a Gemini restore is a Gemini restore. Its own block only (the CLI reads GEMINI.md
      // into its system instruction itself): the agent named, nothing of Claude Code, the project's
      // GEMINI.md carried, the plan as a plan and no raw write_todos JSON.
      const restore = restoreBlock(firstText);
      assert.ok(
        restore.includes(RESTORE_HEAD),
        `the restore's own block:\n${opening.slice(0, 500)}`,
      );
      assert.match(restore, /Gemini CLI/, 'the agent named');
      assert.doesNotMatch(restore, /Claude/, 'nothing of Claude Code');
      assert.match(restore, /GEMINI\.md/, 'the instruction file it reads');
      assert.match(restore, /Lex with numbat-rules/, "GEMINI.md's sections");
      assert.doesNotMatch(restore, /CLAUDE\.md/);
      assert.match(restore, /lex the NUMBAT input — \*\*in progress\*\*/, 'the plan');
      assert.doesNotMatch(restore, /"(?:todos|description|status)"\s*:/, 'no raw write_todos JSON');
      // What reaches the model is the restore as shim wrote it: < and > unescaped.
      assert.ok(restore.includes(`+${LEXER_LINE}`), `the diff, unescaped:\n${restore}`);
      assert.ok(restore.includes(`echo $$ > ${SLOW_PID}`), 'the command in flight, unescaped');
      assert.doesNotMatch(restore, /&(?:gt|lt);/, 'nothing left escaped');
      rmSync(geminiMd);

      const uninstall = shim(scratch, shimHome, ['uninstall', '--agent', 'gemini']);
      assert.equal(uninstall.status, 0, uninstall.stderr);
      assert.deepEqual(readFileSync(settingsPath), before, 'settings.json is back byte for byte');
      assert.doesNotMatch(readShimLog(shimHome), /"level":"error"/);
    } finally {
      await mock?.close();
      scratch.cleanup();
    }
  });

  test('a hook payload with fields shim does not know, or none at all: exit 0, one log line', () => {
    const scratch = createScratch('shim-gemini-bad-');
    const shimHome = join(scratch.root, 'shim');
    try {
      const odd = shim(
        scratch,
        shimHome,
        ['gemini-hook', 'AfterTool'],
        JSON.stringify({
          session_id: 'odd-1',
          hook_event_name: 'AfterTool',
          cwd: scratch.project,
          transcript_path: join(scratch.root, 'missing.jsonl'),
          tool_name: 'brand_new_tool',
          tool_input: { x: 1 },
          a_field_from_a_newer_cli: { nested: [1, 2, 3] },
        }),
      );
      assert.equal(odd.status, 0);
      assert.equal(odd.stdout, '');
      const broken = shim(scratch, shimHome, ['gemini-hook', 'BeforeAgent'], '{"session_id": ');
      assert.equal(broken.status, 0);
      assert.equal(broken.stdout, '');
      const log = readShimLog(shimHome).trim().split('\n');
      assert.equal(log.filter((l) => l.includes('not JSON')).length, 1, log.join('\n'));
      const unknown = shim(scratch, shimHome, ['gemini-hook', 'NoSuchEvent'], '{}');
      assert.equal(unknown.status, 0);
      assert.match(readShimLog(shimHome), /event \\"NoSuchEvent\\" is not one shim handles/);
      assert.ok(!existsSync(join(scratch.home, '.gemini')), 'nothing written outside SHIM_HOME');
    } finally {
      scratch.cleanup();
    }
  });
});
