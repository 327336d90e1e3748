/**
 * shim stats after a compaction run through the hooks as Claude Code 2.1.330 calls them:
 * PreCompact, PostCompact with Claude Code's summary, SessionStart(compact), more work.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import {
  assistantLine,
  toJsonl,
  toolResultLine,
  toolUseBlock,
  userPromptLine,
} from './helpers/transcript-builders.ts';

const FIRST = 'Port the ZEBRA importer to streams and keep the CSV parser strict about quotes.';
const SECOND = 'Then add a --dry-run flag to the importer command and document it in the README.';

describe('shim stats', () => {
  for (const summaryFirst of [true, false])
    test(`counts the restore, its outcome, and what Claude Code's summary dropped${summaryFirst ? '' : ' (its summary kept after the restore)'}`, () => {
      const root = makeTempDir('shim-stats-');
      const home = join(root, 'shim');
      const project = join(root, 'project');
      mkdirSync(project);
      const extra = { sessionId: 'sess-stats', cwd: project, version: '2.1.330' };
      const path = join(root, 'sess-stats.jsonl');
      const step = (n: number, context: number) => [
        assistantLine({
          id: `msg_${n}`,
          extra,
          usage: { input: 10, cacheRead: context, output: 20 },
          content: [
            toolUseBlock(`toolu_${n}`, 'Edit', { file_path: `${project}/src/importer-${n}.ts` }),
          ],
        }),
        toolResultLine({ toolUseId: `toolu_${n}`, content: 'ok', extra }),
      ];
      writeFileSync(
        path,
        toJsonl([
          userPromptLine(FIRST, { extra }),
          ...step(1, 60_000),
          userPromptLine(SECOND, { extra }),
          ...step(2, 120_000),
        ]),
      );
      const hook = (event: string, fields: Record<string, unknown> = {}) => {
        const input = JSON.stringify({
          session_id: 'sess-stats',
          transcript_path: path,
          cwd: project,
          hook_event_name: event,
          ...fields,
        });
        const run = runShim(home, ['hook', event], { input, cwd: project });
        assert.equal(run.status, 0, run.stderr);
      };
      hook('PreCompact', { trigger: 'auto' });
      // Claude Code's summary keeps the newest request only. It may reach shim after the restore:
      // stats then scores it as the dashboard does, never "–".
      const summary = () =>
        hook('PostCompact', { trigger: 'auto', compact_summary: `The user asked: ${SECOND}` });
      if (summaryFirst) summary();
      hook('SessionStart', { source: 'compact' });
      if (!summaryFirst) summary();
      appendFileSync(path, toJsonl([userPromptLine('Go on.', { extra }), ...step(3, 30_000)]));
      const checkpoint = runShim(home, ['checkpoint', '--transcript', path, '--no-snapshot'], {
        cwd: project,
      });
      assert.equal(checkpoint.status, 0, checkpoint.stderr);

      const run = runShim(home, ['stats', '--json'], { cwd: project });
      assert.equal(run.status, 0, run.stderr);
      const stats = JSON.parse(run.stdout) as {
        totals: {
          restores: number;
          restoresSucceeded: number;
          restoreFidelity: number;
          claudeSummaryFidelity: number;
          compactionSummaries: number;
          checkpointsByTrigger: Record<string, number>;
          signalSamples: Record<string, number>;
        };
      };
      const t = stats.totals;
      assert.equal(t.restores, 1);
      assert.equal(t.restoresSucceeded, 1, 'the session went on working after the restore');
      assert.equal(t.compactionSummaries, 1);
      assert.equal(t.restoreFidelity, 1);
      assert.equal(typeof t.claudeSummaryFidelity, 'number', JSON.stringify(t));
      assert.ok(t.claudeSummaryFidelity < t.restoreFidelity, JSON.stringify(t));
      assert.ok(t.checkpointsByTrigger.pre_compact! >= 1);
      assert.ok(Object.values(t.signalSamples).reduce((a, b) => a + b, 0) >= 2);

      const text = runShim(home, ['stats'], { cwd: project });
      assert.match(text.stdout, /restores\s+1: went on working 1/);
      assert.match(text.stdout, /shim's restore 100%/);
      assert.doesNotMatch(text.stdout, /Claude Code's summary –/);

      // A Codex session of the same project: its row and the totals name the agent.
      const rollout = join(
        project,
        'rollout-2026-11-25T10-00-00-01a2140b-6f3a-79f0-b6fd-d2a321939c71.jsonl',
      );
      const line = (type: string, payload: Record<string, unknown>) =>
        JSON.stringify({ timestamp: new Date().toISOString(), type, payload });
      writeFileSync(
        rollout,
        [
          line('session_meta', {
            id: '01a2140b-6f3a-79f0-b6fd-d2a321939c71',
            cwd: project,
            cli_version: '0.169.0',
          }),
          line('event_msg', { type: 'user_message', message: 'port the exporter' }),
        ].join('\n') + '\n',
      );
      const codex = runShim(home, ['checkpoint', '--transcript', rollout, '--no-snapshot'], {
        cwd: project,
      });
      assert.equal(codex.status, 0, codex.stderr);
      const both = JSON.parse(runShim(home, ['stats', '--json'], { cwd: project }).stdout) as {
        totals: { sessionsByAgent: Record<string, number> };
        sessions: Array<{ agent: string }>;
      };
      assert.deepEqual(both.totals.sessionsByAgent, { claude: 1, codex: 1 });
      const table = runShim(home, ['stats'], { cwd: project }).stdout;
      assert.match(table, /Codex CLI 1/);
      assert.match(table, /01a2140b\s+Codex CLI/);
    });
});
