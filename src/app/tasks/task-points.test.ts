import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import {
  compactBoundaryLine,
  toJsonl,
  toolCallLines,
  twoTodos,
  userPromptLine,
} from '../../../test/helpers/transcript-builders.ts';
import { readTaskTimeline } from './task-points.ts';
import { claudeAgent } from '../../../test/helpers/agents.ts';

describe('readTaskTimeline', () => {
  test('each change with open tasks, and what finishing them spent (a compaction is no growth)', async () => {
    const path = join(makeTempDir('shim-task-points-'), 'session.jsonl');
    writeFileSync(
      path,
      toJsonl([
        userPromptLine('Build the parser'),
        ...toolCallLines(1, 20_000, 'TodoWrite', twoTodos('pending', 'pending')), // lines 2–3
        ...toolCallLines(2, 25_000, 'Read', { file_path: '/src/a.ts' }), // +5k
        ...toolCallLines(3, 30_000, 'TodoWrite', twoTodos('completed', 'in_progress')), // +5k: first done
        compactBoundaryLine({ trigger: 'auto', preTokens: 30_000 }), // line 8
        ...toolCallLines(4, 35_000, 'Read', { file_path: '/src/b.ts' }), // a new window: no growth
        ...toolCallLines(5, 43_000, 'TodoWrite', twoTodos('completed', 'completed')), // +8k: all done
      ]),
    );
    const timeline = await readTaskTimeline(path, claudeAgent);
    assert.deepEqual(
      timeline.points.map((p) => [p.line, p.openTasks, p.actual]),
      [
        [2, 2, 18_000],
        [6, 1, 8_000],
      ],
    );
    assert.deepEqual(timeline.now.open, []);
    // Each task's own span: the first was never marked in progress (from its first sight), the
    // second from "in_progress" (line 6) to "completed", the compaction between adding nothing.
    assert.deepEqual([...timeline.taskTokens.values()], [10_000, 8_000]);
    assert.deepEqual(timeline.points[0]!.keys.length, 2);
    assert.equal(timeline.points[1]!.context, 30_000);
    const earlier = await readTaskTimeline(path, claudeAgent, { untilLine: 7 });
    assert.deepEqual(earlier.now.open, ['Write the tests']);
    assert.equal(earlier.now.line, 7);
    assert.equal(earlier.points[1]!.actual, undefined, 'not finished by line 7');
  });
});
