/**
 * A checkpoint's uncommitted files travel through the team store: machine A's snapshot goes to the
 * server as a patch on its base commit, and in B's clone of the same repository that patch makes
 * the same snapshot again (same tree) without touching B's index or files. A real PostgreSQL
 * server, real git clones, the snapshot taken as a checkpoint takes it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCommandStore } from '../../src/app/open-command-store.ts';
import { openTeamRepository } from '../../src/app/team/open-team-store.ts';
import { replicateToTeam } from '../../src/app/team/replicate.ts';
import { snapshotRef } from '../../src/capture/git.ts';
import { ensureSnapshotHere } from '../../src/app/team/team-snapshot.ts';
import { restoreSnapshot } from '../../src/capture/git-snapshots.ts';
import { rebuildSnapshot } from '../../src/capture/snapshot-patch.ts';
import type { AppError } from '../../src/core/errors.ts';
import { rebaseCheckpoint } from '../../src/core/team/rebase-checkpoint.ts';
import { DEFAULT_SETTINGS } from '../../src/store/config/config.ts';
import { runSnapshotScript } from '../../src/capture/snapshot-script.ts';
import { makeTempDir } from '../helpers/fixtures.ts';
import { startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openTempStore } from '../helpers/store.ts';
import { draftIn, REMOTE } from './team-fixture.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.dispose());

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    encoding: 'utf8',
  }).trim();

describe('the files travel', () => {
  test("A's uncommitted work comes back in B's clone as the same snapshot", async () => {
    const origin = join(makeTempDir('shim-files-origin-'), 'app');
    execFileSync('git', ['init', '-q', origin]);
    writeFileSync(join(origin, 'app.ts'), 'export const answer = 41;\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'base');
    const a = join(makeTempDir('shim-files-a-'), 'app');
    const b = join(makeTempDir('shim-files-b-'), 'app-clone');
    execFileSync('git', ['clone', '-q', origin, a]);
    execFileSync('git', ['clone', '-q', origin, b]);
    for (const dir of [a, b]) git(dir, 'remote', 'set-url', 'origin', REMOTE);

    // A's uncommitted work: a changed file, a new one, binary bytes.
    writeFileSync(join(a, 'app.ts'), 'export const answer = 42;\n');
    writeFileSync(join(a, 'notes.md'), 'half-way through the refactor\n');
    writeFileSync(join(a, 'logo.bin'), Buffer.from([0, 1, 2, 255, 0, 7]));
    const checkpointId = randomUUID();
    const { snapshot } = await runSnapshotScript(a, snapshotRef(checkpointId), checkpointId);

    const store = openTempStore();
    const sessionId = randomUUID();
    store.sessions.touch({ agent: 'claude', sessionId, cwd: a }, new Date().toISOString());
    const draft = draftIn(a, sessionId, new Date().toISOString(), { id: checkpointId });
    store.checkpoints.save({
      ...draft,
      fileState: { ...draft.fileState, snapshot: { ...snapshot, branch: 'main' } },
    });
    const url = server.url(await server.createDatabase());
    const repository = await openTeamRepository({ url, migrate: true });
    try {
      const result = await replicateToTeam({
        store: createCommandStore(store.db),
        home: store.home,
        repository,
        writer: { machine: 'a', osUser: 'ada' },
      });
      assert.equal(result.error, null);
      const patch = await repository.filePatch(checkpointId);
      assert.ok(patch, 'the snapshot travelled');
      assert.equal(patch.snapshotCommit, snapshot.commit);
      assert.equal(patch.baseCommit, git(a, 'rev-parse', 'HEAD'));
      assert.ok(!patch.patch.includes(a), "no path of A's clone in the patch");

      const indexBefore = readFileSync(join(b, '.git', 'index'));
      const rebuilt = rebuildSnapshot(b, checkpointId, patch, `shim snapshot ${checkpointId}`);
      assert.ok(rebuilt.ok, JSON.stringify(rebuilt));
      assert.equal(
        git(b, 'rev-parse', `${rebuilt.commit}^{tree}`),
        git(a, 'rev-parse', `${snapshot.commit}^{tree}`),
      );
      assert.equal(
        git(b, 'show', `${snapshotRef(checkpointId)}:app.ts`),
        'export const answer = 42;',
      );
      assert.deepEqual(readFileSync(join(b, '.git', 'index')), indexBefore, "B's index untouched");
      assert.equal(readFileSync(join(b, 'app.ts'), 'utf8'), 'export const answer = 41;\n');

      // A clone without the base commit: said, not guessed.
      const other = join(makeTempDir('shim-files-c-'), 'app');
      execFileSync('git', ['init', '-q', other]);
      const missing = rebuildSnapshot(other, checkpointId, patch, 'x');
      assert.deepEqual(missing, { ok: false, why: 'base-missing', detail: patch.baseCommit });

      // shim restore-files on another machine: the checkpoint as B holds it (rebased onto its
      // clone) gets its snapshot from the team store, then restores as at home.
      const d = join(makeTempDir('shim-files-d-'), 'app');
      execFileSync('git', ['clone', '-q', origin, d]);
      const saved = store.checkpoints.getById(checkpointId)!;
      const config = { team: { ...DEFAULT_SETTINGS.team, url } };
      await ensureSnapshotHere(rebaseCheckpoint(saved, d), d, config, {});
      const restored = restoreSnapshot(d, snapshotRef(checkpointId));
      assert.equal(git(d, 'show', `${restored.branch}:app.ts`), 'export const answer = 42;');
      await assert.rejects(
        ensureSnapshotHere(rebaseCheckpoint(saved, other), other, config, {}),
        (error: Error) =>
          /changes on commit [0-9a-f]{12}, which this clone does not have/.test(error.message) &&
          /git fetch origin/.test((error as AppError).hint ?? ''),
      );
      await assert.rejects(
        ensureSnapshotHere(
          rebaseCheckpoint(saved, other),
          other,
          { team: DEFAULT_SETTINGS.team },
          {},
        ),
        /are in the clone it was taken in, not this one/,
      );
    } finally {
      await repository.close();
      store.dispose();
    }
  });
});
