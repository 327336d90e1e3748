/**
 * Work that moves between agents, with the real CLIs offline against their mocks, in one project
 * and one SHIM_HOME: a Claude Code session killed (-9) mid-task → a Codex CLI session's first
 * request carries its requests, open tasks and files, saying where they came from; then a Codex
 * session killed mid-task → a Gemini CLI session's first request carries it. The assertions read
 * what reached each mock, never shim's own output.
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/cross-agent
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  installShimHooks,
  killWhenTranscriptHas,
  runClaude,
  spawnClaude,
  type Scratch,
} from './claude.ts';
import { startMockApi, type MockApi } from './mock-api.ts';
import {
  CODEX_E2E_SKIP,
  createCodexScratch,
  developerTexts,
  runCodex,
  spawnCodex,
  type CodexScratch,
} from './codex.ts';
import { startOpenAiMock, type OpenAiMock } from './openai-mock.ts';
import { ensureGemini, GEMINI_E2E_SKIP, runGemini, shim, writeGeminiSettings } from './gemini.ts';
import { startMockGemini, type MockGemini } from './mock-gemini.ts';

const skip = E2E_SKIP || CODEX_E2E_SKIP || GEMINI_E2E_SKIP || claudeInstallProblem() || false;

const CLAUDE_FIRST = 'Please build the ZEBRA-42 importer and keep the CSV parser strict.';
const CLAUDE_FOLLOW_UP = 'Also make the QUOKKA-7 export reuse the same parser.';
const CODEX_REQUEST = 'Migrate the WOMBAT-9 users table to the new schema.';
/** In every restore's heading (core/resume/resume-prompt.ts). */
const RESTORE_HEAD = '(shim checkpoint #';
/** "Continued in <target> from a <agent> session, <n> <unit> ago: …" (core/resume/sections/situation.ts). */
const continuedFrom = (agent: string, target: string) =>
  new RegExp(`Continued in ${target} from a ${agent} session, \\d+ (?:second|minute)s? ago:`);
const TOOLS = ['--tools', 'Bash,Read,Write,TaskCreate,TaskUpdate'];

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command } }],
});
const taskCreate = (subject: string) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'TaskCreate',
      input: { subject, description: `${subject} (details)`, activeForm: subject },
    },
  ],
});
const taskUpdate = (taskId: string, status: string) => ({
  content: [{ type: 'tool_use' as const, name: 'TaskUpdate', input: { taskId, status } }],
});

