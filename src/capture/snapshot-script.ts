/**
 * The snapshot's git chain (add → write-tree → commit-tree → update-ref) as one POSIX `sh`
 * process. Each step needs the one before, so driven from Node every step waited for the event
 * loop: a hook busy loading its bundle or folding the transcript held the chain still. In one
 * shell the chain runs on the other core meanwhile, and the blocking checkpoint before a risky
 * command waits only for what is left of it (docs/hot-path.md, "The risky checkpoint").
 *
 * The arguments travel as positional parameters, never inside the script text: nothing a path,
 * ref or message holds is ever read by the shell as code.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitSnapshot } from '../core/checkpoint/checkpoint.ts';
import { gitEnv, SNAPSHOT_IDENTITY, TIMEOUT_MS } from './git-run.ts';

/** Which step failed, by the script's exit status. */
const FAILED_STEP: Record<number, string> = {
  20: 'rev-parse',
  3: 'read-tree',
  4: 'add',
  5: 'write-tree',
  6: 'commit-tree',
  7: 'update-ref',
};

/*
 * $1 the private temp dir, $2 the ref, $3 the message; run in the session's directory (any
 * directory of the work tree). HEAD, the git dir and the index come from one rev-parse: without
 * commits it prints the first two and exits 1; outside a repository nothing (exit 20 here).
 * The index is copied with its mtime (`cp -p`): git trusts an entry's stat only when the entry is
 * older than the index file, so a copy stamped now would hide an edit of the same size made in
 * the second the entry was written.
 * `git add -A --ignore-errors` exits 1 when it skipped unreadable files (the index is still
 * written) and more for real failures; an index this git cannot start from is rebuilt from HEAD
 * once. A tree equal to HEAD's needs no commit: the ref pins HEAD itself. Prints the add status,
 * HEAD (or an empty line), the tree and the commit, one per line.
 */
const SCRIPT = `
dir=$1; ref=$2; msg=$3
{ read -r gitdir; read -r index; read -r head; } <<EOF
$(git rev-parse --absolute-git-dir --git-path index --verify -q 'HEAD^{commit}')
EOF
[ -n "$gitdir" ] || exit 20
export GIT_INDEX_FILE="$dir/index"
[ -f "$index" ] && cp -p "$index" "$GIT_INDEX_FILE" 2>/dev/null
git -c core.splitIndex=false add -A --ignore-errors 2>"$dir/add-err"; added=$?
if [ "$added" -gt 1 ]; then
  rm -f "$GIT_INDEX_FILE"
  if [ -n "$head" ]; then git -c core.splitIndex=false read-tree "$head" 2>"$dir/err" || exit 3; fi
  git -c core.splitIndex=false add -A --ignore-errors 2>"$dir/add-err"; added=$?
  [ "$added" -gt 1 ] && exit 4
fi
tree=$(git -c core.splitIndex=false write-tree 2>"$dir/err") || exit 5
unset GIT_INDEX_FILE
if [ -n "$head" ] && [ "$tree" = "$(git rev-parse -q --verify "$head^{tree}")" ]; then
  commit=$head
elif [ -n "$head" ]; then
  commit=$(git commit-tree --no-gpg-sign "$tree" -p "$head" -m "$msg" 2>"$dir/err") || exit 6
else
  commit=$(git commit-tree --no-gpg-sign "$tree" -m "$msg" 2>"$dir/err") || exit 6
fi
git update-ref -m "$msg" "$ref" "$commit" 2>"$dir/err" || exit 7
printf '%s\\n%s\\n%s\\n%s\\n' "$added" "$head" "$tree" "$commit"
`;

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Snapshots the working tree under `ref` and resolves with it; `skipped` is git's complaint
 * about files it could not read (left out of the snapshot). Rejects with the failing step and
 * git's message. The user's index, HEAD and working tree are never touched.
 */
export function runSnapshotScript(
  cwd: string,
  ref: string,
  checkpointId: string,
): Promise<{ snapshot: Omit<GitSnapshot, 'branch'>; skipped?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'shim-git-'));
  const message = `shim snapshot ${checkpointId}`;
  const identity = {
    GIT_AUTHOR_NAME: SNAPSHOT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: SNAPSHOT_IDENTITY.email,
    GIT_COMMITTER_NAME: SNAPSHOT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: SNAPSHOT_IDENTITY.email,
  };
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const child = spawn('/bin/sh', ['-c', SCRIPT, 'shim-snapshot', dir, ref, message], {
      cwd,
      env: gitEnv(identity),
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    const finish = (error: Error | null, value?: Awaited<ReturnType<typeof runSnapshotScript>>) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      if (error) reject(error);
      else resolve(value!);
    };
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', (error) =>
      finish(new Error(`git snapshot could not start: ${error.message}`)),
    );
    child.on('close', (status, signal) => {
      if (status !== 0) {
        const step = FAILED_STEP[status ?? -1];
        const why =
          readText(join(dir, status === 4 ? 'add-err' : 'err')) ||
          (signal ? `killed by ${signal}` : `exit ${status}`);
        finish(new Error(`git ${step ?? 'snapshot'} failed: ${why}`));
        return;
      }
      const [added, head, , commit] = Buffer.concat(out).toString('utf8').split('\n');
      const skipped =
        added === '1' ? readText(join(dir, 'add-err')) || 'some files were skipped' : '';
      const snapshot = { ref, commit: commit ?? '', head: head || null };
      finish(null, skipped ? { snapshot, skipped } : { snapshot });
    });
  });
}
