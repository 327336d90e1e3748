/**
 * The real Codex CLI (pinned, offline against test/e2e/openai-mock.ts) with shim installed through
 * `shim install --agent codex`: hooks trusted, checkpoints taken, the restore injected after a
 * compaction and after a kill -9, the rollout's context per response exactly what the mock sent,
 * and uninstall giving back every byte of the user's files.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runShim } from '../helpers/cli.ts';
import { pollUntil } from './claude.ts';
import {
  CODEX_E2E_SKIP,
  createCodexScratch,
  developerTexts,
  listRolloutFiles,
  readBytes,
  runCodex,
  spawnCodex,
  type CodexScratch,
} from './codex.ts';
import { startOpenAiMock, type OpenAiMock } from './openai-mock.ts';

/** A restore's first line names why (core/resume/resume-prompt.ts restoreHeading) and the checkpoint. */
const RESTORE_HEAD = /^# [A-Z][^\n]* \(shim checkpoint #\d+\)/;

function shim(scratch: CodexScratch, args: string[]) {
  return runShim(scratch.shimHome, args, { env: scratch.env, cwd: scratch.project });
}

describe('Codex CLI with shim installed', { skip: CODEX_E2E_SKIP, timeout: 300_000 }, () => {
  let mock: OpenAiMock;
  let scratch: CodexScratch;
  let configBefore: Buffer | null;
  let hooksBefore: Buffer | null;

  before(async () => {
    mock = await startOpenAiMock({ steps: [] });
    scratch = createCodexScratch(mock, { compactLimit: 20_000 });
    configBefore = readBytes(join(scratch.codexHome, 'config.toml'));
    hooksBefore = readBytes(join(scratch.codexHome, 'hooks.json'));
    const install = shim(scratch, ['install', '--agent', 'codex', '--json']);
    assert.equal(install.status, 0, install.stderr);
    assert.equal(JSON.parse(install.stdout).agent, 'codex');
  });
  after(async () => {
    await mock.close();
    scratch.cleanup();
  });

  test('installing again changes nothing (idempotent), also as a dry run', () => {
    const hooks = readBytes(join(scratch.codexHome, 'hooks.json'));
    const config = readBytes(join(scratch.codexHome, 'config.toml'));
    for (const args of [['--dry-run'], []]) {
      const again = shim(scratch, ['install', '--agent', 'codex', '--json', ...args]);
      assert.equal(again.status, 0, again.stderr);
      assert.equal(JSON.parse(again.stdout).changed, false);
    }
    assert.deepEqual(readBytes(join(scratch.codexHome, 'hooks.json')), hooks);
    assert.deepEqual(readBytes(join(scratch.codexHome, 'config.toml')), config);
  });

  test('a compaction: checkpoints with the plan, the next request carries the restore, contexts exact', async () => {
    mock.reset({
      steps: [
        {
          calls: [
            {
              name: 'update_plan',
              arguments: {
                plan: [
                  { step: 'write out.txt', status: 'in_progress' },
                  { step: 'run the tests', status: 'pending' },
                ],
              },
            },
          ],
          usage: { input: 12_000, output: 40 },
        },
        {
          calls: [{ name: 'exec_command', arguments: { cmd: 'echo hi > out.txt' } }],
          usage: { input: 18_000, output: 60, cached: 10_000 },
        },
        {
          calls: [
            {
              name: 'apply_patch',
              input: '*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n',
            },
          ],
          usage: { input: 25_000, output: 80 },
        },
        { text: 'Done.', usage: { input: 9_000, output: 20 } },
      ],
      summary: { text: 'Summary: out.txt written, notes.txt added.', usage: { input: 6_000 } },
    });
    const run = await runCodex(scratch, ['make out.txt and keep notes']);
    assert.equal(run.exitCode, 0, run.stderr.slice(-2000));

    const kinds = mock.requests.map((r) => r.kind);
    const compactAt = kinds.indexOf('compaction');
    assert.ok(compactAt > 0, `Codex compacted: ${kinds.join(', ')}`);
    const after = mock.requests[compactAt + 1];
    assert.ok(after, 'a request followed the compaction');
    const restore = developerTexts(after.body).find((t) => RESTORE_HEAD.test(t));
    assert.ok(restore, "the request after the compaction carries shim's restore");
    assert.match(restore, /Codex CLI compacted this conversation/);
    assert.match(restore, /make out\.txt and keep notes/);
    assert.match(restore, /write out\.txt — \*\*in progress\*\*/);
    assert.match(restore, /notes\.txt/);
    // No restore before the compaction: a fresh session of a fresh project has nothing to restore.
    for (const r of mock.requests.slice(0, compactAt))
      assert.ok(!developerTexts(r.body).some((t) => RESTORE_HEAD.test(t)));

    // The rollout's context per response is exactly what the mock sent (input + output), the
    // compaction's own summary response is not one of them.
    const [rollout] = listRolloutFiles(scratch);
    const replay = shim(scratch, ['replay', rollout!, '--json']);
    assert.equal(replay.status, 0, replay.stderr);
    const events = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const turns = events.filter((e) => e.kind === 'turn');
    const sent = mock.requests
      .filter((r) => r.kind !== 'compaction' && r.usage)
      .map((r) => r.usage!.input + (r.usage!.output ?? 50));
    assert.deepEqual(
      turns.map((t) => t.contextTokens),
      sent,
    );
    assert.equal(events.filter((e) => e.kind === 'compact').length, 1);
    for (const t of turns) {
      assert.equal(t.windowTokens, 258_400);
      assert.equal(t.compactThreshold, 20_000);
    }

    const list = shim(scratch, ['list', '--json']);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /codex|make out\.txt/);
  });

  test('kill -9 mid-request: the next session of the project starts with the restore', async () => {
    mock.reset({
      steps: [
        {
          calls: [
            {
              name: 'update_plan',
              arguments: { plan: [{ step: 'migrate the schema', status: 'in_progress' }] },
            },
          ],
          usage: { input: 8_000 },
        },
        { text: 'never sent', usage: { input: 9_000 }, delayMs: 120_000 },
      ],
    });
    const dying = spawnCodex(scratch, ['migrate the users table to the new schema']);
    await mock.waitForRequests(2);
    dying.kill();
    await dying.done;

    mock.reset({ steps: [{ text: 'Picking up.', usage: { input: 7_000 } }] });
    const next = await runCodex(scratch, ['carry on']);
    assert.equal(next.exitCode, 0, next.stderr.slice(-2000));
    const first = mock.requests.find((r) => r.kind !== 'compaction');
    assert.ok(first);
    const restore = developerTexts(first.body).find((t) => RESTORE_HEAD.test(t));
    assert.ok(restore, "the new session's first request carries shim's restore");
    assert.match(restore, /migrate the users table to the new schema/);
    assert.match(restore, /migrate the schema/);
  });

  test('kill -9 mid-command: the next first request says where it was — the interrupted command, the one before it, the newest failure (issue 40)', async () => {
    mock.reset({
      steps: [
        {
          calls: [
            {
              name: 'update_plan',
              arguments: {
                plan: [
                  { step: 'stage the WOMBAT export', status: 'in_progress' },
                  { step: 'check the WOMBAT archive', status: 'pending' },
                ],
              },
            },
          ],
        },
        { calls: [{ name: 'exec_command', arguments: { cmd: 'ls no-such-WOMBAT-dir' } }] },
        { calls: [{ name: 'exec_command', arguments: { cmd: 'echo staged-WOMBAT-4' } }] },
        { calls: [{ name: 'exec_command', arguments: { cmd: 'sleep 60' } }] },
        { text: 'never sent', delayMs: 120_000 },
      ],
    });
    // The project's standing instructions, in the file Codex reads (issue 39: not CLAUDE.md).
    const agentsMd = join(scratch.project, 'AGENTS.md');
    writeFileSync(
      agentsMd,
      '# Team rules\n\n## Stage with wombat-pack\n\nAlways stage with wombat-pack.\n',
    );
    const known = new Set(listRolloutFiles(scratch));
    const dying = spawnCodex(scratch, ['stage the WOMBAT-4 export']);
    // Killed once the rollout holds the call: the command runs (Codex writes the call first).
    await pollUntil(() => {
      const rollout = listRolloutFiles(scratch).find((p) => !known.has(p));
      return rollout && readFileSync(rollout, 'utf8').includes('sleep 60') ? true : null;
    }, 60_000);
    dying.kill();
    await dying.done;

    mock.reset({ steps: [{ text: 'Picking up.', usage: { input: 7_000 } }] });
    const next = await runCodex(scratch, ['carry on']);
    assert.equal(next.exitCode, 0, next.stderr.slice(-2000));
    const first = mock.requests.find((r) => r.kind !== 'compaction');
    assert.ok(first);
    const restore = developerTexts(first.body).find((t) => RESTORE_HEAD.test(t));
    assert.ok(restore, "the new session's first request carries shim's restore");
    assert.match(restore, /## Where you were/);
    assert.match(restore, /```sh\nsleep 60\n```/, 'the interrupted command, verbatim');
    assert.match(restore, /`echo staged-WOMBAT-4` → exit 0/, 'the command before it');
    assert.match(restore, /`ls no-such-WOMBAT-dir`/, 'the failed command');
    assert.match(restore, /No such file or directory/, "the failure's output");
    // Issue 39: a Codex restore is a Codex restore, with its project's AGENTS.md.
    assert.doesNotMatch(restore, /Claude/, 'nothing of Claude Code');
    assert.match(restore, /Codex CLI/, 'the agent named');
    assert.match(restore, /Stage with wombat-pack/, "AGENTS.md's instructions");
    assert.match(restore, /stage the WOMBAT export — \*\*in progress\*\*/, 'the plan, as a plan');
    assert.doesNotMatch(restore, /"(?:plan|explanation|step)"\s*:/, 'no raw update_plan JSON');
    rmSync(agentsMd);
  });

  test('shim status and shim doctor in this Codex-only home: exit 0, the Codex session named (issue 39)', () => {
    assert.ok(!existsSync(join(scratch.home, '.claude')), 'no Claude Code in this home');
    // The newest session of the project: the one the kill -9 test carried on in.
    const newest = listRolloutFiles(scratch)
      .map((path) => ({ path, at: statSync(path).mtimeMs }))
      .sort((a, b) => a.at - b.at)
      .at(-1)!.path;
    const sessionId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(
      newest,
    )?.[1];
    assert.ok(sessionId, newest);

    const text = shim(scratch, ['status']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Codex CLI/);
    assert.doesNotMatch(text.stdout, /Claude/, text.stdout);
    const json = shim(scratch, ['status', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const status = JSON.parse(json.stdout) as { agent: string; sessionId: string | null };
    assert.deepEqual(
      { agent: status.agent, sessionId: status.sessionId },
      { agent: 'codex', sessionId },
    );

    const doctor = shim(scratch, ['doctor']);
    assert.equal(doctor.status, 0, `${doctor.stdout}\n${doctor.stderr}`);
    const report = shim(scratch, ['doctor', '--json']);
    assert.equal(report.status, 0, report.stderr);
    const checks = (JSON.parse(report.stdout) as { checks: { id: string; status: string }[] })
      .checks;
    const ids = checks.map((c) => c.id);
    for (const claude of ['hooks', 'hook-runs', 'statusline', 'mcp', 'mod'])
      assert.ok(!ids.includes(claude), `no Claude Code line "${claude}": ${ids.join(', ')}`);
    for (const codex of ['codex-hooks', 'codex-trust', 'codex-mcp'])
      assert.equal(checks.find((c) => c.id === codex)?.status, 'ok', codex);
  });

  test('doctor tells trusted hooks from untrusted ones, which Codex skips without a word', async () => {
    const doctor = () => {
      const run = shim(scratch, ['doctor', '--json']);
      const checks = (
        JSON.parse(run.stdout) as { checks: { id: string; status: string; fix: string | null }[] }
      ).checks;
      return Object.fromEntries(checks.map((c) => [c.id, c]));
    };
    const installed = doctor();
    assert.equal(installed['codex-trust']?.status, 'ok');
    assert.equal(installed['codex-hooks']?.status, 'ok');
    assert.equal(installed['codex-mcp']?.status, 'ok');

    // config.toml without shim's trust entries: the hooks are still in hooks.json.
    const configPath = join(scratch.codexHome, 'config.toml');
    const trusted = readBytes(configPath)!;
    const untrusted = trusted
      .toString('utf8')
      .replace(/\[hooks\.state\.[^\n]+\]\ntrusted_hash = "[^"]+"\n*/g, '');
    writeFileSync(configPath, untrusted);
    try {
      const trust = doctor()['codex-trust'];
      assert.equal(trust?.status, 'fail');
      assert.match(trust!.fix!, /\[hooks\.state\.".*hooks\.json:session_start:\d+:0"\]/);
      // Codex runs, and none of shim's hooks does: SessionStart would note the session in the
      // hooks' memory (store/cache/hook-memory.ts), every hook would write there.
      const memory = join(scratch.shimHome, 'cache', 'hooks');
      const noted = () => (existsSync(memory) ? readdirSync(memory).sort() : []);
      const before = noted();
      mock.reset({ steps: [{ text: 'Nobody watching.', usage: { input: 5_000 } }] });
      const run = await runCodex(scratch, ['say hi']);
      assert.equal(run.exitCode, 0, run.stderr.slice(-2000));
      assert.ok(mock.requests.length > 0, 'Codex ran against the mock');
      assert.deepEqual(noted(), before, 'no hook of shim ran');
    } finally {
      writeFileSync(configPath, trusted);
    }
    assert.equal(doctor()['codex-trust']?.status, 'ok');
    // Trusted again, the same run is seen by shim's hooks.
    const memory = join(scratch.shimHome, 'cache', 'hooks');
    const before = readdirSync(memory).length;
    mock.reset({ steps: [{ text: 'Watched.', usage: { input: 5_000 } }] });
    const run = await runCodex(scratch, ['say hi']);
    assert.equal(run.exitCode, 0, run.stderr.slice(-2000));
    assert.ok(readdirSync(memory).length > before, "shim's hooks ran");
  });

  test('uninstall gives back config.toml and hooks.json byte for byte', () => {
    const result = shim(scratch, ['uninstall', '--agent', 'codex']);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readBytes(join(scratch.codexHome, 'config.toml')), configBefore);
    assert.deepEqual(readBytes(join(scratch.codexHome, 'hooks.json')), hooksBefore);
  });
});
