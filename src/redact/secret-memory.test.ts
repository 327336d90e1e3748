import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { B62, B64, DIGITS, HEX, LOWER, madeUp, UPPER } from './made-up.test-helper.ts';
import { forgetRememberedValue, redactTextSync, redactValueSync, SecretMemory } from './redact.ts';

const { gen } = madeUp(0x3e3);

describe('SecretMemory', () => {
  test('remembers a distinctive value and finds it again, whole, at its edges', () => {
    const value = gen(B62, 28);
    const memory = new SecretMemory();
    assert.equal(memory.learn(value, 'vault'), true);
    assert.equal(memory.learn(value, 'other'), false, 'one value is one entry');
    const text = `a ${value}, "${value}" x${value} ${value}y -H "X: ${value}"`;
    const found = memory.find(text).map((f) => text.slice(f.start, f.end));
    // Inside a longer run of letters and digits it is another token: `x…`, `…y`.
    assert.deepEqual(found, [value, value, value]);
    assert.deepEqual(
      memory.find(text).map((f) => f.rule),
      ['vault', 'vault', 'vault'],
    );
  });

  test('keeps no value: what it saves is lengths and hashes', () => {
    const value = gen(B62, 32);
    const memory = new SecretMemory();
    memory.learn(value, 'secret-assignment');
    const saved = memory.saved();
    assert.equal(saved.length, 1);
    assert.ok(!saved.join('\n').includes(value.slice(0, 6)));
    assert.match(saved[0]!, /^secret-assignment:32:[0-9a-z]+:[0-9a-z]+$/);
    const again = SecretMemory.from(saved);
    assert.deepEqual(again.find(`use ${value}`), [
      { rule: 'secret-assignment', start: 4, end: 36 },
    ]);
  });

  test('skips malformed saved lines', () => {
    const memory = SecretMemory.from(['nonsense', 'a:b:c:d', '', 'x:12:zz:']);
    assert.equal(memory.size, 0);
  });

  test('does not remember what ordinary text holds', () => {
    const memory = new SecretMemory();
    for (const ordinary of ['postgres', 'changeme', 'hunter2', 'development', 'localhost:5432']) {
      assert.equal(memory.learn(ordinary, 'secret-assignment'), false, ordinary);
    }
    assert.equal(memory.learn('/home/ada/.ssh/id_ed25519', 'x'), false);
    assert.equal(memory.learn('${API_TOKEN_FROM_THE_ENV}', 'x'), false);
    assert.equal(memory.size, 0);
  });

  test('of two values standing at one place, the one remembered first is found', () => {
    const short = gen(B62, 24);
    const long = `${short}-${gen(B62, 20)}`;
    const text = `token ${long} end`;
    for (const [first, second] of [
      [short, long],
      [long, short],
    ] as const) {
      const memory = new SecretMemory();
      memory.learn(first, 'first');
      memory.learn(second, 'second');
      const found = memory.find(text);
      assert.equal(found[0]?.rule, 'first');
      assert.equal(text.slice(found[0]!.start, found[0]!.end), first);
    }
  });

  test(
    'a pathological text stays linear: no value crossing the string, no rescan per place',
    {
      timeout: 20_000,
    },
    () => {
      const memory = new SecretMemory();
      // 2,000 values that share their first characters with every place of the text.
      for (let i = 0; i < 2000; i++) memory.learn(`aaaaaa${gen(HEX, 20)}`, 'x');
      const text = `${'aaaaaa-'.repeat(300_000)}`;
      assert.deepEqual(memory.find(text), []);
    },
  );
});

