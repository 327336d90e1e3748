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
  renderRestore,
  restoreHeading,
  USUAL_RESTORE_CHARS,
  type RestoreRequest,
} from './resume-prompt.ts';
import { code, diffStat, fence, oneLine } from './resume-sections.ts';
import { CLAUDE_TARGET, CODEX_TARGET, GEMINI_TARGET } from './restore-target.test-helper.ts';
import type { RestoreTarget } from './restore-target.ts';

/** The restore of `c` into Claude Code (or `target`), as every door renders it. */
function render(
  c: Checkpoint,
  detection: ResumeDetection | null,
  options: Partial<RestoreRequest> = {},
): string {
  return renderRestore({ checkpoint: c, detection, target: CLAUDE_TARGET, ...options });
}

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
const prompt = render(typical, crashDetection(typical));

/** The lines of the markdown section under `heading`, up to the next heading. */
function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 4);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('renderRestore: a typical interrupted session', () => {
  test('quotes every user request verbatim, oldest first, the newest marked', () => {
    let last = -1;
    for (const request of TYPICAL_REQUESTS) {
      const at = prompt.indexOf(request);
      assert.ok(at > last, `request missing or out of order: ${request}`);
      last = at;
    }
    assert.match(prompt, /\*\*3\.\*\* \(most recent\)/);
    assert.match(
      prompt,
      /The user's 3 requests, oldest first \(the last is the most recent\), verbatim:/,
    );
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

  test('names each file changed since the last commit and the other files in play', () => {
    const where = sectionOf(prompt, 'Where you were');
    const changed = where
      .split('\n')
      .find((l) => l.startsWith('**Changed since the last commit**'));
    assert.ok(changed, where);
    assert.match(changed, /\(2\)/);
    for (const file of TYPICAL_MODIFIED) assert.ok(changed.includes(`\`${file}\``), file);
    // A changed file is not listed again among the files merely in play.
    const inPlay =
      where.split('\n').find((l) => l.startsWith('Also read or edited recently')) ?? '';
    assert.ok(inPlay.includes('`README.md`'));
    assert.ok(inPlay.includes('`src/claude/sessions.test.ts`'));
    assert.ok(!inPlay.includes('`src/claude/sessions.ts`'), inPlay);
  });

  test('gives the snapshot ref and the restore command', () => {
    assert.ok(prompt.includes('`refs/shim/snapshots/7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47`'));
    assert.ok(prompt.includes('`shim restore-files 7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47`'));
    assert.ok(prompt.includes('branch `feat/status-json`'));
  });

  test('tells the agent to continue, not restart, and not to ask the user again', () => {
    const how = sectionOf(prompt, 'How to continue');
    assert.match(how, /Carry on from where the work stopped: do not start over/);
    assert.match(how, /Keep the done tasks \(\[x\]\) done/);
    assert.match(how, /do not ask them to repeat anything/);
    assert.match(how, /If your task list is empty, recreate it/);
    assert.match(
      prompt.trimEnd().split('\n').at(-1) ?? '',
      /^Continue now .* without asking the user/,
    );
  });

  test('where you were: the call in flight verbatim, first to check', () => {
    const where = sectionOf(prompt, 'Where you were');
    assert.match(
      where,
      /\*\*Started, no result recorded\*\* \(1 call; each may not have completed\):/,
    );
    assert.ok(where.includes('```sh\nnpm test -- src/claude\n```'), where);
    assert.match(where, /Started at .*, no result recorded: check whether it finished/);
    assert.match(sectionOf(prompt, 'How to continue'), /First check the 1 call in flight/);
  });

  test('where you were: the last commands as lines, newest last, each with how it ended', () => {
    const where = sectionOf(prompt, 'Where you were');
    const lines = where.split('\n').filter((l) => l.startsWith('- `'));
    assert.deepEqual(lines.slice(0, 3), [
      '- `git status --short` → exit 0',
      '- `npm test -- src/claude` → no result yet',
      '- `node --test src/claude/sessions.test.ts` → **exit 1**',
    ]);
    assert.doesNotMatch(where, /\\"|\{"command"/, 'no JSON, no escaping');
  });

  test('where you were: the newest failure verbatim — tool, input, first lines of output', () => {
    const where = sectionOf(prompt, 'Where you were');
    assert.match(where, /\*\*Newest failure\*\* \(Bash, exit 1, 1 call before the checkpoint\):/);
    assert.ok(where.includes('`node --test src/claude/sessions.test.ts`'));
    assert.ok(where.includes('```text\nExit code 1\nAssertionError: expected C--work-repo'), where);
  });

  test('tool activity is tool and target, never raw JSON; commands are not listed twice', () => {
    const activity = sectionOf(prompt, 'Recent tool activity');
    assert.match(activity, /^- Read `src\/claude\/sessions\.ts`$/m);
    assert.match(activity, /^- Edit `src\/claude\/sessions\.ts`$/m);
    const calls = activity.slice(activity.indexOf('Recent tool calls'));
    assert.doesNotMatch(calls, /\{"|node --test/);
  });

  test('carries blockers, decisions, next steps and the transcript path', () => {
    assert.ok(sectionOf(prompt, 'Where you were').includes(typical.taskState.blockers[0] ?? '?'));
    for (const decision of typical.conversationState.keyDecisions) {
      assert.ok(sectionOf(prompt, 'Key decisions').includes(decision), decision);
    }
    assert.match(sectionOf(prompt, 'Next steps'), /^1\. Replace both path separators/m);
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
      'Where you were',
      'What the user asked',
      'Tasks',
      'Next steps',
      'Where the work stands',
      'Key decisions',
      'Uncommitted changes',
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

  test('stays within the usual size', () => {
    assert.ok(prompt.length <= USUAL_RESTORE_CHARS, String(prompt.length));
  });

  test('is deterministic', () => {
    assert.equal(render(typical, crashDetection(typical)), prompt);
  });
});

describe('renderRestore: empty and unusual content', () => {
  const bare: Checkpoint = {
    ...typical,
    conversationState: { ...typical.conversationState, keyDecisions: [], recentMessages: [] },
    taskState: { ...typical.taskState, blockers: [], nextSteps: [], completedSteps: [] },
    toolState: { activeSessions: [], pendingOperations: [], recentToolCalls: [] },
    signals: { ...typical.signals, errorPatterns: [], riskFactors: [] },
    userPreferences: {},
  };

  test('omits empty sections instead of printing "none"', () => {
    const text = render(bare, null);
    for (const heading of ['Key decisions', 'Recent', 'User preferences']) {
      assert.ok(!text.includes(`## ${heading}`), heading);
    }
    assert.doesNotMatch(text, /\bnone\b|\(empty\)/i);
    assert.doesNotMatch(text, /in flight|no result recorded|Last commands|Newest failure/);
  });

  test('without next steps, points at the task in progress and the open tasks after it', () => {
    const text = render(bare, null);
    assert.match(
      sectionOf(text, 'Next steps'),
      /Continue with task #3 “Fix backslash paths in transcript lookup” \(in progress\), then the 2 other open tasks in list order\./,
    );
  });

  test("a restore from the team store says that the other machine's last moments after its checkpoint are unknown", () => {
    const idle: Checkpoint = {
      ...typical,
      toolState: { ...typical.toolState, pendingOperations: [] },
    };
    const team = render(idle, {
      ...crashDetection(idle),
      from: { osUser: 'ana', machine: 'laptop-a' },
    });
    assert.ok(
      team.includes(
        `What ran there after this checkpoint (${idle.createdAt}) is not in the team store: a command still running when that session stopped is not shown here`,
      ),
    );
    assert.doesNotMatch(prompt, /is not in the team store/);
  });

  test('a team checkpoint taken while a command ran shows the command and says the rest is unknown', () => {
    const running: Checkpoint = {
      ...typical,
      toolState: {
        ...typical.toolState,
        pendingOperations: [
          {
            type: 'process',
            id: 'toolu_run',
            description: 'Bash: npm run e2e -- --grep importer',
            command: 'npm run e2e -- --grep importer',
            startedAt: '2026-11-29T01:00:00.000Z',
            resumeWith: 'npm run e2e -- --grep importer',
          },
        ],
      },
    };
    const team = render(running, {
      ...crashDetection(running),
      from: { osUser: 'ana', machine: 'laptop-a' },
    });
    assert.ok(
      team.includes(
        `This checkpoint (${running.createdAt}) was taken while a command ran there (under Where you were); what ran after it is not in the team store`,
      ),
    );
    assert.ok(team.includes('```sh\nnpm run e2e -- --grep importer\n```'));
    assert.doesNotMatch(team, /a command still running when that session stopped is not shown/);
  });

  test('without a detection, it still says where the state comes from', () => {
    const text = render(bare, null);
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
      render(typical, d),
      /compacted this conversation 1 minute ago\. Its summary is lossy/,
    );
  });

  test('without a snapshot there is no restore command, and no task advice without tasks', () => {
    const c: Checkpoint = {
      ...bare,
      taskState: { ...bare.taskState, items: [] },
      fileState: { ...bare.fileState, snapshot: null },
    };
    const text = render(c, null);
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
    const text = render(c, null);
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

describe('renderRestore: bounded by priority', () => {
  const huge = makeHugeCheckpoint();
  const claude = render(huge, crashDetection(huge));
  const gemini = render(huge, crashDetection(huge), { target: GEMINI_TARGET });

  test('the huge checkpoint is within the checkpoint limits (it is realistic, not malformed)', () => {
    assert.deepEqual(validateCheckpoint(huge), { valid: true, errors: [] });
  });

  test("within the target's hook text limit, and only essential parts go past the usual size", () => {
    assert.ok(claude.length <= CLAUDE_TARGET.textLimit, String(claude.length));
    assert.ok(claude.length > USUAL_RESTORE_CHARS, 'the requests take the room they need');
    for (const gone of ['## Recent messages', 'Recent tool calls', '```diff', '## Key decisions'])
      assert.ok(!claude.includes(gone), gone);
  });

  test('where the agent takes more (Gemini CLI), more requests stay whole, and every task', () => {
    const requests = huge.conversationState.userRequests;
    const whole = (text: string) => requests.filter((r) => text.includes(r.trim())).length;
    assert.ok(gemini.length <= GEMINI_TARGET.textLimit, String(gemini.length));
    assert.ok(whole(gemini) > whole(claude), `${whole(gemini)} vs ${whole(claude)}`);
    for (const item of huge.taskState.items)
      assert.match(gemini, new RegExp(`#${item.id}\\b`), item.id);
  });

  test('short of room: the newest request whole, the others by their opening words, every open task, the done ones by number', () => {
    const requests = huge.conversationState.userRequests;
    assert.ok(claude.includes(requests.at(-1)?.trim() ?? '?'));
    for (const r of requests) assert.ok(claude.includes(r.slice(0, 59)), r.slice(0, 60));
    for (const item of huge.taskState.items) {
      if (item.status === 'completed') assert.match(claude, new RegExp(`#${item.id}\\b`), item.id);
      else assert.ok(claude.includes(`#${item.id} ${item.content}`), item.id);
    }
  });

  test('a little short of room: the longest request is cut first, by its head and tail, the cut said', () => {
    const requests = huge.conversationState.userRequests;
    const some: Checkpoint = {
      ...typical,
      conversationState: {
        ...typical.conversationState,
        userRequests: [requests[0]!, 'a short one', requests[1]!, 'newest'],
      },
    };
    const text = render(some, null, { maxChars: 5_500 });
    assert.ok(text.length <= 5_500, String(text.length));
    assert.ok(text.includes('a short one'));
    assert.match(text, /\[… [\d,]+ characters of this request left out here …\]/);
  });

  test('keeps the instructions, the restore command, the calls in flight and the blockers', () => {
    assert.ok(claude.includes(`shim restore-files ${huge.id}`));
    assert.match(claude, /do not start over/);
    assert.ok(claude.includes('Bash: long command 0'));
    assert.ok(claude.includes('Blocker 1'));
  });

  test('a short request is never cut to make room for a long one', () => {
    const c: Checkpoint = {
      ...typical,
      conversationState: {
        ...typical.conversationState,
        userRequests: [
          'short ask number one',
          'y'.repeat(1_400),
          ...Array(12).fill('x'.repeat(700)),
          'newest',
        ],
      },
    };
    const text = render(c, null, { maxChars: 8_000 });
    assert.ok(text.length <= 8_000, String(text.length));
    assert.ok(text.includes('short ask number one'));
    assert.ok(!text.includes('y'.repeat(1_400)), 'the longest is cut first');
  });

  test('an absurd budget is still honoured, with a note saying the text was cut', () => {
    const tiny = render(huge, null, { maxChars: 2_000 });
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
    const out = render(c, null);
    assert.ok(out.length <= USUAL_RESTORE_CHARS, String(out.length));
    assert.ok(out.includes('The newest request.'));
  });
});

describe('renderRestore: the agent it goes into is a value', () => {
  const how = (target: RestoreTarget) =>
    sectionOf(render(typical, null, { target }), 'How to continue');

  test("Gemini CLI's restore names write_todos and no Claude Code tool", () => {
    const text = how(GEMINI_TARGET);
    assert.match(text, /recreate it \(write_todos\)/);
    assert.doesNotMatch(text, /TodoWrite|TaskCreate/);
  });

  test("Codex CLI's names update_plan; Claude Code's both of its tools", () => {
    assert.match(how(CODEX_TARGET), /\(update_plan\)/);
    assert.match(how(CLAUDE_TARGET), /\(TodoWrite or TaskCreate\)/);
  });

  test("into another agent: it says whose session it continues, and names the target's instruction files", () => {
    const text = render(typical, crashDetection(typical), { target: CODEX_TARGET });
    assert.match(
      text,
      /Continued in Codex CLI from a Claude Code session, 4 minutes ago: the tools named below are Claude Code's\./,
    );
    assert.match(text, /the project instructions \(`AGENTS\.md` or `AGENTS\.override\.md`\)/);
    assert.doesNotMatch(render(typical, null), /Continued in/);
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
      firstLine(render(typical, as('compaction'))),
      `# Continuing after compaction (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(render(typical, as('crash'))),
      `# Resuming after a crash (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(render(typical, as('handoff'))),
      `# Picking up your handoff (shim checkpoint #${n})`,
    );
    assert.equal(
      firstLine(render(typical, as('handoff'), { afterClear: true })),
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
