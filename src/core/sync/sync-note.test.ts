import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeTypicalCheckpoint } from '../checkpoint/checkpoint-fixture.test-helper.ts';
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { renderSyncComment, syncKey, syncMarker, syncMomentOf } from './sync-note.ts';

const at = (
  trigger: Checkpoint['triggeredBy'],
  level: string,
  overrides: Partial<Checkpoint> = {},
) => {
  const base = makeTypicalCheckpoint();
  return { ...base, triggeredBy: trigger, ...overrides, source: { ...base.source, level } };
};

describe('what reaches the tracker', () => {
  test('the moments: L2 and L3, a compaction, a loop restart, a session ending with open tasks', () => {
    assert.equal(syncMomentOf(at('danger_zone', 'L2')), 'L2');
    assert.equal(syncMomentOf(at('danger_zone', 'L3')), 'L3');
    assert.equal(syncMomentOf(at('danger_zone', 'L0')), null, 'crash risk alone is not one');
    assert.equal(syncMomentOf(at('pre_compact', 'L1')), 'compaction');
    assert.equal(syncMomentOf(at('loop_restart', 'L1')), 'loop_restart');
    assert.equal(syncMomentOf(at('session_end', 'L0')), 'session_end');
    const finished = at('session_end', 'L0');
    finished.taskState.items = finished.taskState.items.map((t) => ({ ...t, status: 'completed' }));
    assert.equal(syncMomentOf(finished), null);
    for (const trigger of [
      'tool_call_interval',
      'time_interval',
      'milestone',
      'warning_zone',
    ] as const)
      assert.equal(syncMomentOf(at(trigger, 'L2')), null, trigger);
  });

  test("one key per session's L2, per compaction; the marker hides it and cannot end the comment early", () => {
    const issue = { tracker: 'linear' as const, key: 'ANV-1' };
    const a = at('danger_zone', 'L2');
    const b = { ...at('danger_zone', 'L2'), id: 'another-checkpoint' };
    assert.equal(syncKey(issue, 'L2', a), syncKey(issue, 'L2', b));
    assert.notEqual(syncKey(issue, 'compaction', a), syncKey(issue, 'compaction', b));
    assert.equal(syncMarker('a--b'), '<!-- shim-sync a- -b -->');
  });

  test('the comment: headline, done, open, next steps, files, how to continue, the marker', () => {
    const checkpoint = at('danger_zone', 'L2');
    checkpoint.source.contextTokens = 150_300;
    checkpoint.source.compactThreshold = 167_000;
    const body = renderSyncComment({
      issue: { tracker: 'github', key: '42', repo: 'acme/api' },
      moment: 'L2',
      checkpoint,
      key: 'k1',
      handoffPath: '/home/ana/.shim/handoffs/x.md',
    });
    assert.match(
      body,
      /^### shim checkpoint #\d+: context at L2 \(90% of the auto-compact threshold\)\n\nacme\/api#42 · session `/,
    );
    assert.match(body, /\*\*Done\*\*\n- Add --json flag to shim status\n- Exit code 2 at level L3/);
    assert.match(
      body,
      /\*\*Open\*\*\n- Fix backslash paths in transcript lookup \(in progress\)\n- Document --json/,
    );
    assert.match(body, /\*\*Changed files\*\* \(2\): `src\/cli\/commands\/status.ts`/);
    assert.match(body, /shim restores checkpoint `[0-9a-f-]{8}` by itself/);
    assert.match(body, /Handoff \(local\): `\/home\/ana\/.shim\/handoffs\/x.md`/);
    assert.ok(body.endsWith('<!-- shim-sync k1 -->'));
  });
});