describe('once found, gone everywhere', () => {
  const vault = `s.${gen(B62, 24)}`;

  test('in one text: found in an assignment, replaced where it stands alone', () => {
    const text = `export VAULT_TOKEN=${vault}\n\nplease deploy it with ${vault} today`;
    const out = redactTextSync(text).text;
    assert.ok(!out.includes(vault), out);
    assert.match(out, /deploy it with \[REDACTED:[a-z-]+\] today/);
  });

  test('in one value: found in one string, replaced in every other', () => {
    const { value } = redactValueSync({
      prompts: [`deploy it with ${vault}`, 'thanks'],
      tools: [{ command: `curl -H "X-Request: ${vault}" https://acme.test` }],
      env: [`VAULT_TOKEN=${vault}`],
      summary: `The user deployed with ${vault}.`,
    });
    assert.ok(!JSON.stringify(value).includes(vault), JSON.stringify(value));
    assert.equal(value.prompts[1], 'thanks');
  });

  test('across calls: a memory carries what was found to later texts', () => {
    const memory = new SecretMemory();
    assert.equal(redactTextSync(`deploy it with ${vault}`, memory).text, `deploy it with ${vault}`);
    redactTextSync(`VAULT_TOKEN=${vault}`, memory);
    assert.match(
      redactTextSync(`deploy it with ${vault}`, memory).text,
      /^deploy it with \[REDACTED:[a-z-]+\]$/,
    );
  });

  test('never from one string into another', () => {
    const { value } = redactValueSync([
      `VAULT_TOKEN=${vault}`,
      vault.slice(0, 12),
      vault.slice(12),
    ]);
    assert.deepEqual(value.slice(1), [vault.slice(0, 12), vault.slice(12)]);
  });

  test('in what was stored before: only the remembered values are replaced, keys too', () => {
    const memory = new SecretMemory();
    redactTextSync(`VAULT_TOKEN=${vault}`, memory);
    // Stored earlier, redacted then: what the rules find is not looked for again.
    const other = `API_KEY=${gen(B62, 32)}`;
    const stored = { summary: `deploy with ${vault}`, [vault]: [other, 7, null], n: 2 };
    const { value, findings } = forgetRememberedValue(stored, memory);
    assert.equal(findings, 2);
    assert.deepEqual(Object.values(value), ['deploy with [REDACTED:vault]', [other, 7, null], 2]);
    assert.ok(!JSON.stringify(value).includes(vault));
    assert.deepEqual(forgetRememberedValue(stored, new SecretMemory()), {
      value: stored,
      findings: 0,
    });
  });

  test("a URL's short password: the user and password written again as a pair", () => {
    const user = gen(HEX, 8);
    const password = gen(HEX, 8);
    const memory = new SecretMemory();
    redactTextSync(`BUNDLE_URL=https://${user}:${password}@gems.acme.test/`, memory);
    const out = redactTextSync(`then run it with ${user}:${password} again`, memory).text;
    assert.ok(!out.includes(password), out);
    // `guest:guest` is no secret worth hunting in every sentence.
    const guest = new SecretMemory();
    redactTextSync('amqp://guest:guest@localhost:5672//', guest);
    assert.equal(guest.size, 0);
  });

  test('an ordinary password is redacted where it is assigned, not hunted elsewhere', () => {
    const { value } = redactValueSync([`PGPASSWORD=postgres psql`, 'the postgres server']);
    assert.deepEqual(value, [
      'PGPASSWORD=[REDACTED:secret-assignment] psql',
      'the postgres server',
    ]);
  });

  test("a URL's user and password, found with the host after them, written again as a pair", () => {
    const user = gen(HEX, 8);
    const password = gen(HEX, 8);
    const memory = new SecretMemory();
    // The provider's format spans the user information and its host (formats-work-tools.ts).
    const own = redactTextSync(`source "https://${user}:${password}@gems.contribsys.com"`, memory);
    assert.ok(!own.text.includes(password), own.text);
    const out = redactTextSync(`deploy it with ${user}:${password} please`, memory).text;
    assert.ok(!out.includes(password), out);
  });

  test('a value of a scheme and a token, or of tokens in a list: each token hunted alone', () => {
    const first = gen(B64, 60);
    const second = gen(B64, 60);
    const memory = new SecretMemory();
    redactTextSync(`ENV ACME_API_TOKEN="Acme1 ${first},${second}"`, memory);
    for (const token of [first, second]) {
      const out = redactTextSync(`Error: upstream rejected ${token} (HTTP 401)`, memory).text;
      assert.ok(!out.includes(token), out);
    }
  });

  test('a short generated run of both cases in pieces no word has is hunted too', () => {
    // Two-letter pieces with digits between (`ab1CD23efGhIj4`), or a piece opening on four
    // consonants: each piece has a vowel or not, no name in code is made so.
    const { gen: pick } = madeUp(0x3e4);
    const vowel = () => pick('aeiou', 1);
    const chopped = `${pick(LOWER, 1)}${vowel()}${pick(DIGITS, 1)}${pick(UPPER, 1)}${vowel().toUpperCase()}${pick(DIGITS, 2)}${pick(LOWER, 1)}${vowel()}${pick(UPPER, 1)}${vowel()}${pick(UPPER, 1)}${vowel()}${pick(DIGITS, 1)}`;
    const clustered = `${pick(LOWER, 1)}${vowel()}${pick(LOWER, 1)}${pick(DIGITS, 1)}X${pick('bcdfghjklmnpqrstvwxz', 3)}${vowel()}${pick(LOWER, 3)}`;
    for (const value of [chopped, clustered]) {
      const memory = new SecretMemory();
      redactTextSync(`acme_access_key = "${value}"`, memory);
      assert.equal(memory.size, 1, value);
      const out = redactTextSync(`deploy it to staging with ${value} please`, memory).text;
      assert.ok(!out.includes(value), out);
    }
    // Names in code stay unhunted.
    const names = new SecretMemory();
    for (const name of ['parseAndLogHookInput', 'utf8ToBase64Encoder', 'listSpecWorkflowRuns'])
      assert.equal(names.learn(name, 'secret-assignment'), false, name);
  });
});
