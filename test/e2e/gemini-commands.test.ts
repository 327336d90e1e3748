/**
 * shim's custom commands under the pinned real Gemini CLI (0.61.0), offline against the local
 * Gemini API: `shim install --agent gemini` writes them, `/defer` and `/handoff` typed as the
 * prompt run shim (the `!{…}` of the .toml) and what shim answered reaches the model, with its
 * effect in SHIM_HOME; uninstall takes them out and gives settings.json back byte for byte.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { createScratch } from './claude.ts';
import {
  ensureGemini,
  GEMINI_E2E_SKIP,
  readShimLog,
  runGemini,
  shim,
  writeGeminiSettings,
} from './gemini.ts';
import { startMockGemini, type MockGemini } from './mock-gemini.ts';

type Listed = { checkpointNumber: number; sessionId: string; reason: string | null };

describe('Gemini CLI: shim’s custom commands', { skip: GEMINI_E2E_SKIP, timeout: 600_000 }, () => {
  before(() => ensureGemini());

  test('/defer and /handoff run shim inside the session; the model gets its answer; uninstall removes them', async () => {
    const scratch = createScratch('shim-gemini-cmd-');
    const shimHome = join(scratch.root, 'shim');
    const settingsPath = writeGeminiSettings(scratch);
    const settingsBefore = readFileSync(settingsPath);
    const commands = join(scratch.home, '.gemini', 'commands');
    let mock: MockGemini | null = null;
    try {
      const install = shim(scratch, shimHome, ['install', '--agent', 'gemini']);
      assert.equal(install.status, 0, install.stderr);
      assert.match(install.stdout, /\+ command \/handoff/);
      assert.deepEqual(readdirSync(commands).sort(), [
        'checkpoint.toml',
        'defer.toml',
        'handoff.toml',
        'loop.toml',
        'shard.toml',
      ]);

      mock = await startMockGemini({
        steps: [
          {
            parts: [
              {
                functionCall: {
                  name: 'write_todos',
                  args: {
                    todos: [
                      { description: 'write the QUOKKA parser', status: 'in_progress' },
                      { description: 'test the QUOKKA parser', status: 'pending' },
                    ],
                  },
                },
              },
            ],
            usage: { promptTokenCount: 12_000 },
          },
          { parts: [{ text: 'Started on the parser.' }], usage: { promptTokenCount: 13_000 } },
          { parts: [{ text: 'Notices held.' }], usage: { promptTokenCount: 14_000 } },
          { parts: [{ text: 'Handoff written.' }], usage: { promptTokenCount: 15_000 } },
        ],
      });
      const work = await runGemini({ scratch, mock, shimHome, prompt: 'Write the QUOKKA parser' });
      assert.equal(work.exitCode, 0, work.stderr);

      // /defer: the command's shell runs `shim slash defer ''`; its answer is the prompt.
      const defer = await runGemini({ scratch, mock, shimHome, prompt: '/defer', resume: true });
      assert.equal(defer.exitCode, 0, defer.stderr);
      const deferSent = mock.mainRequests()[2]!.text;
      assert.match(deferSent, /shim: L1\/L2 notices held until .*QUOKKA/, deferSent.slice(-2000));
      assert.match(deferSent, /Above is shim's answer/);
      assert.doesNotMatch(deferSent, /exited with code/);
      const deferrals = readdirSync(join(shimHome, 'cache', 'hooks')).filter((f) =>
        f.endsWith('.defer.json'),
      );
      assert.equal(deferrals.length, 1, 'the deferral is kept for the session');

      // A Claude Code session of the same directory, written after it: /handoff typed in Gemini
      // still means the Gemini session.
      const claudeDir = join(
        scratch.home,
        '.claude',
        'projects',
        scratch.project.replace(/[^a-zA-Z0-9]/g, '-'),
      );
      mkdirSync(claudeDir, { recursive: true });
      const claudeId = randomUUID();
      writeFileSync(
        join(claudeDir, `${claudeId}.jsonl`),
        `${JSON.stringify({ type: 'user', sessionId: claudeId, cwd: scratch.project, timestamp: new Date().toISOString(), uuid: randomUUID(), parentUuid: null, message: { role: 'user', content: 'something else' } })}\n`,
      );
      // Newer than anything the Gemini run writes.
      const later = new Date(Date.now() + 3_600_000);
      utimesSync(join(claudeDir, `${claudeId}.jsonl`), later, later);

      // /handoff: a checkpoint now, and the handoff of it; the model is told where it went.
      const handoff = await runGemini({
        scratch,
        mock,
        shimHome,
        prompt: '/handoff',
        resume: true,
      });
      assert.equal(handoff.exitCode, 0, handoff.stderr);
      const handoffSent = mock.mainRequests()[3]!.text;
      const said =
        /checkpoint #(\d+) saved\nhandoff for checkpoint #\1 of session \S+ written to (\S+)/.exec(
          handoffSent,
        );
      assert.ok(said, handoffSent.slice(-2000));
      assert.match(readFileSync(said[2]!, 'utf8'), /QUOKKA parser/);
      const listed = shim(scratch, shimHome, ['list', '--all', '--json']);
      assert.equal(listed.status, 0, listed.stderr);
      const rows = JSON.parse(listed.stdout) as Listed[];
      assert.ok(
        rows.some(
          (r) => r.checkpointNumber === Number(said[1]) && r.sessionId === handoff.sessionId,
        ),
        listed.stdout,
      );

      const uninstall = shim(scratch, shimHome, ['uninstall', '--agent', 'gemini']);
      assert.equal(uninstall.status, 0, uninstall.stderr);
      assert.match(uninstall.stdout, /- command \/handoff/);
      assert.equal(existsSync(commands), false, 'shim made commands/ and took it away again');
      assert.deepEqual(readFileSync(settingsPath), settingsBefore, 'settings.json byte for byte');
      assert.doesNotMatch(readShimLog(shimHome), /"level":"error"/);
    } finally {
      await mock?.close();
      scratch.cleanup();
    }
  });
});
