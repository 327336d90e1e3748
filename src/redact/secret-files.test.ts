import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { B62, madeUp } from './made-up.test-helper.ts';
import { redactTextSync } from './redact.ts';
import { secretFileName, secretFileStandIn } from './secret-files.ts';

const { gen } = madeUp(0xf11e);

describe('secretFileName', () => {
  const secret: Array<[path: string, shown: string]> = [
    ['/srv/app/.env', '.env'],
    ['.env.local', '.env.local'],
    ['config/.env.production', '.env.production'],
    ['deploy/prod.env', 'prod.env'],
    ['/home/ada/.netrc', '.netrc'],
    ['C:\\Users\\ada\\_netrc', '_netrc'],
    ['/home/ada/.pgpass', '.pgpass'],
    ['~/.ssh/id_ed25519', 'id_ed25519'],
    ['/home/ada/.ssh/id_rsa', 'id_rsa'],
    ['/home/ada/.ssh/id_deploy_github', 'id_deploy_github'],
    ['certs/server.key', 'server.key'],
    ['certs/tls.pem', 'tls.pem'],
    ['/home/ada/.npmrc', '.npmrc'],
    ['/home/ada/.docker/config.json', '.docker/config.json'],
    ['/home/ada/.aws/credentials', '.aws/credentials'],
    ['/home/ada/.kube/config', '.kube/config'],
    ['ops/staging.kubeconfig', 'staging.kubeconfig'],
    ['config/secrets.yml', 'secrets.yml'],
    ['config/master.key', 'master.key'],
    ['/var/lib/jenkins/credentials.xml', 'credentials.xml'],
    ['infra/terraform.tfvars', 'terraform.tfvars'],
    ['/home/ada/.bash_history', '.bash_history'],
    ['/home/ada/.zshrc', '.zshrc'],
    ['/etc/shadow', 'etc/shadow'],
    ['/srv/site/.htpasswd', '.htpasswd'],
    ['/home/ada/.git-credentials', '.git-credentials'],
  ];
  for (const [path, shown] of secret) {
    test(`${path} is a secret file`, () => assert.equal(secretFileName(path), shown));
  }
  for (const path of [
    '.env.example',
    '/srv/app/.env.sample',
    '.env.template',
    'config/.env.local.example',
    'example.env',
    '/home/ada/.ssh/id_ed25519.pub',
    '/home/ada/.ssh/known_hosts',
    'src/env.ts',
    'docs/environment.md',
    'src/key-names.ts',
    'README.md',
    '/home/ada/.aws/config',
  ]) {
    test(`${path} is not`, () => assert.equal(secretFileName(path), null));
  }

  test('the stand-in keeps the name and the line count', () => {
    assert.equal(
      secretFileStandIn('.env', 'A=1\nB=2\nC=3\n'),
      '[REDACTED:secret-file] (.env, 3 lines)',
    );
    assert.equal(secretFileStandIn('id_rsa', ''), '[REDACTED:secret-file] (id_rsa, 0 lines)');
  });
});

describe('diffs of secret files', () => {
  test('the section of a secret file is replaced whole, the others stay', () => {
    const value = gen(B62, 12);
    const diff = [
      'diff --git a/src/app.ts b/src/app.ts',
      'index 1111111..2222222 100644',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -1 +1 @@',
      '-const a = 1;',
      '+const a = 2;',
      'diff --git a/.env b/.env',
      'index 3333333..4444444 100644',
      '--- a/.env',
      '+++ b/.env',
      '@@ -1,2 +1,2 @@',
      ` MODE=${value}`,
      `-WEATHER=${value}x`,
      `+WEATHER=${value}y`,
      'diff --git a/README.md b/README.md',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1 +1 @@',
      '-old',
      '+new',
    ].join('\n');
    const out = redactTextSync(diff).text;
    assert.ok(!out.includes(value), out);
    assert.match(
      out,
      /diff --git a\/\.env b\/\.env\n\[REDACTED:secret-file\]\ndiff --git a\/README\.md/,
    );
    assert.match(out, /\+const a = 2;/);
    assert.match(out, /\+new$/);
  });

  test('a plain `diff -u` of a dotenv file', () => {
    const value = gen(B62, 12);
    const diff = `--- .env.old\t2026-01-01\n+++ .env\t2026-01-02\n@@ -1 +1 @@\n-MODE=a${value}\n+MODE=b${value}\n`;
    const out = redactTextSync(diff).text;
    assert.ok(!out.includes(value), out);
  });

  test('a diff of an example file stays', () => {
    const diff =
      'diff --git a/.env.example b/.env.example\n--- a/.env.example\n+++ b/.env.example\n@@ -1 +1 @@\n-MODE=dev\n+MODE=prod';
    assert.equal(redactTextSync(diff).text, diff);
  });
});
