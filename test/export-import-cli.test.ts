/**
 * `shim export` and `shim import` through the built binary, between real stores: a round trip
 * restores the same way in the second store; importing again adds nothing; a file from a newer
 * shim, a changed or a cut-short one is refused with one line and the store untouched; a secret
 * planted in a file is redacted on the way in; the paths of a session move onto a checkout of
 * the same repository; nothing in the store but the imported rows changes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { runShim, type Run } from './helpers/cli.ts';
import { fixturePath, makeTempDir, SHARED_FIXTURES_DIR } from './helpers/fixtures.ts';
import { makeWarmHome } from './helpers/shared-code-cache.ts';
import { dumpFiles, dumpStore } from './helpers/store-dump.ts';

const A = 'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl';
const B = 'spotter-short-v2.1.38.jsonl';
const CODEX_ROLLOUT = 'rollout-2025-10-04T22-31-15-0199b26c-737a-71a2-9939-52ce68c95cbe.jsonl.gz';
const CODEX_FIXTURE = join(SHARED_FIXTURES_DIR, 'agents', 'codex', `coda__${CODEX_ROLLOUT}`);
/** AWS's documented example key id: the shape redaction must catch. */
const PLANTED = 'AKIAIOSFODNN7EXAMPLF';

type Saved = { checkpointId: string; sessionId: string };
type Imported = {
  session: string;
  checkpoints: { added: number; skipped: number; renumbered: number };
  handoffs: { added: number; skipped: number };
  redacted: number;
  paths: { action: string; from?: string; to?: string; why?: string };
  handoffFiles: string[];
};

function json<T>(run: Run): T {
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

let built: { home: string; a1: Saved; a2: Saved; b1: Saved } | undefined;

/**
 * Store A: two checkpoints and a handoff of one session, one checkpoint of another. Built once
 * through the binary (four `shim` processes folding a 167k-token transcript); each test gets a
 * copy of its own.
 */
function sourceStore() {
  if (!built) {
    const home = makeWarmHome('shim-export-');
    const a1 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(A), '--json']));
    const a2 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(A), '--json']));
    const b1 = json<Saved>(runShim(home, ['checkpoint', '--transcript', fixturePath(B), '--json']));
    assert.equal(runShim(home, ['handoff', '--session', a1.sessionId]).status, 0);
    built = { home, a1, a2, b1 };
  }
  const home = join(makeTempDir('shim-export-'), 'home');
  cpSync(built.home, home, { recursive: true });
  return { ...built, home };
}

function exportTo(home: string, session: string): string {
  const file = join(makeTempDir('shim-export-file-'), 'session.json');
  const run = runShim(home, ['export', session, '-o', file]);
  assert.equal(run.status, 0, run.stderr);
  return file;
}

/** The file with `change` applied, its checksum made right again (as a forger would). */
function rewrite(file: string, change: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete doc.sha256;
  change(doc);
  const sha256 = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  const out = `${file}.changed.json`;
  writeFileSync(out, JSON.stringify({ ...doc, sha256 }));
  return out;
}

function snapshot(home: string) {
  return { rows: dumpStore(home), files: dumpFiles(home) };
}

