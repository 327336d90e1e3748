import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactText, redactValue } from './redact.ts';
import { scanPrivateKeys } from './private-key-scan.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const body = (n: number, at = 0) =>
  Array.from({ length: n }, (_, i) => B64[(i * 11 + at) % 64]).join('');
const pem = (kind = 'RSA PRIVATE KEY', nl = '\n') =>
  `-----BEGIN ${kind}-----${nl}${body(64)}${nl}${body(64, 5)}${nl}${body(20, 9)}==${nl}-----END ${kind}-----`;

const redacted = async (text: string) => (await redactText(text)).text;

describe('private keys', () => {
  test('a whole PEM block goes, in every kind, and the text around it stays', async () => {
    for (const kind of [
      'RSA PRIVATE KEY',
      'PRIVATE KEY',
      'EC PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'ENCRYPTED PRIVATE KEY',
      'PGP PRIVATE KEY BLOCK',
    ]) {
      assert.equal(
        await redacted(`key:\n${pem(kind)}\ndone`),
        'key:\n[REDACTED:private-key]\ndone',
      );
    }
  });

  test('a short last line before the END line is part of the block', async () => {
    const key = `-----BEGIN PRIVATE KEY-----\n${body(64)}\nAB==\n-----END PRIVATE KEY-----`;
    assert.equal(await redacted(`a ${key} b`), 'a [REDACTED:private-key] b');
  });

  test('line breaks written as \\n escapes (a service-account JSON file)', async () => {
    const account = JSON.stringify({
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: '4f2d9c1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e',
      private_key: `${pem('PRIVATE KEY')}\n`,
      client_email: 'builder@demo-project.iam.gserviceaccount.com',
      client_id: '109876543210987654321',
    });
    const out = await redacted(account);
    assert.doesNotMatch(out, new RegExp(body(64).replace(/[+/]/g, '\\$&')));
    assert.doesNotMatch(out, /4f2d9c1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e/);
    assert.match(out, /"private_key":"\[REDACTED:private-key\]/);
    assert.match(out, /"client_email":"builder@demo-project/);
    // Read back as the file it was: its JSON still parses.
    JSON.parse(out);
  });

  test('a kubeconfig client-key-data (a PEM key base64-encoded again) goes; the certificate stays', async () => {
    const keyData = Buffer.from(pem('RSA PRIVATE KEY')).toString('base64');
    const certData = Buffer.from(
      `-----BEGIN CERTIFICATE-----\n${body(64)}\n-----END CERTIFICATE-----`,
    ).toString('base64');
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'users:',
      '- name: admin',
      '  user:',
      `    client-certificate-data: ${certData}`,
      `    client-key-data: ${keyData}`,
    ].join('\n');
    const out = await redacted(kubeconfig);
    assert.ok(!out.includes(keyData.slice(20, 80)), out);
    assert.match(out, /client-key-data: \[REDACTED:/);
    assert.ok(out.includes(certData));
  });

  test('a key cut off before its END line goes to where its base64 ends', async () => {
    const cut = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n${body(64)}\n${body(40, 3)}`;
    assert.equal(
      await redacted(`${cut}\n\nnext paragraph`),
      '[REDACTED:private-key]\n\nnext paragraph',
    );
  });

  test('an END line whose header is elsewhere takes the key material before it', async () => {
    assert.equal(
      await redacted(`${body(64)}\n${body(64, 2)}\n-----END PRIVATE KEY-----\nafter`),
      '[REDACTED:private-key]\nafter',
    );
  });

  test('empty blocks, lone headers and BEGIN␀END hold no key and stay as written', async () => {
    for (const text of [
      '-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----',
      'paste it after -----BEGIN RSA PRIVATE KEY----- please',
      '-----BEGIN PRIVATE KEY-----\0-----END PRIVATE KEY-----',
      '-----END PRIVATE KEY-----',
    ]) {
      assert.equal(await redacted(text), text);
    }
  });

  test('a header in one string and the key in the next: the key goes, no other string is touched', async () => {
    const value = {
      summary: 'x -----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY----- y',
      userRequests: [
        '-----BEGIN RSA PRIVATE KEY-----',
        `${body(64)}\n-----END RSA PRIVATE KEY-----`,
        'a\0-----BEGIN PRIVATE KEY-----\0-----END PRIVATE KEY-----',
        'keep me',
      ],
      currentContext: `${pem()} then -----BEGIN EC PRIVATE KEY-----`,
    };
    const { value: out } = await redactValue(value);
    assert.deepEqual(Object.keys(out), ['summary', 'userRequests', 'currentContext']);
    assert.equal(out.summary, value.summary);
    assert.deepEqual(out.userRequests, [
      '-----BEGIN RSA PRIVATE KEY-----',
      '[REDACTED:private-key]',
      value.userRequests[2],
      'keep me',
    ]);
    assert.equal(out.currentContext, '[REDACTED:private-key] then -----BEGIN EC PRIVATE KEY-----');
  });

  test('many headers without END lines, and many END lines without headers: each read once', () => {
    // Work per header is bounded, so 20k of them finish; a scanner that searched for the END
    // from every header would take quadratic time here.
    const headers = '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(20_000);
    assert.deepEqual(scanPrivateKeys(headers), []);
    const ends = `x\n-----END RSA PRIVATE KEY-----\n`.repeat(20_000);
    assert.deepEqual(scanPrivateKeys(ends), []);
  });
});
