/**
 * A checkpoint row that cannot be read back — its source text cut, a section whose gzip header
 * is gone, a stored change (checkpoint-chain.ts) whose gzip header is gone — in an otherwise
 * sound store. The first command that meets it moves the store aside
 * once and rebuilds it without that row (the row stays in the moved-aside file); every later
 * command and hook of the session works, nothing says "bug in shim", and PreCompact stores its
 * checkpoint.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DatabaseSync } from '@photostructure/sqlite';
import { BIN, runShim } from './helpers/cli.ts';
import { damageCheckpointRow, ROW_DAMAGES, type RowDamage } from './helpers/damage-rows.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { waitForProcessesUnder } from './helpers/processes.ts';
import {
  SESSION_ID,
  toJsonl,
  toolCallLines,
  userPromptLine,
} from './helpers/transcript-builders.ts';

/** A session with three checkpoints through the binary: the first whole, the others changes. */
type SoundStore = { dir: string; home: string; transcript: string; ids: string[] };
let built: SoundStore | undefined;

/** The sound store, built once for the file (three `shim checkpoint` processes). */
function soundStore(): SoundStore {
  if (built) return built;
  const dir = makeTempDir('shim-damaged-rows-');
  const home = join(dir, 'shim');
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  const lines = [userPromptLine('Port the parser to the new API')];
  for (let n = 1; n <= 5; n++)
    lines.push(...toolCallLines(n, 30_000 + n * 1_000, 'Read', { file_path: `/src/f${n}.ts` }));
  writeFileSync(transcript, toJsonl(lines));
  for (let n = 0; n < 3; n++) checkpoint(home, dir, transcript);
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  let rows: { id: string; delta: Uint8Array | null }[];
  try {
    rows = db
      .prepare('SELECT id, state_delta AS delta FROM checkpoints ORDER BY checkpoint_number')
      .all() as typeof rows;
  } finally {
    db.close();
  }
  assert.deepEqual(
    rows.map((r) => r.delta !== null),
    [false, true, true],
    'the first whole, the others changes',
  );
  built = { dir, home, transcript, ids: rows.map((r) => r.id) };
  return built;
}

/**
 * A copy of the sound store (a SHIM_HOME of its own; the session's transcript and directory are
 * the sound store's), one row then damaged as `damage` says: the source or the sections of the
 * whole one, or the change of the newest. Returns the ids of the rows left sound.
 */
async function damagedStore(damage: RowDamage): Promise<{
  dir: string;
  home: string;
  transcript: string;
  sound: string[];
}> {
  const { dir, home: soundHome, transcript, ids } = soundStore();
  // Copied once no process of the checkpoints works on it any more.
  await waitForProcessesUnder(soundHome);
  const home = join(makeTempDir('shim-damaged-rows-'), 'shim');
  cpSync(soundHome, home, { recursive: true });
  // The whole one, or the newest change.
  const hit = damageCheckpointRow(home, damage, (shaped) => shaped[shaped.length - 1]!);
  assert.ok(hit);
  return { dir, home, transcript, sound: ids.filter((id) => id !== hit) };
}

const storedIds = (home: string): string[] => {
  const db = new DatabaseSync(join(home, 'shim.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT id FROM checkpoints').all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
};

function checkpoint(home: string, dir: string, transcript: string) {
  return runShim(home, ['checkpoint', '--transcript', transcript, '--json'], { cwd: dir });
}

const movedAside = (home: string) =>
  readdirSync(home).filter((f) => /^shim\.db\.corrupt-/.test(f) && !/-(?:wal|shm)$/.test(f));

describe('a damaged checkpoint row', () => {
  for (const damage of ROW_DAMAGES) {
    test(`(${damage}): moved aside once, left there; every later command works`, async () => {
      const { dir, home, transcript, sound } = await damagedStore(damage);
      const runs = [1, 2, 3, 4].map(() => checkpoint(home, dir, transcript));
      for (const r of runs) {
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /unexpected error|bug in shim/);
        assert.ok(JSON.parse(r.stdout).checkpointId);
      }
      assert.match(runs[0]!.stderr, /the store was corrupt/, 'the move is told');
      assert.equal(movedAside(home).length, 1, 'one move aside, not one per command');
      assert.equal(
        statSync(join(home, 'store-recovery.lock')).mode & 0o777,
        0o600,
        'the recovery lock is owner-only, as every file shim makes',
      );
      const kept = storedIds(home);
      for (const id of sound) assert.ok(kept.includes(id), `sound row ${id} carried over`);
      for (const args of [
        ['list', '--all'],
        ...sound.map((id) => ['show', id]),
        ['resume', '--session', SESSION_ID],
        ['doctor'],
      ]) {
        const r = runShim(home, args, { cwd: dir });
        assert.doesNotMatch(r.stderr, /unexpected error|bug in shim/, args.join(' '));
      }
      // PreCompact on the same session stores its checkpoint.
      const hook = spawnSync(process.execPath, [BIN, 'hook', 'PreCompact'], {
        input: JSON.stringify({
          session_id: SESSION_ID,
          transcript_path: transcript,
          cwd: dir,
          hook_event_name: 'PreCompact',
          trigger: 'auto',
          custom_instructions: '',
        }),
        encoding: 'utf8',
        cwd: dir,
        env: { ...process.env, SHIM_HOME: home, CLAUDE_CONFIG_DIR: join(dir, 'no-claude') },
      });
      assert.equal(hook.status, 0, hook.stderr);
      const rows = JSON.parse(
        runShim(home, ['list', '--session', SESSION_ID, '--json'], { cwd: dir }).stdout,
      ) as { triggeredBy: string }[];
      assert.ok(
        rows.some((r) => r.triggeredBy === 'pre_compact'),
        rows.map((r) => r.triggeredBy).join(),
      );
      assert.equal(movedAside(home).length, 1);
    });
  }
});
