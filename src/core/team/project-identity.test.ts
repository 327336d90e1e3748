import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseGitRemote, projectIdentity } from './project-identity.ts';

test('every spelling of one remote normalises to one name', () => {
  for (const remote of [
    'git@github.com:Org/App.git',
    'https://github.com/Org/App',
    'https://user@GitHub.com/Org/App.git/',
    'ssh://git@github.com:22/Org/App.git',
    'git+ssh://git@github.com/Org/App',
  ])
    assert.equal(normaliseGitRemote(remote), 'github.com/Org/App', remote);
});

test('a local path as remote stays a path; junk is not a remote', () => {
  assert.equal(normaliseGitRemote('/srv/git/app.git'), 'file:/srv/git/app');
  assert.equal(normaliseGitRemote('file:///srv/git/app.git'), 'file:/srv/git/app');
  assert.equal(normaliseGitRemote(''), null);
  assert.equal(normaliseGitRemote('not a remote'), null);
});

test('two clones at different paths are one project; a subfolder project carries its path', () => {
  const a = projectIdentity({
    projectRoot: '/home/a/src/app',
    repoRoot: '/home/a/src/app',
    remote: 'git@github.com:Org/App.git',
  });
  const b = projectIdentity({
    projectRoot: '/work/b/app-clone/',
    repoRoot: '/work/b/app-clone',
    remote: 'https://github.com/Org/App',
  });
  assert.deepEqual(a, b);
  assert.deepEqual(
    projectIdentity({
      projectRoot: '/x/app/packages/api',
      repoRoot: '/x/app',
      remote: 'https://github.com/Org/App',
    }),
    { id: 'github.com/Org/App//packages/api', pathInRepo: 'packages/api' },
  );
});

test('without a remote the path names the project', () => {
  assert.deepEqual(projectIdentity({ projectRoot: '/x/app', repoRoot: '/x/app', remote: null }), {
    id: 'path:/x/app',
    pathInRepo: '',
  });
});
