import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  makeHugeCheckpoint,
  makeTypicalCheckpoint,
} from '../../core/checkpoint/checkpoint-fixture.test-helper.ts';
import {
  acceptsCompactInstructions,
  COMPACT_INSTRUCTIONS_MAX_CHARS,
  renderCompactInstructions,
} from './compact-instructions.ts';

describe("instructions for Claude Code's own summary", () => {
  it('only for the versions that append PreCompact output to the summary instructions', () => {
    assert.equal(acceptsCompactInstructions('2.1.330'), true);
    assert.equal(acceptsCompactInstructions('2.1.241'), true);
    assert.equal(acceptsCompactInstructions('2.1.240'), false);
    assert.equal(acceptsCompactInstructions('2.1.39'), false);
    assert.equal(acceptsCompactInstructions(null), false);
  });

  it('quote every request, list every task with its status, the instructions, files and checks', () => {
    const c = {
      ...makeTypicalCheckpoint(),
      toolState: {
        ...makeTypicalCheckpoint().toolState,
        checks: [
          {
            kind: 'test' as const,
            command: 'npm test',
            status: 'passing' as const,
            at: '2026-02-12T04:00:00.000Z',
          },
        ],
      },
    };
    const text = renderCompactInstructions(c);
    for (const r of c.conversationState.userRequests) {
      assert.ok(text.includes(JSON.stringify(r.replace(/\s+/g, ' '))), r);
    }
    for (const i of c.taskState.items)
      assert.ok(text.includes(`[${i.status}] #${i.id} ${i.content}`));
    assert.match(text, /the project instructions in CLAUDE\.md/);
    assert.match(text, /`npm test`: passing/);
    assert.match(text, /^1\. Every one of the user's 3 requests/m);
  });

  it('fit under the cap by abbreviating, never dropping a request', () => {
    const huge = makeHugeCheckpoint();
    const text = renderCompactInstructions(huge);
    assert.ok(text.length <= COMPACT_INSTRUCTIONS_MAX_CHARS, String(text.length));
    huge.conversationState.userRequests.forEach((r, i) =>
      assert.ok(text.includes(`   ${i + 1}. "${r.slice(0, 30)}`), `request ${i + 1}`),
    );
  });
});