describe('work moving between agents (real CLIs)', { skip, timeout: 600_000 }, () => {
  let scratch: Scratch;
  let shimHome: string;
  let codex: CodexScratch;
  let claudeMock: MockApi;
  let openAi: OpenAiMock;
  let gemini: MockGemini;

  before(async () => {
    ensureGemini();
    scratch = createScratch('shim-e2e-cross-');
    // Claude Code's hooks run with HOME only: their SHIM_HOME is the default, ~/.shim.
    shimHome = join(scratch.home, '.shim');
    claudeMock = await startMockApi({ steps: [] });
    openAi = await startOpenAiMock({ steps: [] });
    gemini = await startMockGemini({ steps: [] });
    installShimHooks(scratch);
    // A command that runs long enough to be killed mid-way.
    writeFileSync(join(scratch.project, 'slow.sh'), 'sleep 60\n');
    codex = createCodexScratch(openAi, { shared: { ...scratch, shimHome } });
    const codexInstall = shim(scratch, shimHome, ['install', '--agent', 'codex'], undefined, {
      CODEX_HOME: codex.codexHome,
    });
    assert.equal(codexInstall.status, 0, codexInstall.stderr);
    writeGeminiSettings(scratch);
    const geminiInstall = shim(scratch, shimHome, ['install', '--agent', 'gemini']);
    assert.equal(geminiInstall.status, 0, geminiInstall.stderr);
  });
  after(async () => {
    await Promise.all([claudeMock?.close(), openAi?.close(), gemini?.close()]);
    scratch?.cleanup();
  });

  test('a Claude Code session killed mid-task: the next Codex session starts with its work', async () => {
    claudeMock.reset({
      steps: [
        taskCreate('Parse the CSV header strictly'),
        {
          content: [
            {
              type: 'tool_use' as const,
              name: 'Write',
              input: {
                file_path: join(scratch.project, 'importer.js'),
                content: 'export const strict = true;\n',
              },
            },
          ],
        },
      ],
      final: { content: [{ type: 'text', text: 'First part done.' }] },
    });
    const first = await runClaude({ scratch, mock: claudeMock, prompt: CLAUDE_FIRST, args: TOOLS });
    assert.equal(first.exitCode, 0, describeRun(first));

    // The follow-up request in the same session, which dies while a long command runs.
    claudeMock.reset({
      steps: [
        taskUpdate('1', 'in_progress'),
        taskCreate('Write the QUOKKA-7 export tests'),
        bash('sh slow.sh'),
      ],
      final: { content: [{ type: 'text', text: 'never reached' }] },
    });
    const killed = spawnClaude({
      scratch,
      mock: claudeMock,
      prompt: CLAUDE_FOLLOW_UP,
      args: [...TOOLS, '--continue'],
    });
    await killWhenTranscriptHas(killed, 'sh slow.sh', shimHome);

    openAi.reset({ steps: [{ text: 'Picking up the importer.', usage: { input: 7_000 } }] });
    const run = await runCodex(codex, ['carry on']);
    assert.equal(run.exitCode, 0, run.stderr.slice(-2000));
    const firstRequest = openAi.requests.find((r) => r.kind !== 'compaction');
    assert.ok(firstRequest, 'Codex sent a request');
    const restore = developerTexts(firstRequest.body).find((t) => t.includes(RESTORE_HEAD));
    assert.ok(restore, "Codex's first request carries the Claude Code session's restore");
    assert.match(restore, continuedFrom('Claude Code', 'Codex CLI'));
    for (const needle of [
      CLAUDE_FIRST,
      CLAUDE_FOLLOW_UP,
      'Parse the CSV header strictly — **in progress**',
      'Write the QUOKKA-7 export tests',
      'importer.js',
      'sh slow.sh',
    ])
      assert.ok(restore.includes(needle), `the restore names ${needle}:\n${restore}`);
    // Codex rebuilds the list with its own plan tool, not Claude Code's task tools.
    assert.match(restore, /task list is empty, recreate it \(update_plan\)/);
  });

  test('a Codex session killed mid-task: the next Gemini session starts with its work', async () => {
    openAi.reset({
      steps: [
        {
          calls: [
            {
              name: 'update_plan',
              arguments: {
                plan: [
                  { step: 'write the WOMBAT-9 migration', status: 'in_progress' },
                  { step: 'backfill the users', status: 'pending' },
                ],
              },
            },
          ],
          usage: { input: 8_000 },
        },
        {
          calls: [
            {
              name: 'apply_patch',
              input:
                '*** Begin Patch\n*** Add File: migration.sql\n+ALTER TABLE users;\n*** End Patch\n',
            },
          ],
          usage: { input: 9_000 },
        },
        { text: 'never sent', usage: { input: 10_000 }, delayMs: 120_000 },
      ],
    });
    const dying = spawnCodex(codex, [CODEX_REQUEST]);
    await openAi.waitForRequests(3);
    dying.kill();
    await dying.done;

    gemini.reset({
      steps: [{ parts: [{ text: 'Picked up.' }], usage: { promptTokenCount: 8_000 } }],
    });
    const next = await runGemini({ scratch, mock: gemini, shimHome, prompt: 'Carry on' });
    assert.equal(next.exitCode, 0, next.stderr.slice(-2000));
    const firstRequest = gemini.mainRequests()[0];
    assert.ok(firstRequest, 'Gemini sent a request');
    const at = firstRequest.text.lastIndexOf('\n# ', firstRequest.text.indexOf(RESTORE_HEAD));
    assert.ok(at >= 0, 'the first request carries the restore');
    const text = firstRequest.text.slice(at);
    assert.match(text, continuedFrom('Codex CLI', 'Gemini CLI'));
    for (const needle of [
      CODEX_REQUEST,
      'write the WOMBAT-9 migration — **in progress**',
      'backfill the users',
      'migration.sql',
    ])
      assert.ok(text.includes(needle), `the restore names ${needle}`);
    assert.match(text, /task list is empty, recreate it \(write_todos\)/);

    // `shim checkpoint --agent codex` in the project: Codex's newest session of it, not Gemini's.
    const saved = shim(
      scratch,
      shimHome,
      ['checkpoint', '--agent', 'codex', '--no-snapshot', '--json'],
      undefined,
      { CODEX_HOME: codex.codexHome },
    );
    assert.equal(saved.status, 0, saved.stderr);
    const { checkpointId } = JSON.parse(saved.stdout) as { checkpointId: string };
    const shown = shim(scratch, shimHome, ['show', checkpointId]);
    assert.match(shown.stdout, /Migrate the WOMBAT-9 users table/);
    assert.match(shown.stdout, /Codex CLI/);
  });
});