describe('shim export / shim import', () => {
  test('a round trip restores the same in a fresh store; importing again adds nothing', () => {
    const { home, a1, a2 } = sourceStore();
    // To standard output by default, the summary then on stderr.
    const piped = runShim(home, ['export', '--session', a1.sessionId]);
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stderr, /exported 2 checkpoints, 1 handoff, 0 compaction summaries/);
    const file = exportTo(home, a1.sessionId.slice(0, 8));
    assert.equal(JSON.parse(piped.stdout).sessionId, a1.sessionId);

    const fresh = makeWarmHome('shim-import-');
    const first = json<Imported>(runShim(fresh, ['import', file, '--json']));
    assert.equal(first.session, 'added');
    assert.deepEqual(first.checkpoints, { added: 2, skipped: 0, renumbered: 0 });
    assert.equal(first.handoffs.added, 1);
    assert.equal(first.redacted, 0, 'capture redacted everything already');
    for (const path of first.handoffFiles) assert.ok(path.startsWith(join(fresh, 'handoffs')));

    const restore = (h: string) => {
      const run = runShim(h, ['resume', '--print', '--session', a1.sessionId]);
      assert.equal(run.status, 0, run.stderr);
      // "stopped 3 seconds ago": the only words that depend on when it runs.
      return run.stdout.replace(/\b\d+ (second|minute)s? ago/g, '… ago');
    };
    assert.ok(restore(home).length > 200);
    assert.equal(restore(fresh), restore(home), 'the same restore in both stores');
    // The checkpoint itself; how each store keeps it (its chain, stored as a change or whole) differs.
    const shown = (h: string) => {
      const { chain, ...checkpoint } = json<Record<string, unknown>>(
        runShim(h, ['show', a2.checkpointId, '--json', '--all']),
      );
      return chain ? checkpoint : null;
    };
    assert.deepEqual(shown(fresh), shown(home), 'the checkpoint came over whole');

    const before = snapshot(fresh);
    const again = runShim(fresh, ['import', file]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(
      again.stdout,
      /added 0 checkpoints \(2 skipped: already here\), 0 handoffs \(1 skipped/,
    );
    assert.match(again.stdout, /session row skipped: already here/);
    assert.deepEqual(snapshot(fresh), before, 'a second import changes nothing');
  });

  test('into a store with its own sessions: only the imported rows are new, nothing else changes', () => {
    const { home, a1 } = sourceStore();
    const file = exportTo(home, a1.sessionId);
    const target = makeWarmHome('shim-import-');
    json<Saved>(runShim(target, ['checkpoint', '--transcript', fixturePath(B), '--json']));
    assert.equal(runShim(target, ['search', 'the', '--all', '--json']).status, 0);
    const before = snapshot(target);

    const dry = runShim(target, ['import', file, '--dry-run']);
    assert.match(dry.stdout, /^Dry run: session .*would add 2 checkpoints, 1 handoff/);
    assert.deepEqual(snapshot(target), before, 'a dry run adds nothing');

    assert.equal(runShim(target, ['import', file]).status, 0);
    const after = snapshot(target);
    const ours = (row: string) => row.includes(a1.sessionId);
    for (const [table, rows] of after.rows) {
      const old = before.rows.get(table) ?? [];
      if (table === 'checkpoint_search') {
        for (const row of old) assert.ok(rows.includes(row), 'old search rows are unchanged');
        continue;
      }
      assert.deepEqual(
        rows.filter((r) => old.includes(r)),
        old,
        `${table}: every row it had is there, unchanged`,
      );
      for (const row of rows.filter((r) => !old.includes(r)))
        assert.ok(
          ours(row),
          `${table}: a new row belongs to the imported session: ${row.slice(0, 200)}`,
        );
    }
    assert.equal(after.rows.get('checkpoints')!.length, before.rows.get('checkpoints')!.length + 2);
    for (const [path, content] of before.files) assert.equal(after.files.get(path), content);
    const newFiles = [...after.files.keys()].filter((p) => !before.files.has(p));
    assert.equal(newFiles.length, 1);
    assert.match(newFiles[0]!, /^handoffs\//);
    // The imported checkpoints are searchable like the store's own.
    const found = json<{ results?: unknown[] }>(
      runShim(target, ['search', 'the', '--all', '--json']),
    );
    assert.ok(JSON.stringify(found).includes(a1.sessionId));
  });

  test("a session that went on in both stores: numbers taken here go after this store's own", () => {
    const { home, a1, a2 } = sourceStore();
    const file = exportTo(home, a1.sessionId);
    const target = makeWarmHome('shim-import-');
    const own = json<Saved>(
      runShim(target, ['checkpoint', '--transcript', fixturePath(A), '--json']),
    );
    assert.equal(own.sessionId, a1.sessionId, 'the same session, checkpointed here too');
    const result = json<Imported>(runShim(target, ['import', file, '--json']));
    assert.deepEqual(result.checkpoints, { added: 2, skipped: 0, renumbered: 2 });
    assert.equal(result.session, 'skipped');
    const numbers = json<Array<{ id: string; checkpointNumber: number }>>(
      runShim(target, ['list', '--all', '--json']),
    )
      .map((c) => [c.id, c.checkpointNumber] as const)
      .sort((x, y) => x[1] - y[1]);
    assert.deepEqual(numbers, [
      [own.checkpointId, 1],
      [a1.checkpointId, 2],
      [a2.checkpointId, 3],
    ]);
    const text = runShim(target, ['import', file]);
    assert.match(text.stdout, /added 0 checkpoints \(2 skipped: already here\)/);
  });

  test('a file from a newer shim is refused with one line saying to upgrade', () => {
    const { home, a1 } = sourceStore();
    const file = exportTo(home, a1.sessionId);
    const target = makeWarmHome('shim-import-');
    for (const change of [
      (d: Record<string, unknown>) => (d.formatVersion = 2),
      (d: Record<string, unknown>) => (d.schemaVersion = 999),
    ]) {
      const run = runShim(target, ['import', rewrite(file, change)]);
      assert.equal(run.status, 1);
      assert.match(
        run.stderr,
        /^shim: .* was written by a newer shim .* reads format 1 and schema \d+ at most\n/,
      );
      assert.match(run.stderr, /upgrade shim/);
      assert.equal(run.stdout, '');
    }
    assert.equal(existsSync(join(target, 'shim.db')), false, 'the store was not even opened');
  });

  test('a changed or cut-short file is refused with one clear line; the store is untouched', () => {
    const { home, a1 } = sourceStore();
    const file = exportTo(home, a1.sessionId);
    const text = readFileSync(file, 'utf8');
    const target = makeWarmHome('shim-import-');
    json<Saved>(runShim(target, ['checkpoint', '--transcript', fixturePath(B), '--json']));
    const before = snapshot(target);

    const cut = `${file}.cut`;
    writeFileSync(cut, text.slice(0, Math.floor(text.length / 2)));
    const truncated = runShim(target, ['import', cut]);
    assert.equal(truncated.status, 1);
    assert.match(truncated.stderr, /is not a whole shim export: .*\n.*cut short/);

    const tampered = `${file}.tampered`;
    writeFileSync(tampered, text.replace(/"summary": "(.)/, '"summary": "X$1'));
    assert.notEqual(readFileSync(tampered, 'utf8'), text);
    const changed = runShim(target, ['import', tampered]);
    assert.equal(changed.status, 1);
    assert.match(changed.stderr, /was changed after it was exported: its SHA-256 does not match/);

    const twice = runShim(target, [
      'import',
      rewrite(file, (d) => {
        const rows = d.rows as { checkpoints: unknown[] };
        rows.checkpoints.push(rows.checkpoints[0]);
      }),
    ]);
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /checkpoint \d+ repeats the id of checkpoint 1/);
    assert.doesNotMatch(twice.stderr, /unexpected error|bug in shim/);

    const noVersion = runShim(target, ['import', rewrite(file, (d) => (d.formatVersion = null))]);
    assert.equal(noVersion.status, 1);
    assert.match(noVersion.stderr, /names no format or schema version/);

    const utf16 = `${file}.utf16`;
    writeFileSync(utf16, Buffer.from(`\uFEFF${text}`, 'utf16le'));
    const wide = runShim(target, ['import', utf16]);
    assert.equal(wide.status, 1);
    assert.match(wide.stderr, /is not UTF-8 text \(UTF-16 or binary\)/);
    assert.ok(
      !wide.stderr.includes('\u0000') && !wide.stderr.includes('\uFFFD'),
      'no raw bytes in the refusal',
    );

    const other = runShim(target, ['import', '-'], { input: '{"hello": 1}' });
    assert.equal(other.status, 1);
    assert.match(other.stderr, /standard input is not a shim session export/);

    const foreign = runShim(target, [
      'import',
      rewrite(file, (d) => {
        const rows = d.rows as { handoffs: Array<Record<string, unknown>> };
        rows.handoffs[0]!.session_id = 'someone-else';
      }),
    ]);
    assert.equal(foreign.status, 1);
    assert.match(foreign.stderr, /handoff 1 belongs to another session/);
    assert.deepEqual(snapshot(target), before, 'nothing was written');
  });

  test('a raw secret planted in the file is redacted on import, in checkpoints and documents', () => {
    const { home, a1, a2 } = sourceStore();
    const file = rewrite(exportTo(home, a1.sessionId), (d) => {
      const rows = d.rows as {
        checkpoints: Array<{ checkpoint: { conversationState: { summary: string } } }>;
        handoffs: Array<{ document: string }>;
      };
      for (const c of rows.checkpoints)
        c.checkpoint.conversationState.summary = `deploy with aws_access_key_id=${PLANTED} ${c.checkpoint.conversationState.summary}`;
      rows.handoffs[0]!.document += `\nexport AWS_ACCESS_KEY_ID=${PLANTED}\n`;
      // A forged id and path must not place the document outside handoffs/.
      Object.assign(rows.handoffs[0]!, { id: '../../escape', path: '/elsewhere/notes.txt' });
    });
    assert.ok(readFileSync(file, 'utf8').includes(PLANTED));
    const target = makeWarmHome('shim-import-');
    const result = json<Imported>(runShim(target, ['import', file, '--json']));
    assert.ok(result.redacted >= 3, `redacted ${result.redacted}`);
    const shown = runShim(target, ['show', a2.checkpointId, '--json', '--all']);
    assert.equal(shown.status, 0, shown.stderr);
    assert.ok(!shown.stdout.includes(PLANTED), 'no raw key in the stored checkpoint');
    assert.match(shown.stdout, /REDACTED/);
    const restore = runShim(target, ['resume', '--print', '--session', a1.sessionId]);
    assert.ok(!restore.stdout.includes(PLANTED));
    assert.equal(result.handoffFiles.length, 1);
    for (const path of result.handoffFiles) {
      assert.equal(dirname(path), join(target, 'handoffs'));
      assert.match(basename(path), /^imported-[\w-]+\.md$/);
      assert.ok(!readFileSync(path, 'utf8').includes(PLANTED));
    }
    for (const [path, content] of dumpFiles(target))
      assert.ok(!content.includes(PLANTED), `${path} holds no raw key`);
  });

  test('paths move onto a checkout of the same remote; elsewhere they are kept and it says so', () => {
    const base = makeTempDir('shim-export-repos-');
    const checkout = (name: string, remote: string) => {
      const dir = join(base, name);
      mkdirSync(dir);
      execFileSync('git', ['init', '-q', dir]);
      execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
      return dir;
    };
    const there = checkout('there', 'git@github.com:Acme/App.git');
    const here = checkout('here', 'https://github.com/Acme/App');
    // The fixture's session, as if it had run in `there`.
    const transcript = join(base, 'session.jsonl');
    writeFileSync(
      transcript,
      readFileSync(fixturePath(B), 'utf8')
        .split('\n')
        .map((line) => {
          if (!line.trim()) return line;
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (typeof entry.cwd === 'string') entry.cwd = there;
          return JSON.stringify(entry);
        })
        .join('\n'),
    );
    const home = makeWarmHome('shim-export-');
    const saved = json<Saved>(
      runShim(home, ['checkpoint', '--transcript', transcript, '--no-snapshot', '--json']),
    );
    const file = exportTo(home, saved.sessionId);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).project, {
      id: 'github.com/acme/app',
      root: there,
    });

    const target = makeWarmHome('shim-import-');
    const mapped = json<Imported>(runShim(target, ['import', file, '--json'], { cwd: here }));
    assert.deepEqual(mapped.paths, { action: 'mapped', from: there, to: here });
    const restored = runShim(target, ['resume', '--print'], { cwd: here });
    assert.equal(restored.status, 0, `this checkout finds the session: ${restored.stderr}`);
    const show = json<{ source: { cwd: string } }>(
      runShim(target, ['show', saved.checkpointId, '--json'], { cwd: here }),
    );
    assert.equal(show.source.cwd, here);

    const elsewhere = makeWarmHome('shim-import-');
    const kept = runShim(elsewhere, ['import', file], { cwd: base });
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(
      kept.stdout,
      new RegExp(
        `paths kept as exported \\(${there}\\): .* is not a checkout of github.com/acme/app`,
      ),
    );
  });

  test("another agent's session keeps its agent: a Codex rollout's checkpoints stay Codex's", (t) => {
    if (!existsSync(CODEX_FIXTURE)) return t.skip(`no ${CODEX_FIXTURE}`);
    const home = makeWarmHome('shim-export-');
    // Codex names its logs rollout-<time>-<id>; the shared copy carries a project prefix.
    const log = join(home, CODEX_ROLLOUT);
    copyFileSync(CODEX_FIXTURE, log);
    const saved = json<Saved>(
      runShim(home, ['checkpoint', '--transcript', log, '--no-snapshot', '--json']),
    );
    const piped = runShim(home, ['export', saved.sessionId, '--json']);
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout).agent, 'codex');
    assert.equal((JSON.parse(piped.stderr) as { agent: string }).agent, 'codex');

    const target = makeWarmHome('shim-import-');
    const run = runShim(target, ['import', '-', '--json'], { input: piped.stdout });
    assert.equal(json<Imported & { agent: string }>(run).agent, 'codex');
    // The same rows, but for how well gzip did this time.
    const listed = (h: string) =>
      json<Array<{ id: string; agent: string; size: { uncompressed: number } }>>(
        runShim(h, ['list', '--all', '--json']),
      ).map(({ size, ...row }) => ({ ...row, uncompressed: size.uncompressed }));
    assert.deepEqual(listed(target), listed(home));
    assert.equal(listed(target)[0]!.agent, 'codex');
  });

  test('export: an unknown session is one line; --help teaches', () => {
    const { home } = sourceStore();
    const missing = runShim(home, ['export', 'ffffffff-none']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^shim: no session "ffffffff-none" in the store\n/);
    const help = runShim(home, ['import', '--help']);
    assert.match(help.stdout, /Examples:/);
    assert.match(help.stdout, /upgrade shim first/);
  });
});
