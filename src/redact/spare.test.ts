/**
 * What is spared as plainly not a secret, one family per test: each made-up value of a shape is
 * left alone, and a generated value of the same shape, in the same place, is still redacted —
 * by the full redactor and by the synchronous one the hooks run.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactText, redactTextSync } from './redact.ts';

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
/** A deterministic, generated-looking run of `n` characters of `alphabet`. */
function gen(alphabet: string, n: number, seed = 7): string {
  let state = seed * 2654435761;
  let out = '';
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
const b64 = (s: string) => Buffer.from(s).toString('base64').replace(/=+$/, '');

async function assertSpared(text: string) {
  assert.equal((await redactText(text)).text, text, 'redactText altered it');
  assert.equal(redactTextSync(text).text, text, 'redactTextSync altered it');
}

async function assertRedacted(text: string, secret: string) {
  const full = (await redactText(text)).text;
  assert.ok(!full.includes(secret), `redactText kept ${secret} in ${full}`);
  const sync = redactTextSync(text).text;
  assert.ok(!sync.includes(secret), `redactTextSync kept ${secret} in ${sync}`);
}

describe('made-up values are spared, real ones of the same shape are not', () => {
  test('under a credential name, a value typed by hand is redacted; a filler is not', async () => {
    // Counting groups and runs someone typed are still the credential they set (issue 38).
    const counted = '12345678-ABCD-ABCD-ABCD-1234567890AB';
    await assertRedacted(`orbitToken="${counted}"`, counted);
    await assertRedacted(`ACME_API_KEY=abcd1234efgh5678ijkl`, 'abcd1234efgh5678ijkl');
    // …but there is no credential in one character or group over and over, nor in a word
    // saying it is an example.
    await assertSpared(`orbitToken="${'a'.repeat(32)}"`);
    await assertSpared(`ACME_API_KEY=glc_${'1'.repeat(40)}=`);
    await assertSpared(`ACME_API_KEY=${'9f3'.repeat(8)}`);
    await assertSpared(`ACME_API_KEY=your_api_key_1234`);
    // In prose, with no name to say what it is, a counting run is still taken as made up.
    await assertSpared(`use this: ${counted} for the demo`);
  });

  test('a provider token whose body is one letter over and over', async () => {
    await assertSpared(`GITLAB_TOKEN=glpat-${'q'.repeat(20)}`);
    await assertSpared(`deploy with sntryu_${'z'.repeat(64)} please`);
    const real = `glpat-${gen(B62, 20)}`;
    await assertRedacted(`GITLAB_TOKEN=${real}`, real);
  });

  test('a provider token whose body is a short group repeated', async () => {
    await assertSpared(`runner token: GR1348941${'7e9'.repeat(7)}`);
    const real = `GR1348941${gen(B62, 21, 3)}`;
    await assertRedacted(`runner token: ${real}`, real);
  });

  test('the letters zero bytes encode to still count as a token', async () => {
    // Twitter's app-only bearer tokens start with 22 `A`s; a run of them is part of the format.
    const real = `${'A'.repeat(22)}${gen(B62, 90, 5)}`;
    await assertRedacted(`TWITTER_BEARER_TOKEN=${real}`, real);
  });

  test('a token whose ids are one number written three times', async () => {
    await assertSpared(`"slack": "xoxb-9876-9876-9876-${gen(HEX, 32, 11)}"`);
    const real = `xoxb-${gen('0123456789', 12, 2)}-${gen('0123456789', 13, 4)}-${gen(B62, 24, 6)}`;
    await assertRedacted(`"slack": "${real}"`, real);
  });

  test('a token cut off by a mask right after it', async () => {
    const head = `xoxp-${gen('0123456789', 12, 8)}-${gen('0123456789', 12, 9)}`;
    await assertSpared(`"bot": "${head}-${'#'.repeat(24)}"`);
    await assertSpared(`"bot": "${head}-${'*'.repeat(12)}"`);
    // A tool's own mask after a value cut short.
    await assertSpared(`signing:\n  secret: sk_${gen(B62, 12, 19)}..[Redacted]`);
    const real = `${head}-${gen('0123456789', 12, 10)}-${gen(HEX, 32, 12)}`;
    await assertRedacted(`"bot": "${real}"`, real);
  });

  test("secretlint's slack findings end in a generated segment", async () => {
    // secretlint's rule alone (the full path) took these: a word, a file name's number.
    await assertSpared('Rotate the xoxe.xoxp-2-welcome token from the app settings page.');
    await assertSpared('see /img/2019-04-xoxo-party-2.png');
    await assertSpared('SLACK_BOT=xoxb-xoxb-team-bot-name');
    const real = `xoxr-3-${gen(B62, 12, 13)}${gen('0123456789', 2, 14)}`;
    assert.ok(!(await redactText(`"refresh": "${real}"`)).text.includes(real));
  });

  test('a name that says its value is not a real one', async () => {
    const value = gen('abcdefghijklmnopqrstuvwxyz0123456789', 16, 15);
    await assertSpared(`invalidToken := "${value}"`);
    await assertSpared(`FAKE_API_KEY=${value}`);
    await assertSpared(`{"wrong_password": "${value}"}`);
    await assertRedacted(`authToken := "${value}"`, value);
    await assertRedacted(`API_KEY=${value}`, value);
    // `test` names a test environment's key, which is real.
    await assertRedacted(`TEST_API_KEY=${value}`, value);
  });

  test("a form's anti-forgery token is no credential", async () => {
    const value = gen(B62, 43, 16);
    await assertSpared(`<input type="hidden" name="authenticity_token" value="${value}" />`);
    await assertSpared(`csrfToken: "${value}"`);
    await assertRedacted(`auth_token: "${value}"`, value);
  });

  test('a label or the start of another assignment as the value', async () => {
    await assertSpared('api_token = "bearer:"');
    await assertSpared('password = "db_password = "');
    await assertRedacted('password = "Tr0ub4dor:3"', 'Tr0ub4dor:3');
    // base64's padding is not an assignment.
    const padded = `${gen(B62, 30, 16)}=`;
    await assertRedacted(`SECRET=${padded}`, padded);
  });

  test('the cut-off head of a token that is base64 of JSON', async () => {
    const head = b64('{"server":"https://vault.acme.io","account":"ops"');
    await assertSpared(`export VAULT_TOKEN=vlt_${head.slice(0, 40)}...`);
    await assertSpared(`AUTH_TOKEN=${b64('{"alg":"RS256","kid":"k1"}')}…`);
    // A head that reaches a key field holds part of the secret: it goes.
    const withKey = b64(`{"server":"vault.acme.io","key":"${gen(B62, 32, 17)}"}`);
    await assertRedacted(`export VAULT_TOKEN=vlt_${withKey}...`, withKey.slice(0, 60));
    // Without the ellipsis it is the whole token.
    const whole = `vlt_${head}${gen(B62, 40, 18)}`;
    await assertRedacted(`export VAULT_TOKEN=${whole}`, whole);
  });
});
