import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import {
  makeHugeCheckpoint,
  makeTypicalCheckpoint,
  TYPICAL_MODIFIED,
  TYPICAL_REQUESTS,
  TYPICAL_TASKS,
} from '../checkpoint/checkpoint-fixture.test-helper.ts';
import {
  DEFAULT_HANDOFF_MAX_CHARS,
  renderFrontMatter,
  renderHandoff,
  yamlScalar,
} from './handoff.ts';
import { detectResume, toResumeCheckpointInfo, type ResumeDetection } from './resume.ts';
import { renderRestore } from './resume-prompt.ts';
import { CLAUDE_TARGET } from './restore-target.test-helper.ts';

type Scalar = string | number | boolean | null;

/**
 * Parses the subset of YAML the handoff writes: `---`, then one `key: value` per line, `---`.
 * Values are null, true/false, numbers, JSON-escaped double-quoted strings or plain words.
 * Anything else fails the test.
 */
function parseFrontMatter(doc: string): { fields: Record<string, Scalar>; body: string } {
  const lines = doc.split('\n');
  assert.equal(lines[0], '---');
  const end = lines.indexOf('---', 1);
  assert.ok(end > 0, 'front-matter not closed');
  const fields: Record<string, Scalar> = {};
  for (const line of lines.slice(1, end)) {
    const m = /^([a-z_]+): (.*)$/.exec(line);
    assert.ok(m, `not a key: value line: ${line}`);
    const [, key = '', raw = ''] = m;
    assert.ok(!(key in fields), `duplicate key ${key}`);
    let value: Scalar;
    if (raw === 'null') value = null;
    else if (raw === 'true' || raw === 'false') value = raw === 'true';
    else if (/^-?\d+(?:\.\d+)?$/.test(raw)) value = Number(raw);
    else if (raw.startsWith('"')) value = JSON.parse(raw) as string;
    else {
      assert.match(raw, /^[A-Za-z_][A-Za-z0-9_./-]*$/, `unsafe plain scalar: ${raw}`);
      value = raw;
    }
    fields[key] = value;
  }
  return { fields, body: lines.slice(end + 1).join('\n') };
}

const NOW = Date.parse('2026-02-12T04:14:00.000Z');

