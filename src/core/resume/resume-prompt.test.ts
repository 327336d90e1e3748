import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { validateCheckpoint } from '../checkpoint/checkpoint-limits.ts';
import {
  makeHugeCheckpoint,
  makeTypicalCheckpoint,
  TYPICAL_MODIFIED,
  TYPICAL_REQUESTS,
  TYPICAL_TASKS,
} from '../checkpoint/checkpoint-fixture.test-helper.ts';
import { detectResume, toResumeCheckpointInfo, type ResumeDetection } from './resume.ts';
import {
  DEFAULT_RESUME_PROMPT_MAX_CHARS,
  renderResumePrompt,
  restoreHeading,
} from './resume-prompt.ts';
import { code, diffStat, fence, oneLine } from './resume-sections.ts';

const NOW = Date.parse('2026-02-12T04:14:00.000Z');

function crashDetection(c: Checkpoint): ResumeDetection {
  return detectResume({
    checkpoint: toResumeCheckpointInfo(c, null),
    sessionEnded: null,
    compactedAfter: false,
    lastActivityAt: '2026-02-12T04:10:05.000Z',
    promptTooLong: true,
    now: NOW,
  });
}

const typical = makeTypicalCheckpoint();
const prompt = renderResumePrompt(typical, crashDetection(typical));

