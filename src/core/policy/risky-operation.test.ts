import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectRiskyCommand } from './risky-operation.ts';

/** Asserts the label of each command (null: looks safe). */
function expectLabels(cases: ReadonlyArray<[command: string, label: string | null]>): void {
  for (const [command, label] of cases) {
    assert.equal(
      detectRiskyCommand(command),
      label,
      `detectRiskyCommand(${JSON.stringify(command)})`,
    );
  }
}

describe('detectRiskyCommand: rm', () => {
  test('a recursive force remove in any spelling is rm -rf', () => {
    expectLabels([
      ['rm -rf build', 'rm -rf'],
      ['rm -fr build', 'rm -rf'],
      ['rm -Rf build', 'rm -rf'],
      ['rm -rfv build', 'rm -rf'],
      ['rm -vrf build', 'rm -rf'],
      ['rm -r -f build', 'rm -rf'],
      ['rm -f -r build', 'rm -rf'],
      ['rm -r -v -f build', 'rm -rf'],
      ['rm --recursive --force build', 'rm -rf'],
      ['rm --force --recursive build', 'rm -rf'],
      ['rm -r --force build', 'rm -rf'],
      ['rm --recursive -f build', 'rm -rf'],
      ['rm -r build -f', 'rm -rf'],
      ['sudo rm -rf /tmp/x', 'rm -rf'],
      ['/bin/rm -rf node_modules', 'rm -rf'],
      ['cd app && rm -rf dist', 'rm -rf'],
    ]);
  });

  test('a remove that is not both recursive and forced is not flagged', () => {
    expectLabels([
      ['rm file.txt', null],
      ['rm -f file.txt', null],
      ['rm -r dir', null],
      ['rm -i -r dir', null],
      ['rm -rv dir', null],
    ]);
  });

  test('a file name is not an option', () => {
    // Before the fix, a word ending in f or r after a single option counted as the other one.
    expectLabels([
      ['rm -f server', null],
      ['rm -f tar', null],
      ['rm -r stuff', null],
      ['rm -r pdf', null],
    ]);
  });

  test('options of the next command in a pipeline or list do not count', () => {
    expectLabels([
      ['rm -r dir; ls -f', null],
      ['rm -r dir && ls -f', null],
      ['rm -f a | grep -r x', null],
      ['rm -r dir\nls -f', null],
    ]);
  });
});

describe('detectRiskyCommand: git', () => {
  test('commands that discard work or history are flagged', () => {
    expectLabels([
      ['git reset --hard HEAD~1', 'git reset --hard'],
      ['git reset --hard', 'git reset --hard'],
      ['git reset HEAD~1 --hard', 'git reset --hard'],
      ['git checkout -- .', 'git checkout -- <paths>'],
      ['git checkout HEAD -- src/a.ts', 'git checkout -- <paths>'],
      ['git checkout main -- src/a.ts', 'git checkout -- <paths>'],
      ['git checkout -f', 'git checkout --force'],
      ['git checkout --force main', 'git checkout --force'],
      ['git restore src/a.ts', 'git restore'],
      ['git restore .', 'git restore'],
      ['git restore --source=HEAD~1 src/a.ts', 'git restore'],
      ['git clean -fd', 'git clean -f'],
      ['git clean -xdf', 'git clean -f'],
      ['git clean -d -f', 'git clean -f'],
      ['git push --force', 'git push --force'],
      ['git push -f', 'git push --force'],
      ['git push --force-with-lease', 'git push --force'],
      ['git push origin main --force', 'git push --force'],
      ['git push origin +main', 'git push --force'],
      ['git stash drop', 'git stash drop/clear'],
      ['git stash clear', 'git stash drop/clear'],
      ['git branch -D feature', 'git branch -D'],
      ['git rebase -i HEAD~3', 'git rebase'],
      ['git rebase main', 'git rebase'],
      ['git filter-branch --tree-filter x', 'git filter-branch'],
      ['git filter-repo --path src', 'git filter-branch'],
      ['git status && git checkout -- a.ts', 'git checkout -- <paths>'],
    ]);
  });

  test('everyday git commands are not flagged', () => {
    expectLabels([
      ['git reset --soft HEAD~1', null],
      ['git reset HEAD a.ts', null],
      ['git checkout main', null],
      ['git checkout -b feature', null],
      ['git checkout feature-f', null],
      ['git restore --staged a.ts', null],
      ['git clean -n', null],
      ['git push', null],
      ['git push origin main', null],
      ['git push -u origin feature', null],
      ['git stash', null],
      ['git stash pop', null],
      ['git branch -d merged', null],
      ['git log --format=%H -- a.ts', null],
      ['git commit -m "rebase onto main"', null],
      ['git status', null],
    ]);
  });
});

describe('detectRiskyCommand: databases, disks and find', () => {
  test('destructive SQL is flagged, in any case and inside a client call', () => {
    expectLabels([
      ['DROP TABLE users', 'DROP/TRUNCATE'],
      ['psql -c "drop table users"', 'DROP/TRUNCATE'],
      ['DROP DATABASE app', 'DROP/TRUNCATE'],
      ['TRUNCATE TABLE sessions', 'DROP/TRUNCATE'],
      ['DELETE FROM users;', 'DELETE without WHERE'],
      ['DELETE FROM users', 'DELETE without WHERE'],
      ['psql -c "DELETE FROM users"', 'DELETE without WHERE'],
    ]);
  });

  test('reads and a DELETE with a WHERE clause are not flagged', () => {
    expectLabels([
      ['SELECT * FROM users WHERE id = 1', null],
      ['DELETE FROM users WHERE id = 1', null],
      ['psql -c "DELETE FROM users WHERE id = 1;"', null],
    ]);
  });

  test('find -delete, dd to a device and mkfs are flagged', () => {
    expectLabels([
      ["find . -name '*.o' -delete", 'find -delete'],
      ['dd if=/dev/zero of=/dev/sda bs=1M', 'dd to a device'],
      ['mkfs.ext4 /dev/sdb1', 'mkfs'],
      ['sudo mkfs /dev/sdb1', 'mkfs'],
    ]);
  });

  test('find without -delete and dd to a file are not flagged', () => {
    expectLabels([
      ["find . -name '*.o'", null],
      ["find . -name '*.o' -print", null],
      ['dd if=/dev/zero of=disk.img bs=1M count=1', null],
    ]);
  });
});

describe('detectRiskyCommand: known limits (current behaviour)', () => {
  test('quoted text is not parsed: a mention of a risky command counts', () => {
    // Detection only takes a checkpoint, so a false positive costs little.
    expectLabels([
      ['echo "rm -rf"', 'rm -rf'],
      ['grep -rn "git reset --hard" docs', 'git reset --hard'],
      ['cat mkfs.md', 'mkfs'],
    ]);
  });

  test('some destructive spellings are not recognised', () => {
    expectLabels([
      ['git -C repo reset --hard', null],
      ['git branch --delete --force feature', null],
      ['git restore --staged --worktree a.ts', null],
      ['DELETE FROM "users"', null],
    ]);
  });

  test('git restore -S (staged only) is flagged like a worktree restore', () => {
    expectLabels([['git restore -S a.ts', 'git restore']]);
  });
});
