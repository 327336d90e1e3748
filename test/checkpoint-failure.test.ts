/**
 * A checkpoint that fails is seen where the user looks, not only in the log: after a hook's
 * checkpoint fails (here: a store written by a newer shim), the statusline, `shim status`,
 * `shim doctor` and `shim stats` say so; the next stored checkpoint clears it. A mistyped
 * checkpoint (a log with no conversation) records nothing, and a failure over a day old no longer
 * makes doctor unhealthy; `shim doctor --clear-failures` clears the list (issue 42 item 9).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import {
  MAX_ATTEMPTS,
  writePendingCheckpoint,
} from '../src/store/checkpoints/pending-checkpoints.ts';
import { runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { assistantLine, toJsonl, userPromptLine } from './helpers/transcript-builders.ts';

const SESSION = 'a1b2c3d4-0000-4000-8000-00000000f00d';

describe('a failed checkpoint is visible', () => {
  const root = makeTempDir('shim-ckpt-fail-');
  const home = join(root, 'shim');
  const transcript = join(root, `${SESSION}.jsonl`);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    transcript,
    toJsonl(
      [
        userPromptLine('Refactor the parser'),
        assistantLine({ id: 'msg_1', content: [{ type: 'text', text: 'On it.' }] }),
      ].map((e) => ({ ...e, sessionId: SESSION, cwd: root })),
    ),
  );
  const hook = (event: string) =>
    runShim(home, ['hook', event], {
      input: JSON.stringify({
        session_id: SESSION,
        transcript_path: transcript,
        cwd: root,
        hook_event_name: event,
        trigger: 'manual',
      }),
    });
  const statusline = () =>
    runShim(home, ['statusline'], {
      input: JSON.stringify({
        session_id: SESSION,
        transcript_path: transcript,
        cwd: root,
        model: { id: 'claude-opus-4-6', display_name: 'Opus' },
      }),
    });

  test('statusline, status, doctor and stats say so; a stored checkpoint clears it', () => {
    // A store from a newer shim: every checkpoint of this one fails on it.
    const db = new DatabaseSync(join(home, 'shim.db'));
    db.exec(
      "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL); INSERT INTO schema_version VALUES (9999, '2026-01-01')",
    );
    db.close();
    const failed = hook('PreCompact');
    assert.equal(failed.status, 0, failed.stderr);

    const line = statusline();
    assert.equal(line.status, 0, line.stderr);
    assert.match(line.stdout, /\[ckpt FAILED: shim doctor\]/);

    const status = runShim(home, ['status', transcript]);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /Checkpoint +FAILED once .*pre_compact/);
    assert.match(status.stdout, /schema version 9999/);

    const doctor = runShim(home, ['doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as {
      checks: Array<{ id: string; status: string; detail: string }>;
    };
    const check = report.checks.find((c) => c.id === 'checkpoint-failures');
    assert.equal(check?.status, 'fail');
    assert.match(check!.detail, /a1b2c3d4 failed \(the database is at schema version 9999/);

    // The user moves the newer store aside: stats opens, and still tells of the failure.
    rmSync(join(home, 'shim.db'));
    const stats = runShim(home, ['stats', '--all']);
    assert.equal(stats.status, 0, stats.stderr);
    assert.match(stats.stdout, /checkpoint failed +the last checkpoint of session a1b2c3d4 failed/);

    // Taking one by hand (what doctor suggests) stores it and clears the failure.
    const stored = runShim(home, ['checkpoint', '--transcript', transcript]);
    assert.equal(stored.status, 0, stored.stderr);
    assert.doesNotMatch(statusline().stdout, /FAILED/);
    assert.doesNotMatch(runShim(home, ['status', transcript]).stdout, /FAILED/);
    assert.doesNotMatch(runShim(home, ['stats', '--all']).stdout, /checkpoint failed/);
  });
});

type DoctorJson = {
  healthy: boolean;
  clearedFailures?: number;
  clearedSetAside?: number;
  checks: Array<{ id: string; status: string; essential: boolean; detail: string; fix: string }>;
};

function failureCheck(home: string, args: string[] = []) {
  const doctor = runShim(home, ['doctor', '--json', ...args]);
  const report = JSON.parse(doctor.stdout) as DoctorJson;
  return { report, check: report.checks.find((c) => c.id === 'checkpoint-failures')! };
}

describe('doctor says what is wrong now, and how to clear what is past', () => {
  const root = makeTempDir('shim-ckpt-past-');

  test('a mistyped checkpoint (a log with no conversation) is refused and records nothing', () => {
    const home = join(root, 'mistyped');
    const notes = join(root, 'notes.jsonl');
    writeFileSync(notes, `${JSON.stringify({ type: 'summary', uuid: 'u-1', summary: 'x' })}\n`);
    const refused = runShim(home, ['checkpoint', '--transcript', notes]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /has no Claude Code conversation to checkpoint/);
    const { check } = failureCheck(home);
    assert.equal(check.status, 'ok', check.detail);
  });

  test('a failure over a day old is listed, not unhealthy; --clear-failures clears it', () => {
    // A real failure (a store from a newer shim), then a day passes.
    const home = join(root, 'past');
    mkdirSync(home, { recursive: true });
    const db = new DatabaseSync(join(home, 'shim.db'));
    db.exec(
      "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL); INSERT INTO schema_version VALUES (9999, '2026-01-01')",
    );
    db.close();
    const transcript = join(root, `${SESSION}.jsonl`);
    writeFileSync(
      transcript,
      toJsonl(
        [
          userPromptLine('Fix the lexer'),
          assistantLine({ id: 'msg_1', content: [{ type: 'text', text: 'Done.' }] }),
        ].map((e) => ({ ...e, sessionId: SESSION, cwd: root })),
      ),
    );
    const failed = runShim(home, ['checkpoint', '--transcript', transcript]);
    assert.equal(failed.status, 1);
    assert.equal(failureCheck(home).check.status, 'fail');
    const file = join(home, 'cache', 'checkpoint-failures.json');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"at":"[^"]+"/, `"at":"${dayAgo}"`));

    const past = failureCheck(home).check;
    assert.equal(past.status, 'warn');
    assert.equal(past.essential, false, 'a past failure does not make shim unhealthy');
    assert.match(past.detail, /a1b2c3d4 failed/);
    assert.match(past.fix, /shim doctor --clear-failures/);

    const cleared = failureCheck(home, ['--clear-failures']);
    assert.equal(cleared.report.clearedFailures, 1);
    assert.equal(cleared.check.status, 'ok');
    const text = runShim(home, ['doctor', '--clear-failures']);
    assert.match(text.stdout, /^cleared 0 recorded checkpoint failures/);
  });

  test("a risky command's checkpoint set aside: doctor prints the mv that tries again, and lets a past one go", () => {
    const home = join(root, "it's aside");
    mkdirSync(home, { recursive: true });
    // A note whose last attempt is due, for a log that is gone: the next shim command fails it.
    writePendingCheckpoint(home, {
      v: 1,
      id: 'aside-1',
      sessionId: SESSION,
      transcriptPath: join(root, 'gone.jsonl'),
      transcriptBytes: 10,
      cwd: root,
      at: Date.now(),
      trigger: 'risky_operation',
      reason: 'before rm -rf build',
      git: null,
      attempts: MAX_ATTEMPTS - 1,
    });
    runShim(home, ['list', '--all']);
    const failed = join(home, 'pending', 'failed');
    assert.equal(readdirSync(failed).length, 1, 'set aside');

    const today = failureCheck(home);
    assert.equal(today.check.essential, true, 'set aside today: unhealthy');
    assert.match(
      today.check.detail,
      /1 checkpoint promised before a risky command could not be built/,
    );
    const mv = /to try again: (mv .+?) — /.exec(today.check.fix)?.[1];
    assert.ok(mv, today.check.fix);
    assert.match(today.check.fix, /`shim doctor --clear-failures`/);
    // The printed command, run as printed (the path has a quote and a space), moves it back.
    const moved = spawnSync('/bin/sh', ['-c', mv], { encoding: 'utf8' });
    assert.equal(moved.status, 0, moved.stderr);
    assert.deepEqual(readdirSync(failed), []);
    assert.ok(readdirSync(join(home, 'pending')).some((n) => n.endsWith('-aside-1.json')));

    // Tried again, set aside again; a day later it is past: listed, not unhealthy.
    runShim(home, ['list', '--all']);
    const [note] = readdirSync(failed);
    assert.ok(note);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(join(failed, note), dayAgo, dayAgo);
    const records = join(home, 'cache', 'checkpoint-failures.json');
    writeFileSync(
      records,
      readFileSync(records, 'utf8').replace(/"at":"[^"]+"/g, `"at":"${dayAgo.toISOString()}"`),
    );
    const past = failureCheck(home);
    assert.equal(past.check.essential, false);
    assert.match(past.check.detail, /set aside over a day ago/);

    const cleared = failureCheck(home, ['--clear-failures']);
    assert.equal(cleared.report.clearedFailures, 1);
    assert.equal(cleared.report.clearedSetAside, 1);
    assert.equal(cleared.check.status, 'ok');
    assert.deepEqual(readdirSync(failed), []);
  });
});