function crash(c: Checkpoint): ResumeDetection {
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
const doc = renderHandoff(typical, crash(typical));

describe('renderHandoff: front-matter', () => {
  test('carries the checkpoint metadata as simple key: value YAML', () => {
    const { fields } = parseFrontMatter(doc);
    assert.deepEqual(
      {
        checkpoint_id: fields.checkpoint_id,
        session_id: fields.session_id,
        checkpoint_number: fields.checkpoint_number,
        created_at: fields.created_at,
        session_date: fields.session_date,
        session_time: fields.session_time,
        trigger: fields.trigger,
        level: fields.level,
        context_percent: fields.context_percent,
        branch: fields.branch,
        head: fields.head,
        snapshot_ref: fields.snapshot_ref,
        interruption_reason: fields.interruption_reason,
        should_resume: fields.should_resume,
        tasks_open: fields.tasks_open,
      },
      {
        checkpoint_id: typical.id,
        session_id: typical.sessionId,
        checkpoint_number: 4,
        created_at: '2026-02-12T04:10:00.000Z',
        session_date: '2026-02-12',
        session_time: '04:10',
        trigger: 'warning_zone',
        level: 'L2',
        context_percent: 86,
        branch: 'feat/status-json',
        head: '3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c',
        snapshot_ref: 'refs/shim/snapshots/7f3c2a9e-1b4d-4c8e-9a6f-2d5e8b1c0a47',
        interruption_reason: 'crash',
        should_resume: true,
        tasks_open: 3,
      },
    );
  });

  test('escapes a branch name with a colon, quotes and a hash, and a title with a newline', () => {
    const branch = 'fix: "quoted" #42 \\ path';
    const c = makeTypicalCheckpoint();
    c.fileState = {
      ...c.fileState,
      branch,
      snapshot: c.fileState.snapshot && { ...c.fileState.snapshot, branch },
    };
    const text = renderHandoff(c, null, { title: 'two\nlines: yes' });
    const { fields } = parseFrontMatter(text);
    assert.equal(fields.branch, branch);
    assert.equal(fields.title, 'two lines: yes');
    assert.ok(text.includes('branch: "fix: \\"quoted\\" #42 \\\\ path"'));
  });

  test('without a detection or a snapshot, those fields are null', () => {
    const c = makeTypicalCheckpoint();
    c.fileState = { ...c.fileState, snapshot: null };
    const { fields } = parseFrontMatter(renderHandoff(c, null));
    assert.equal(fields.snapshot_ref, null);
    assert.equal(fields.interruption_reason, null);
    assert.equal(fields.branch, 'feat/status-json');
  });

  test('the issue the session works on: in the front matter and under the title (HND-003)', () => {
    const c = makeTypicalCheckpoint();
    const without = renderHandoff(c, null);
    assert.doesNotMatch(without, /^issue/m, 'no issue, no lines');
    const text = renderHandoff(c, null, {
      issue: {
        name: 'ANV-123',
        title: 'Status --json',
        state: 'In Progress',
        url: 'https://linear.app/acme/issue/ANV-123',
        lastNote: 'shim checkpoint #3: context at L2 (87% of the auto-compact threshold)',
      },
    });
    const { fields } = parseFrontMatter(text);
    assert.equal(fields.issue, 'ANV-123');
    assert.equal(fields.issue_state, 'In Progress');
    assert.match(
      text,
      /\n\nIssue: ANV-123 "Status --json" \(In Progress\) — https:\/\/linear.app\/acme\/issue\/ANV-123\nLast checkpoint note on it: shim checkpoint #3: context at L2/,
    );
    // Not read from the tracker yet: the name alone.
    const bare = renderHandoff(c, null, {
      issue: { name: '#42', title: null, state: null, url: null, lastNote: null },
    });
    assert.match(bare, /\n\nIssue: #42\n\n/);
  });

  test('yamlScalar: plain only when nothing else can be read into it', () => {
    assert.equal(yamlScalar('danger_zone'), 'danger_zone');
    assert.equal(yamlScalar('refs/shim/snapshots/abc-1'), 'refs/shim/snapshots/abc-1');
    for (const s of [
      'yes',
      'No',
      'null',
      'true',
      '~',
      '123',
      '1e5',
      '2026-01-07',
      '',
      ' x',
      '-x',
      '.inf',
    ]) {
      assert.ok(yamlScalar(s).startsWith('"'), `${s} must be quoted`);
      assert.equal(JSON.parse(yamlScalar(s)), s);
    }
    assert.equal(yamlScalar(null), 'null');
    assert.equal(yamlScalar(false), 'false');
    assert.equal(yamlScalar(86.5), '86.5');
    assert.equal(yamlScalar(Number.NaN), 'null');
  });

  test('yamlScalar: control characters, DEL, C1, line separators and BOM are escaped', () => {
    const s = 'a\tb\u0000c\u007fd\u0085e\u2028f\ufeffg';
    const out = yamlScalar(s);
    for (const ch of out) {
      const n = ch.charCodeAt(0);
      const unsafe = n < 0x20 || (n >= 0x7f && n <= 0x9f) || [0x2028, 0x2029, 0xfeff].includes(n);
      assert.ok(!unsafe, `unescaped U+${n.toString(16)}`);
    }
    assert.equal(JSON.parse(out), s);
  });

  test('renderFrontMatter fences the lines', () => {
    assert.equal(
      renderFrontMatter([
        ['a', 1],
        ['b', 'x y'],
      ]),
      '---\na: 1\nb: "x y"\n---',
    );
  });
});

describe('renderHandoff: the document', () => {
  const { body } = parseFrontMatter(doc);

  test('is titled from the operation', () => {
    assert.match(body, /^\n# Session handoff: shim status --json, L3 exit code, Windows paths\n/);
  });

  test('has the sections a human expects, in order', () => {
    const order = [
      'Summary',
      'Goal: what the user asked',
      'Progress & tasks',
      'Where you were',
      'Files',
      'Decisions',
      'Blockers',
      'Next steps',
      'User preferences',
      'Recent activity',
      'How to continue',
    ];
    const positions = order.map((h) => body.indexOf(`\n## ${h}\n`));
    assert.ok(
      positions.every((p) => p > 0),
      JSON.stringify(positions),
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
  });

  test('carries the same content as the resume prompt: requests, tasks, files, restore command, instructions', () => {
    for (const r of TYPICAL_REQUESTS) assert.ok(body.includes(r), r);
    for (const t of TYPICAL_TASKS) assert.ok(body.includes(`#${t.id} ${t.content}`), t.content);
    for (const f of TYPICAL_MODIFIED) assert.ok(body.includes(`\`${f}\``), f);
    assert.ok(body.includes(`\`shim restore-files ${typical.id}\``));
    assert.match(body, /do not start over/);
    assert.match(body, /no result recorded/);
    for (const d of typical.conversationState.keyDecisions) assert.ok(body.includes(d), d);
  });

  test('shares its section formatting with the resume prompt', () => {
    const prompt = renderRestore({
      checkpoint: typical,
      detection: crash(typical),
      target: CLAUDE_TARGET,
    });
    const tasks = body.slice(body.indexOf('5 tasks:'), body.indexOf('\n\nDone so far'));
    assert.ok(tasks.length > 100);
    assert.ok(prompt.includes(tasks));
    const where = body.slice(body.indexOf('**Started, no result'), body.indexOf('\n\n## Files'));
    assert.ok(where.length > 100);
    assert.ok(prompt.includes(where), where);
  });

  test('shows the diff in full (up to the checkpoint limit), unlike the prompt', () => {
    assert.ok(body.includes('```diff'));
    assert.ok(body.includes(typical.fileState.uncommittedDiff.trimEnd()));
  });

  test('lists the context to reload when given (HND-005), and by default the project instructions and files in play', () => {
    assert.match(body, /## Context to reload\n\nRe-read before continuing:\n- /);
    for (const file of typical.fileState.modifiedFiles.slice(0, 3)) {
      assert.ok(body.includes(`- \`${file.replace(/ \(new\)$/, '')}\``), file);
    }
    const text = renderHandoff(typical, null, {
      contextToReload: ['CLAUDE.md §2.3 Error handling', 'docs/spec.md'],
    });
    assert.match(
      text,
      /## Context to reload\n\nRe-read before continuing:\n- CLAUDE.md §2.3 Error handling\n- docs\/spec.md/,
    );
  });

  test('falls back to the newest request, then the session, for its title', () => {
    const c = makeTypicalCheckpoint();
    c.taskState = { ...c.taskState, operation: '' };
    c.conversationState = { ...c.conversationState, currentContext: '' };
    assert.match(
      renderHandoff(c, null),
      /# Session handoff: The CI failed on Windows: paths with backslashes break the transcript lookup. F…\n/,
    );
    c.conversationState = { ...c.conversationState, userRequests: [] };
    assert.match(renderHandoff(c, null), new RegExp(`# Session handoff: session ${c.sessionId}\n`));
  });
});

describe('renderHandoff: bounded', () => {
  const huge = makeHugeCheckpoint();

  test('a huge checkpoint stays within the default 60,000 characters, front-matter intact', () => {
    const text = renderHandoff(huge, crash(huge));
    assert.equal(DEFAULT_HANDOFF_MAX_CHARS, 60_000);
    assert.ok(text.length <= DEFAULT_HANDOFF_MAX_CHARS, String(text.length));
    assert.equal(parseFrontMatter(text).fields.tasks_total, 100);
    for (const r of huge.conversationState.userRequests) assert.ok(text.includes(r.trim()));
    for (const i of huge.taskState.items) assert.ok(text.includes(`#${i.id} ${i.content}`));
  });

  test('maxChars is honoured', () => {
    const text = renderHandoff(huge, null, { maxChars: 20_000 });
    assert.ok(text.length <= 20_000, String(text.length));
    assert.equal(parseFrontMatter(text).fields.checkpoint_id, huge.id);
  });
});
