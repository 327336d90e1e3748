/**
 * End-to-end through the built binary: PostToolUse hooks of a session whose transcript Claude
 * Code is not writing say so once, and `shim doctor` repeats it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DoctorReport } from '../src/app/doctor/run-doctor.ts';
import { MISSING_AFTER_CALLS, STALLED_AFTER_CALLS } from '../src/core/policy/transcript-watch.ts';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { assistantLine, toolUseBlock } from './helpers/transcript-builders.ts';

function postToolUse(home: string, sessionId: string, transcript: string, n: number) {
  const r = spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
    input: JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: home,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: `echo ${n}` },
      tool_use_id: `toolu_${n}`,
    }),
    encoding: 'utf8',
    env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-claude') },
  });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.trim();
  return out ? ((JSON.parse(out) as { systemMessage?: string }).systemMessage ?? null) : null;
}

function doctorTranscripts(home: string) {
  const r = runShim(home, ['doctor', '--json']);
  const report = JSON.parse(r.stdout) as DoctorReport;
  return report.checks.find((c) => c.id === 'transcripts');
}

test('a session with no transcript file is reported once, and doctor repeats it', () => {
  const home = makeTempDir('shim-alarm-');
  const transcript = join(home, 'never-written.jsonl');
  assert.equal(doctorTranscripts(home)?.status, 'ok');
  const messages = Array.from({ length: MISSING_AFTER_CALLS + 2 }, (_, i) =>
    postToolUse(home, 'sess-missing', transcript, i),
  );
  const said = messages.filter((m) => m?.includes('no transcript'));
  assert.equal(said.length, 1, JSON.stringify(messages));
  assert.match(said[0]!, /CLAUDE_CODE_FORCE_SESSION_PERSISTENCE=1/);
  assert.equal(messages.indexOf(said[0]!), MISSING_AFTER_CALLS - 1);
  const doctor = doctorTranscripts(home);
  assert.equal(doctor?.status, 'warn');
  assert.match(doctor!.detail, /sess-missing wrote no transcript/);
});

test('a transcript that stops growing is reported; one that grows is not', () => {
  const home = makeTempDir('shim-alarm-');
  const growing = join(home, 'growing.jsonl');
  const stalled = join(home, 'stalled.jsonl');
  const line = (i: number) =>
    `${JSON.stringify(assistantLine({ id: `msg_${i}`, content: [toolUseBlock(`toolu_${i}`, 'Bash', { command: `echo ${i}` })], usage: { input: 1000 + i } }))}\n`;
  writeFileSync(growing, line(0));
  writeFileSync(stalled, line(0));
  const calls = STALLED_AFTER_CALLS + 3;
  const grown: Array<string | null> = [];
  const stopped: Array<string | null> = [];
  for (let i = 1; i <= calls; i++) {
    appendFileSync(growing, line(i));
    grown.push(postToolUse(home, 'sess-growing', growing, i));
    stopped.push(postToolUse(home, 'sess-stalled', stalled, i));
  }
  assert.deepEqual(
    grown.filter((m) => m?.includes('transcript')),
    [],
  );
  const said = stopped.filter((m) => m?.includes('stopped growing'));
  assert.equal(said.length, 1, JSON.stringify(stopped));
  assert.match(doctorTranscripts(home)!.detail, /sess-stalled stopped writing its transcript/);
});