/** The lines of the markdown section under `heading`, up to the next heading. */
function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 4);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('renderResumePrompt: a typical interrupted session', () => {
  test('quotes every user request verbatim, oldest first, the newest marked', () => {
    let last = -1;
    for (const request of TYPICAL_REQUESTS) {
      const at = prompt.indexOf(request);
      assert.ok(at > last, `request missing or out of order: ${request}`);
      last = at;
    }
    assert.match(prompt, /\*\*Request 3 of 3\*\* \(most recent\)/);
  });

  test('lists every task with its status, and counts them', () => {
    assert.match(prompt, /5 tasks: 2 completed, 1 in progress, 2 pending\./);
    const lines = prompt.split('\n');
    for (const task of TYPICAL_TASKS) {
      const line = lines.find((l) => l.includes(`#${task.id} ${task.content}`));
      assert.ok(line, `task ${task.id} missing`);
      if (task.status === 'completed') assert.ok(line.startsWith('- [x] '), line);
      else assert.ok(line.startsWith('- [ ] '), line);
      if (task.status === 'in_progress') assert.ok(line.endsWith('**in progress**'), line);
    }
  });

  test('names each modified file and the other files in play', () => {
    const files = sectionOf(prompt, 'Files');
    for (const file of TYPICAL_MODIFIED) assert.ok(files.includes(`- \`${file}\``), file);
    assert.ok(files.includes('`src/claude/sessions.test.ts`'));
    // A modified file is not listed again among the files merely in play.
    const inPlay = files.slice(files.indexOf('Also in play'));
    assert.ok(inPlay.includes('`README.md`'));
    assert.ok(!inPlay.slice(0, inPlay.indexOf('\n\n')).includes('`src/claude/sessions.ts`'));
  });

  test('gives the snapshot ref and the restore command', () => {
    assert.ok(prompt.includes('`refs/shim/snapshots/7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47`'));
    assert.ok(prompt.includes('`shim restore-files 7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47`'));
    assert.ok(prompt.includes('branch `feat/status-json`'));
  });

  test('tells the agent to continue, not restart, and not to ask the user again', () => {
    const how = sectionOf(prompt, 'How to continue');
    assert.match(how, /Continue the work from where it stopped\. Do not start over/);
    assert.match(how, /Do not redo completed tasks/);
    assert.match(how, /Do not ask the user to repeat/);
    assert.match(how, /recreate it from the list below/);
    assert.match(
      prompt.trimEnd().split('\n').at(-1) ?? '',
      /^Continue now .* without asking the user/,
    );
  });

  test('flags the pending operation as possibly unfinished, to be verified first', () => {
    const pending = sectionOf(prompt, 'Pending operations: check these first');
    assert.match(pending, /may not have completed/);
    assert.ok(pending.includes('Bash: npm test -- src/claude'));
    assert.ok(pending.includes('`toolu_01PendingBashNpmTest`'));
    assert.match(sectionOf(prompt, 'How to continue'), /First verify the 1 pending operation/);
  });

  test('carries blockers, decisions, next steps, the recent tool error and the transcript path', () => {
    assert.ok(sectionOf(prompt, 'Blockers').includes(typical.taskState.blockers[0] ?? '?'));
    for (const decision of typical.conversationState.keyDecisions) {
      assert.ok(sectionOf(prompt, 'Key decisions').includes(decision), decision);
    }
    assert.match(sectionOf(prompt, 'Next steps'), /^1\. Replace both path separators/m);
    assert.match(prompt, /\*\*Bash\*\* .* → AssertionError: expected C--work-repo/);
    assert.ok(prompt.includes(`\`${typical.source.transcriptPath}\``));
    assert.ok(prompt.includes('Never commit without asking.'));
  });

  test('explains the interruption: reason, when, the checkpoint, the detector', () => {
    const head = prompt.slice(0, prompt.indexOf('\n## '));
    assert.match(head, /crashed 4 minutes ago/);
    assert.match(head, /checkpoint #4 .* trigger `warning_zone`, context at 86%/);
    assert.match(head, /Detection \(confidence 0\.9\): The session hit "Prompt is too long"/);
  });

  test('the sections come in a fixed order', () => {
    const order = [
      'How to continue',
      'What the user asked',
      'Tasks',
      'Pending operations: check these first',
      'Blockers',
      'Next steps',
      'Where the work stands',
      'Key decisions',
      'Files',
      'User preferences',
      'Recent tool activity',
      'Recent messages',
    ];
    const positions = order.map((h) => prompt.indexOf(`\n## ${h}\n`));
    assert.ok(
      positions.every((p) => p > 0),
      JSON.stringify(positions),
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
  });

  test('a user message already quoted as a request is not repeated under recent messages', () => {
    const recent = sectionOf(prompt, 'Recent messages');
    assert.ok(recent.includes('**assistant**'));
    assert.ok(!recent.includes(TYPICAL_REQUESTS[2] ?? '?'));
  });

  test('stays small: well under the default budget', () => {
    assert.ok(prompt.length < 10_000, String(prompt.length));
  });

  test('is deterministic', () => {
    assert.equal(renderResumePrompt(typical, crashDetection(typical)), prompt);
  });
});

describe('renderResumePrompt: empty and unusual content', () => {
  const bare: Checkpoint = {
    ...typical,
    conversationState: { ...typical.conversationState, keyDecisions: [], recentMessages: [] },
    taskState: { ...typical.taskState, blockers: [], nextSteps: [], completedSteps: [] },
    toolState: { activeSessions: [], pendingOperations: [], recentToolCalls: [] },
    signals: { ...typical.signals, errorPatterns: [], riskFactors: [] },
    userPreferences: {},
  };

  test('omits empty sections instead of printing "none"', () => {
    const text = renderResumePrompt(bare, null);
    for (const heading of [
      'Blockers',
      'Key decisions',
      'Pending operations',
      'Recent',
      'User preferences',
    ]) {
      assert.ok(!text.includes(`## ${heading}`), heading);
    }
    assert.doesNotMatch(text, /\bnone\b|\(empty\)/i);
    assert.doesNotMatch(text, /pending operation/);
  });

  test('without next steps, points at the task in progress and the open tasks after it', () => {
    const text = renderResumePrompt(bare, null);
    assert.match(
      sectionOf(text, 'Next steps'),
      /Continue with task #3 “Fix backslash paths in transcript lookup” \(in progress\), then the 2 other open tasks in list order\./,
    );
  });

  test('without a detection, it still says where the state comes from', () => {
    const text = renderResumePrompt(bare, null);
    assert.match(text, /This continues work that shim saved in a checkpoint\./);
    assert.doesNotMatch(text, /Detection/);
  });

  test('after a compaction, the exact state is said to override the lossy summary', () => {
    const d = detectResume({
      checkpoint: toResumeCheckpointInfo(typical, null),
      sessionEnded: null,
      compactedAfter: true,
      lastActivityAt: '2026-02-12T04:13:00.000Z',
      promptTooLong: false,
      now: NOW,
    });
    assert.match(
      renderResumePrompt(typical, d),
      /compacted this conversation 1 minute ago\. Its summary is lossy/,
    );
  });

  test('without a snapshot there is no restore command, and no task advice without tasks', () => {
    const c: Checkpoint = {
      ...bare,
      taskState: { ...bare.taskState, items: [] },
      fileState: { ...bare.fileState, snapshot: null },
    };
    const text = renderResumePrompt(c, null);
    assert.doesNotMatch(text, /shim restore-files/);
    assert.match(text, /No git snapshot was saved with this checkpoint/);
    assert.doesNotMatch(text, /## Tasks|completed tasks/);
  });

  test('a request containing a code fence stays verbatim inside a longer fence', () => {
    const request = 'Run this:\n```ts\nconst x = 1;\n```\nand ````four```` too';
    const c: Checkpoint = {
      ...typical,
      conversationState: { ...typical.conversationState, userRequests: [request] },
    };
    const text = renderResumePrompt(c, null);
    assert.ok(text.includes(`\`\`\`\`\`text\n${request}\n\`\`\`\`\``));
    assert.match(text, /The user's request, verbatim:/);
  });

  test('markdown helpers: fences and code spans cannot be closed by their content', () => {
    assert.equal(fence('a'), '```\na\n```');
    assert.equal(fence('x ``` y', 'diff'), '````diff\nx ``` y\n````');
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`a'), '`` `a ``');
    assert.equal(oneLine(' a \n  b\r\nc '), 'a b c');
  });

  test('diffStat counts added and removed lines per file', () => {
    assert.deepEqual(diffStat(typical.fileState.uncommittedDiff), [
      { file: 'src/cli/commands/status.ts', added: 3, removed: 0 },
      { file: 'src/claude/sessions.ts', added: 1, removed: 1 },
    ]);
  });
});

describe('renderResumePrompt: bounded', () => {
  const huge = makeHugeCheckpoint();
  // The budget before the default came down to 12,000 (every request by its opening words).
  const text = renderResumePrompt(huge, crashDetection(huge), { maxChars: 24_000 });

  test('the huge checkpoint is within the checkpoint limits (it is realistic, not malformed)', () => {
    assert.deepEqual(validateCheckpoint(huge), { valid: true, errors: [] });
  });

  test('stays under a budget of 24,000 characters', () => {
    assert.ok(text.length <= 24_000, String(text.length));
    assert.ok(text.length > 20_000, 'the budget is used, not wasted');
  });

  test('stays under the default budget of 12,000 characters with every request by its opening words', () => {
    assert.equal(DEFAULT_RESUME_PROMPT_MAX_CHARS, 12_000);
    const fitted = renderResumePrompt(huge, crashDetection(huge));
    assert.ok(fitted.length <= 12_000, String(fitted.length));
    assert.ok(fitted.length > 10_000, 'the budget is used, not wasted');
    for (const request of huge.conversationState.userRequests) {
      assert.ok(fitted.includes(request.slice(0, 60)), request.slice(0, 60));
    }
    assert.ok(fitted.includes(huge.conversationState.userRequests.at(-1) ?? '?'));
  });

  test('still contains every user request verbatim and every task', () => {
    for (const request of huge.conversationState.userRequests) assert.ok(text.includes(request));
    for (const item of huge.taskState.items) {
      assert.ok(text.includes(`#${item.id} ${item.content}`), item.id);
    }
  });

  test('keeps the instructions, the restore command, pending operations and blockers', () => {
    assert.ok(text.includes(`shim restore-files ${huge.id}`));
    assert.match(text, /Do not start over/);
    assert.ok(text.includes('## Pending operations: check these first'));
    assert.ok(text.includes('## Blockers'));
  });

  test('cuts the least important sections first: messages, tool calls, the diff', () => {
    assert.ok(!text.includes('## Recent messages'));
    assert.ok(!text.includes('Last tool calls'));
    assert.ok(!text.includes('```diff'));
  });

  test('a tighter budget shrinks the older requests and the task text but keeps every task and the newest request', () => {
    const tight = renderResumePrompt(huge, null, { maxChars: 12_000 });
    assert.ok(tight.length <= 12_000, String(tight.length));
    assert.ok(tight.includes(huge.conversationState.userRequests.at(-1) ?? '?'));
    assert.match(
      tight,
      /\*\*Request 1 of 10\*\* \(first \d+ characters; the full text is in the transcript\)/,
    );
    for (const item of huge.taskState.items) assert.ok(tight.includes(`#${item.id} `), item.id);
  });

  test('an absurd budget is still honoured, with a note saying the text was cut', () => {
    const tiny = renderResumePrompt(huge, null, { maxChars: 2_000 });
    assert.ok(tiny.length <= 2_000, String(tiny.length));
    assert.match(tiny, /cut to fit 2000 characters; the full state is in checkpoint/);
  });

  test('an unlimited checkpoint (never passed through the limits) is bounded too', () => {
    const c: Checkpoint = {
      ...typical,
      conversationState: {
        ...typical.conversationState,
        userRequests: ['x'.repeat(50_000), 'The newest request.'],
      },
      fileState: {
        ...typical.fileState,
        uncommittedDiff: 'diff --git a/a b/a\n+y\n'.repeat(10_000),
      },
    };
    const out = renderResumePrompt(c, null);
    assert.ok(out.length <= DEFAULT_RESUME_PROMPT_MAX_CHARS, String(out.length));
    assert.ok(out.includes('The newest request.'));
  });
});

describe('renderResumePrompt: the task tool it names is the restoring agent’s', () => {
  const typical = makeTypicalCheckpoint();
  const how = (taskTools?: readonly string[]) =>
    sectionOf(
      renderResumePrompt(typical, null, taskTools ? { taskTools } : undefined),
      'How to continue',
    );

  test("Gemini CLI's restore names write_todos and no Claude Code tool", () => {
    const text = how(['write_todos']);
    assert.match(text, /recreate it from the list below \(write_todos\)/);
    assert.doesNotMatch(text, /TodoWrite|TaskCreate/);
  });

  test("Codex CLI's names update_plan; Claude Code's both of its tools", () => {
    assert.match(how(['update_plan']), /\(update_plan\)/);
    assert.match(how(['TodoWrite', 'TaskCreate']), /\(TodoWrite or TaskCreate\)/);
  });

  test('with no agent given, it names no tool at all', () => {
    const text = how();
    assert.match(text, /\(your task-list tool\)/);
    assert.doesNotMatch(text, /TodoWrite|TaskCreate|write_todos|update_plan/);
  });
});

describe('the heading says what happened', () => {
  const as = (reason: ResumeDetection['interruptionReason']): ResumeDetection => ({
    ...crashDetection(typical),
    interruptionReason: reason,
  });
  const firstLine = (text: string) => text.split('\n')[0];

  test('a compaction, a crash, a handoff, a handoff after /clear: each its own first line', () => {
    const n = typical.checkpointNumber;
    assert.equal(
      firstLine(renderResumePrompt(typical, as('compaction'))),
      `# Continuing after compaction (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(renderResumePrompt(typical, as('crash'))),
      `# Resuming after a crash (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(renderResumePrompt(typical, as('handoff'))),
      `# Picking up your handoff (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(renderResumePrompt(typical, as('handoff'), { afterClear: true })),
      `# Picking up your handoff after /clear (shim checkpoint #${n})`,
    );
  });

  test('every reason has a heading of its own; "interrupted" only where the cause is unknown', () => {
    const reasons = [
      'compaction',
      'crash',
      'timeout',
      'manual_exit',
      'handoff',
      'unknown',
    ] as const;
    const headings = reasons.map((r) => restoreHeading(7, r));
    assert.equal(new Set(headings).size, reasons.length);
    assert.deepEqual(
      headings.filter((h) => h.includes('interrupted')),
      ['# Resuming interrupted work (shim checkpoint #7)'],
    );
    assert.equal(restoreHeading(7, null), '# Resuming interrupted work (shim checkpoint #7)');
  });
});
