/**
 * shim's own table of secret formats: each format found in the shapes it documents, the
 * families gitleaks' samples once showed raw (issue 26) each with a test, and values of any
 * length replaced whole.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanFormats } from './format-scan.ts';
import { redactText, redactTextSync } from './redact.ts';
import { SECRET_FORMATS } from './secret-formats.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A deterministic, generated-looking run of `n` characters of `alphabet` (seeded by `at`). */
function gen(alphabet: string, n: number, at = 0): string {
  let state = (at + 1) * 2654435761;
  let out = '';
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `text` redacted by both redactors, each losing `secret`. */
async function assertRedacted(text: string, secret: string, rule?: RegExp) {
  const full = await redactText(text);
  assert.ok(!full.text.includes(secret), `redactText kept ${secret} in ${full.text}`);
  if (rule) assert.match(full.text, rule);
  const sync = redactTextSync(text).text;
  assert.ok(!sync.includes(secret), `redactTextSync kept ${secret} in ${sync}`);
}

describe('the table of secret formats', () => {
  test('every format names its provider, and has something to find it by', () => {
    for (const f of SECRET_FORMATS) {
      assert.ok(f.provider.length > 1, f.id);
      assert.ok(/^[a-z0-9-]+$/.test(f.id), f.id);
      assert.ok(f.prefix || f.keyword || f.shape, f.id);
    }
    assert.ok(new Set(SECRET_FORMATS.map((f) => f.provider)).size >= 40);
  });

  test('each prefixed format finds a token of its documented alphabet and length', () => {
    const alphabets: Record<string, string> = {
      digits: DIGITS,
      hex: HEX + 'ABCDEF',
      lowerHex: HEX,
      alnum: ALNUM,
      lowerAlnum: LOWER,
      upperAlnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
      urlSafe: ALNUM + '_-',
      base64: ALNUM + '+/',
      letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
    };
    let tried = 0;
    for (const f of SECRET_FORMATS) {
      if (!f.prefix || f.shape || f.keyword) continue;
      const length = typeof f.body.length === 'number' ? f.body.length : f.body.length[0] + 4;
      const token = f.prefix[0] + gen(alphabets[f.body.alphabet]!, length, tried);
      const found = scanFormats(`value: ${token} end`);
      assert.ok(
        found.some((x) => x.rule === f.id && x.end - x.start === token.length),
        `${f.id}: ${token}`,
      );
      // One character more is a different, longer token, not this format.
      if (typeof f.body.length === 'number' && f.body.alphabet !== 'base64')
        assert.ok(!scanFormats(` ${token}${token.at(-1)} `).some((x) => x.rule === f.id), f.id);
      tried++;
    }
    assert.ok(tried >= 20, `${tried} formats tried`);
  });

  test('keyword formats need their keyword in the name the value is assigned to', () => {
    const id = gen(DIGITS, 16, 3);
    assert.ok(scanFormats(`ASANA_CLIENT_ID=${id}`).some((f) => f.rule === 'asana'));
    assert.ok(!scanFormats(`ORDER_NUMBER=${id}`).some((f) => f.rule === 'asana'));
    // `sumOfExposures` is not Sumo Logic's.
    assert.ok(
      !scanFormats(`sumOfValues = su${gen(ALNUM, 12)}`).some((f) => f.rule === 'sumologic'),
    );
  });
});

describe('the families once left raw are redacted', () => {
  test('Asana client id and secret', async () => {
    await assertRedacted(`ASANA_CLIENT_ID=${gen(DIGITS, 16, 1)}`, gen(DIGITS, 16, 1));
    await assertRedacted(`asanaSecret: "${gen(ALNUM, 32, 2)}"`, gen(ALNUM, 32, 2));
  });

  test('curl: the Authorization header and -u user:password', async () => {
    const uuid = '5eb4223e-5008-46e5-be67-c7b8f2732305';
    await assertRedacted(`curl --header  'Authorization:  ${uuid}' https://api.test`, uuid);
    await assertRedacted(`curl -H 'Authorization: Api-Token ${gen(HEX, 40)}' x`, gen(HEX, 40));
    const pair = `deployer:${gen(ALNUM, 16, 4)}`;
    await assertRedacted(`curl -k -X POST https://h/x \\\n  -d 'a' \\\n  -u ${pair}`, pair);
    await assertRedacted(`curl --user kevin:'${gen(ALNUM, 16, 5)}' -iX PATCH`, gen(ALNUM, 16, 5));
    // An API key as the user with an empty password; a plain user name with none stays.
    const key = `${gen(ALNUM, 14, 6)}!x`;
    await assertRedacted(`curl -u "${key}:" https://search.test:9200`, key);
    for (const plain of ['curl -u admin: https://h/x', 'docker run -u 1000: image']) {
      assert.equal((await redactText(plain)).text, plain);
      assert.equal(redactTextSync(plain).text, plain);
    }
  });

  test('Discord bot token, client id and secret', async () => {
    const bot = `MT${gen(ALNUM, 24, 1)}.${gen(ALNUM, 6, 2)}.${gen(ALNUM + '_-', 38, 3)}`;
    await assertRedacted(`Bot ${bot}`, bot, /\[REDACTED:discord\]/);
    await assertRedacted(`DISCORD_CLIENT_ID=${gen(DIGITS, 18, 4)}`, gen(DIGITS, 18, 4));
    await assertRedacted(`discord_public_key = "${gen(HEX, 64, 5)}"`, gen(HEX, 64, 5));
  });

  test('Dropbox app key and tokens', async () => {
    await assertRedacted(`dropboxAppKey="${gen(LOWER, 15, 1)}"`, gen(LOWER, 15, 1));
    const sl = `sl.${gen(ALNUM + '_-', 140, 2)}`;
    await assertRedacted(`DROPBOX_TOKEN=${sl}`, sl);
  });

  test('Facebook app and page access tokens', async () => {
    const app = `${gen(DIGITS, 15, 1)}|${gen(ALNUM + '_-', 27, 2)}`;
    await assertRedacted(`{"facebook access_token":"${app}"}`, app);
    const page = `EAAM${gen(ALNUM, 140, 3)}`;
    await assertRedacted(`token ${page}`, page, /\[REDACTED:facebook\]/);
  });

  test('LinkedIn client id and secret', async () => {
    await assertRedacted(`LINKEDIN_CLIENT_ID=${gen(LOWER, 14, 1)}`, gen(LOWER, 14, 1));
    await assertRedacted(`linkedin_secret: ${gen(ALNUM, 16, 2)}`, gen(ALNUM, 16, 2));
  });

  test('Mailgun private API key and webhook signing key', async () => {
    const key = `key-${gen(HEX, 32, 1)}`;
    await assertRedacted(`mailgunApiKey = "${key}"`, key);
    const signing = `${gen(HEX, 32, 2)}-${gen(HEX, 8, 3)}-${gen(HEX, 8, 4)}`;
    await assertRedacted(`signing ${signing}`, signing, /\[REDACTED:mailgun\]/);
  });

  test('Plaid client id, secret and access token', async () => {
    await assertRedacted(`PLAID_CLIENT_ID=${gen(ALNUM, 24, 1)}`, gen(ALNUM, 24, 1));
    await assertRedacted(`plaidSecret: "${gen(LOWER, 30, 2)}"`, gen(LOWER, 30, 2));
    const access = `access-sandbox-${gen(HEX, 8, 1)}-${gen(HEX, 4, 2)}-${gen(HEX, 4, 3)}-${gen(HEX, 4, 4)}-${gen(HEX, 12, 5)}`;
    await assertRedacted(`got ${access}`, access, /\[REDACTED:plaid\]/);
  });

  test('Sidekiq gem server credentials, in the Bundler variable and in the URL', async () => {
    const pair = `${gen(HEX, 8, 1)}:${gen(HEX, 8, 2)}`;
    await assertRedacted(`BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${pair}`, pair);
    await assertRedacted(`source "https://${pair}@gems.contribsys.com/"`, pair);
  });

  test('Square access token and application secret', async () => {
    const token = `sq0atp-${gen(ALNUM + '_-', 22, 1)}`;
    await assertRedacted(`square ${token}`, token, /\[REDACTED:square\]/);
    const secret = `sq0csp-${gen(ALNUM + '_-', 43, 2)}`;
    await assertRedacted(`SQUARE_SECRET=${secret}`, secret);
  });

  test('Sumo Logic access id and key', async () => {
    await assertRedacted(`SUMO_ACCESS_ID=su${gen(ALNUM, 12, 1)}`, `su${gen(ALNUM, 12, 1)}`);
    await assertRedacted(`sumologicKey: "${gen(ALNUM, 64, 2)}"`, gen(ALNUM, 64, 2));
  });

  test('Telegram bot token', async () => {
    const token = `${gen(DIGITS, 10, 1)}:AA${gen(ALNUM + '_-', 33, 2)}`;
    await assertRedacted(`bot = Bot("${token}")`, token, /\[REDACTED:telegram\]/);
  });

  test('Sourcegraph access token of an instance without an id (sgp_local_)', async () => {
    const token = `sgp_local_${gen(HEX + 'ABCDEF', 40, 1)}`;
    await assertRedacted(`echo ${token} | src login`, token, /\[REDACTED:sourcegraph\]/);
  });

  test('Pulumi access token, bare in a sentence', async () => {
    const token = `pul-${gen(HEX, 40, 2)}`;
    await assertRedacted(
      `log in with ${token} before the stack update`,
      token,
      /\[REDACTED:pulumi\]/,
    );
  });

  test('Sentry organization token whose JSON part ends in base64 padding', async () => {
    const json = Buffer.from('{"iat":1700000000.5,"url":"https://sentry.acme.io","org":"acme"}');
    const token = `sntrys_${json.toString('base64')}_${gen(ALNUM, 43, 2)}`;
    assert.match(token, /=_/);
    await assertRedacted(`run with ${token} now`, token, /\[REDACTED:sentry\] now/);
  });

  test('X (Twitter) bearer token', async () => {
    const token = `${'A'.repeat(22)}${gen(ALNUM, 30, 1)}%3D${gen(ALNUM, 60, 2)}`;
    await assertRedacted(`const b = "${token}"`, token, /\[REDACTED:twitter-bearer\]/);
  });
});

describe('values of any length', () => {
  test('an assigned value over 1 KB is replaced whole, also quoted and in JSON', async () => {
    const value = gen(ALNUM + '+/', 1500, 3);
    for (const text of [
      `API_KEY=${value}`,
      `export SECRET_TOKEN="${value}"`,
      JSON.stringify({ client_secret: value, note: 'kept' }),
    ]) {
      const out = (await redactText(text)).text;
      assert.ok(
        !out.includes(value.slice(0, 16)) && !out.includes(value.slice(-16)),
        out.slice(0, 80),
      );
    }
  });

  test('a 1 MB assigned value is replaced whole, and a 1 MB line without one is left as it is', async () => {
    const value = gen(ALNUM, 1 << 20, 5);
    const out = (await redactText(`PASSWORD=${value}\nnext`)).text;
    assert.equal(out, 'PASSWORD=[REDACTED:secret-assignment]\nnext');
    // A long random value holds runs like `xxxx` by chance: it is not a mask.
    const b64 = `${gen(ALNUM + '+/', 300_000, 6)}xxxx${gen(ALNUM + '+/', 300_000, 7)}`;
    assert.equal(
      (await redactText(`export TOKEN="${b64}"`)).text,
      'export TOKEN="[REDACTED:secret-assignment]"',
    );
    const prose = 'the quick brown fox jumps over the lazy dog '.repeat(24_000);
    assert.equal((await redactText(prose)).text, prose);
  });
});
