import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseGitRemote, projectIdentity } from './project-identity.ts';

test('every spelling of one remote normalises to one name', () => {
  for (const remote of [
    'git@github.com:Acme/Widget.git',
    'https://github.com/acme/widget',
    'https://user:token@GitHub.com/ACME/Widget.git/',
    'ssh://git@github.com:22/Acme/Widget.git',
    'ssh://git@ssh.github.com:443/Acme/Widget.git',
    'git+ssh://git@github.com/acme/Widget',
    'git@github.com:/Acme/Widget.git',
    'https://www.github.com/Acme/Widget',
  ])
    assert.equal(normaliseGitRemote(remote), 'github.com/acme/widget', remote);
  assert.equal(
    normaliseGitRemote('git@ssh.dev.azure.com:v3/Contoso/Web/Shop'),
    normaliseGitRemote('https://Contoso@dev.azure.com/Contoso/Web/_git/Shop'),
  );
  assert.equal(
    normaliseGitRemote('https://contoso.visualstudio.com/Web/_git/Shop'),
    'dev.azure.com/contoso/web/shop',
  );
});

test('a server that may tell cases apart keeps them (its host still lower-cased)', () => {
  assert.equal(normaliseGitRemote('git@Git.Example.COM:Team/App.git'), 'git.example.com/Team/App');
  assert.notEqual(
    normaliseGitRemote('https://git.example.com/team/app'),
    normaliseGitRemote('https://git.example.com/Team/App'),
  );
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
    machine: 'laptop',
  });
  const b = projectIdentity({
    projectRoot: '/work/b/app-clone/',
    repoRoot: '/work/b/app-clone',
    remote: 'https://github.com/org/app',
    machine: 'desk',
  });
  assert.deepEqual(a, b);
  assert.deepEqual(
    projectIdentity({
      projectRoot: '/x/app/packages/Api',
      repoRoot: '/x/app',
      remote: 'https://github.com/Org/App',
      machine: 'laptop',
    }),
    { id: 'github.com/org/app//packages/Api', pathInRepo: 'packages/Api' },
  );
});

test('without a remote the machine and the path name the project: two /workspace are two', () => {
  const on = (machine: string) =>
    projectIdentity({ projectRoot: '/workspace', repoRoot: '/workspace', remote: null, machine });
  assert.deepEqual(on('box-1'), { id: 'path:box-1:/workspace', pathInRepo: '' });
  assert.notEqual(on('box-1').id, on('box-2').id);
});
