import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactText, redactTextSync, redactValue } from './redact.ts';

// Samples are generated at run time from a seeded generator: nothing here is a real key, and no
// key-shaped literal sits in the repository for secret scanners to trip over.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const B62 = UPPER + LOWER + DIGITS;
const B64URL = B62 + '-_';
const B64 = B62 + '+/';
const HEX = '0123456789abcdef';
/** `length` characters of `alphabet`, always with an upper-case letter, a lower-case one and a digit. */
function gen(alphabet: string, length: number): string {
  for (;;) {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    const mixed = /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
    if (mixed || !/[A-Z]/.test(alphabet) || !/[a-z]/.test(alphabet)) return s;
  }
}
const digits = (n: number) => gen(DIGITS, n);
const pem = (label: string, magic: string, lines: number) =>
  [
    `-----BEGIN ${label}-----`,
    magic + gen(B64, 64 - magic.length),
    ...Array.from({ length: lines - 1 }, () => gen(B64, 64)),
    gen(B64, 20) + '==',
    `-----END ${label}-----`,
  ].join('\n');
const jwt = (payload: object) =>
  [
    Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url'),
    Buffer.from(JSON.stringify(payload)).toString('base64url'),
    gen(B64URL, 43),
  ].join('.');

type Positive = {
  name: string;
  /** The text around the secret; `@` marks where each secret goes. */
  text: string;
  secrets: string[];
  /** The marker expected in place of the (first) secret. */
  rule: string;
};

function positive(name: string, rule: string, text: string, ...secrets: string[]): Positive {
  return { name, rule, text, secrets };
}

const fill = (template: string, secrets: string[]) => {
  let i = 0;
  return template.replace(/@@/g, () => secrets[i++] ?? '');
};

const POSITIVES: Positive[] = [
  // Authorization headers
  positive(
    'curl bearer header',
    'bearer-token',
    'curl -H "Authorization: Bearer @@" https://api.internal.test/v1/items',
    gen(B64URL, 40),
  ),
  positive(
    'bearer header in JSON',
    'bearer-token',
    '{"headers":{"Authorization":"Bearer @@","Accept":"application/json"}}',
    gen(B62, 32),
  ),
  positive(
    'raw HTTP request',
    'bearer-token',
    'GET /v2/me HTTP/1.1\nHost: api.test\nauthorization: bearer @@\n\n',
    gen(B64URL, 24) + '.' + gen(B64URL, 12),
  ),
  positive(
    'basic auth header',
    'authorization',
    'Authorization: Basic @@',
    Buffer.from(`deploy:${gen(B62, 14)}`).toString('base64'),
  ),
  // Secret assignments (.env, shell, YAML, JSON, code, CLI flags)
  positive(
    'key: value in prose, more words after it',
    'secret-assignment',
    "I'll use deploy_token: @@ instead of the old one.",
    gen(LOWER + DIGITS, 32),
  ),
  positive(
    '.env password',
    'secret-assignment',
    'DB_HOST=db\nDB_PASSWORD=@@\nDB_PORT=5432',
    gen(B62, 18),
  ),
  positive('export token', 'secret-assignment', 'export SERVICE_TOKEN="@@"', gen(B62, 28)),
  positive('PASSWD', 'secret-assignment', 'PASSWD=@@ ./run.sh', 'hunter2-' + digits(3)),
  positive('PGPASSWORD', 'secret-assignment', 'PGPASSWORD=@@ psql -h db app', gen(B62, 12)),
  positive('weak *_KEY with a random value', 'secret-assignment', 'APP_KEY=@@', gen(B62, 32)),
  positive('value cut short by truncation', 'secret-assignment', 'API_TOKEN=@@…', gen(B62, 20)),
  positive(
    'base64 value starting with a slash',
    'secret-assignment',
    'SIGNING_SECRET=@@',
    '/' + gen(B62 + '/', 39),
  ),
  positive('ACCESS_KEY in YAML', 'secret-assignment', 'storage:\n  ACCESS_KEY: @@\n', gen(B62, 20)),
  positive(
    'client_secret in YAML',
    'secret-assignment',
    'oauth:\n  client_secret: @@',
    gen(B62, 24),
  ),
  positive('apiKey in JSON', 'secret-assignment', '{"name":"svc","apiKey": "@@"}', gen(B62, 30)),
  positive(
    'JSON-escaped inside a string',
    'secret-assignment',
    '"{\\"password\\": \\"@@\\"}"',
    gen(B62, 14),
  ),
  positive('code literal', 'secret-assignment', 'const dbPassword = "@@";', 'Tr0ub4dor&3x'),
  positive('CLI flag', 'secret-assignment', 'mytool login --password @@ --user me', gen(B62, 15)),
  positive('CLI flag with =', 'secret-assignment', 'deploy --api-key=@@ prod', gen(B62, 26)),
  positive(
    'curl -u',
    'secret-assignment',
    'curl -u @@ https://ci.test/api',
    `admin:${gen(B62, 14)}`,
  ),
  positive(
    '.npmrc _authToken',
    'secret-assignment',
    '//registry.example.test/:_authToken=@@',
    gen(B62, 30),
  ),
  positive(
    'query string token',
    'secret-assignment',
    'GET /feed?access_token=@@&page=2',
    gen(B62, 30),
  ),
  // Stripe
  positive('stripe live secret', 'stripe', 'stripe.api_key = "@@"', 'sk_live_' + gen(B62, 24)),
  positive('stripe restricted', 'stripe', 'key: @@,', 'rk_live_' + gen(B62, 32)),
  positive('stripe test secret', 'stripe', 'Using @@ for the test run', 'sk_test_' + gen(B62, 24)),
  // Slack
  positive(
    'slack bot token',
    'slack',
    'token=@@',
    `xoxb-${digits(11)}-${digits(13)}-${gen(B62, 24)}`,
  ),
  positive(
    'slack user token in prose',
    'slack',
    'the user token is @@ (rotate it)',
    `xoxp-${digits(11)}-${digits(11)}-${digits(13)}-${gen(HEX, 32)}`,
  ),
  positive(
    'slack webhook',
    'slack',
    'curl -X POST @@ -d @payload.json',
    `https://hooks.slack.com/services/T${gen(UPPER + DIGITS, 8)}/B${gen(UPPER + DIGITS, 10)}/${gen(B62, 24)}`,
  ),
  // Google
  positive(
    'google api key in URL',
    'google-api-key',
    'https://maps.test/api?key=@@&q=x',
    'AIza' + gen(B64URL, 35),
  ),
  positive(
    'google api key in config',
    'google-api-key',
    'firebase: { key: "@@" }',
    'AIza' + gen(B64URL, 35),
  ),
  // OpenAI
  positive('openai legacy key', 'openai', 'openai.api_key = "@@"', 'sk-' + gen(B62, 48)),
  positive('openai project key', 'openai', 'OPENAI_API_KEY=@@', 'sk-proj-' + gen(B64URL, 156)),
  positive(
    'openai key in prose',
    'openai',
    'use @@ for now',
    'sk-' + gen(B62, 20) + 'T3BlbkFJ' + gen(B62, 20),
  ),
  // Anthropic
  positive(
    'anthropic api key',
    'anthropic',
    'ANTHROPIC_API_KEY=@@',
    'sk-ant-api03-' + gen(B64URL, 93) + 'AA',
  ),
  positive(
    'anthropic admin key in JSON',
    'anthropic',
    '{"x-api-key": "@@"}',
    'sk-ant-admin01-' + gen(B64URL, 93) + 'AA',
  ),
  positive('anthropic short form', 'anthropic', 'key @@ leaked', 'sk-ant-' + gen(B64URL, 40)),
  // GitHub
  positive(
    'github classic PAT',
    'github',
    'git clone https://@@@github.com/o/r.git',
    'ghp_' + gen(B62, 36),
  ),
  positive('github oauth', 'github', 'GH_TOKEN=@@', 'gho_' + gen(B62, 36)),
  positive('github user-to-server', 'github', 'token @@', 'ghu_' + gen(B62, 36)),
  positive('github server-to-server', 'github', '"token": "@@"', 'ghs_' + gen(B62, 36)),
  positive('github refresh', 'github', 'refresh=@@', 'ghr_' + gen(B62, 36)),
  positive(
    'github fine-grained PAT',
    'github',
    'echo @@ | gh auth login --with-token',
    `github_pat_${gen(B62, 22)}_${gen(B62, 59)}`,
  ),
  // AWS
  positive(
    'aws access key id',
    'aws-access-key-id',
    'aws_access_key_id = @@',
    'AKIA' + gen(UPPER + DIGITS, 16),
  ),
  positive(
    'aws session key id',
    'aws-access-key-id',
    '"AccessKeyId": "@@",',
    'ASIA' + gen(UPPER + DIGITS, 16),
  ),
  positive(
    'aws secret in credentials file',
    'aws-secret-access-key',
    '[default]\naws_secret_access_key = @@\nregion = eu-west-1',
    gen(B62 + '/+', 40),
  ),
  positive(
    'aws secret in env',
    'aws-secret-access-key',
    'AWS_SECRET_ACCESS_KEY=@@ aws s3 ls',
    gen(B62 + '/+', 40),
  ),
  // Private keys
  positive(
    'RSA private key',
    'private-key',
    'key file:\n@@\nend of file',
    pem('RSA PRIVATE KEY', 'MIIEpAIBAAKCAQEA', 12),
  ),
  positive(
    'OpenSSH private key',
    'private-key',
    'cat ~/.ssh/id_ed25519\n@@\n$ ',
    pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAA', 5),
  ),
  positive(
    'PKCS#8 key in JSON',
    'private-key',
    '{"private_key": "@@", "client_email": "svc@project.test"}',
    pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 10).replace(/\n/g, '\\n'),
  ),
  positive(
    'private key cut off by truncation',
    'private-key',
    'result: @@',
    '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI' + gen(B64, 40) + '\n' + gen(B64, 30),
  ),
  // Connection strings (only the password goes)
  positive(
    'postgres',
    'connection-string',
    'DATABASE_URL=postgres://app:@@@db.internal:5432/prod',
    gen(B62, 20),
  ),
  positive(
    'postgresql',
    'connection-string',
    'psql postgresql://admin:@@@10.0.0.5/app?sslmode=require',
    gen(B62, 12),
  ),
  positive(
    'postgresql with an empty host (a socket named in the query)',
    'connection-string',
    'shim team connect postgresql://ada:@@@/team?host=/run/postgresql',
    gen(B62, 14),
  ),
  positive('mysql', 'connection-string', 'mysql://root:@@@mysql.test:3306/shop', gen(B62, 16)),
  positive('jdbc mysql', 'connection-string', 'url: jdbc:mysql://svc:@@@db.test/x', gen(B62, 16)),
  positive(
    'mongodb+srv',
    'connection-string',
    'MONGO_URI="mongodb+srv://reader:@@@cluster0.ab1cd.mongodb.net/db?retryWrites=true"',
    gen(B62, 20),
  ),
  positive(
    'mongodb',
    'connection-string',
    'mongodb://svc:@@@mongo-0.test:27017,mongo-1.test:27017/app',
    gen(B62, 14),
  ),
  positive(
    'redis with empty user',
    'connection-string',
    'REDIS_URL=redis://:@@@cache.test:6379/0',
    gen(B62, 24),
  ),
  positive('rediss', 'connection-string', 'rediss://default:@@@redis.test:6380', gen(B62, 24)),
  positive('amqp', 'connection-string', 'amqp://worker:@@@rabbit.test:5672/vhost', gen(B62, 16)),
  positive('amqps', 'connection-string', 'broker = "amqps://worker:@@@mq.test/prod"', gen(B62, 16)),
  positive(
    'https userinfo',
    'url-credentials',
    'git remote add origin https://deploy:@@@git.test/o/r.git',
    gen(B62, 20),
  ),
  // JWTs
  positive(
    'jwt in a cookie',
    'jwt',
    'Set-Cookie: session=@@; Path=/; HttpOnly',
    jwt({ sub: digits(10), name: 'Ada', iat: 1_700_000_000 }),
  ),
  positive(
    'jwt in JSON',
    'jwt',
    '{"id_token":"@@"}',
    jwt({ iss: 'https://id.test', aud: 'shim', exp: 1_900_000_000 }),
  ),
  // npm
  positive(
    'npm token in .npmrc',
    'npm',
    '//registry.npmjs.org/:_authToken=@@',
    'npm_' + gen(B62, 36),
  ),
  positive('npm token in env', 'npm', 'NODE_AUTH_TOKEN: @@', 'npm_' + gen(B62, 36)),
  positive('npm token in prose', 'npm', 'published with @@ yesterday', 'npm_' + gen(B62, 36)),
];

const NEGATIVES: Array<[name: string, text: string]> = [
  ['git commit SHA', 'commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\nAuthor: Ada <ada@test>'],
  ['short SHA and ref', 'HEAD is now at a1b2c3d fix: tidy; see refs/shim/snapshots/a1b2c3d4'],
  [
    'UUIDs',
    'session_id: 7c9e6679-7425-40de-944b-e07fc1f90ae7 (550e8400-e29b-41d4-a716-446655440000)',
  ],
  ['base64 image', `![shot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${gen(B64, 600)}==)`],
  [
    'sk- inside words',
    'update the task-list, check disk-usage and the risk-assessment-for-the-long-running-job',
  ],
  [
    'password in prose',
    'Please enter your password to continue. The password field must not be empty.',
  ],
  ['password with a colon in prose', 'Reset password: see the settings page for details.'],
  ['secret in prose', 'The secret to good tests is determinism; the token budget is tight.'],
  ['API_KEY empty', 'API_KEY=\nDEBUG=true'],
  ['API_KEY placeholder', 'API_KEY=<your key>'],
  ['API_KEY template', 'API_KEY=${API_KEY}'],
  ['API_KEY quoted template', 'API_KEY="${API_KEY}"'],
  ['API_KEY shell var', 'API_KEY=$API_KEY npm test'],
  ['API_KEY from process.env', 'const apiKey = process.env.API_KEY;'],
  ['API_KEY your-key-here', 'OPENAI_API_KEY="your-api-key-here"'],
  ['API_KEY ellipsis', 'OPENAI_API_KEY=sk-...'],
  ['API_KEY masked', 'ANTHROPIC_API_KEY=****'],
  ['API_KEY env name', 'TOKEN=GITHUB_TOKEN'],
  ['shell empty assignment', 'API_KEY= node script.js'],
  [
    'npm package names',
    'npm install @secretlint/secretlint-rule-preset-recommend @types/node eslint-plugin-security',
  ],
  ['npm config env', 'npm_config_registry=https://registry.npmjs.org/ npm_package_version=1.2.3'],
  ['env dump', 'PWD=/work/main\nOLDPWD=/work\nKEY_FILE=./certs/key.pem\nSSH_KEY=~/.ssh/id_ed25519'],
  [
    'file paths',
    '/home/user/.ssh/id_ed25519 src/redact/redact.ts C:\\Users\\me\\secrets\\token.txt ~/.aws/credentials',
  ],
  [
    'credentials path',
    'GOOGLE_APPLICATION_CREDENTIALS=/home/me/keys/service-account.json\nPWD=/home/me/project',
  ],
  ['sha256', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  package.tgz'],
  ['integrity', `"integrity": "sha512-${gen(B64, 86)}=="`],
  [
    'URLs without credentials',
    'https://github.com/secretlint/secretlint/blob/master/README.md?plain=1#L10 http://localhost:3000/api',
  ],
  ['postgres localhost', 'postgres://localhost/db'],
  [
    'postgres user without password',
    'postgres://app@localhost:5432/db and redis://localhost:6379/0',
  ],
  ['connection string template', 'postgres://app:${DB_PASSWORD}@db:5432/app'],
  ['code comparisons', 'if (password === confirmPassword) return token;'],
  ['code calls', 'const token = await getToken();\nconst password = readPassword();'],
  ['code member values', 'const client = new Client({ apiKey: apiKey, token: config.token });'],
  [
    'test runner status and prose labels',
    '--- PASS: TestParseV2Header (0.00s)\nthe auth: OAuth2 flow, then token: refresh it later',
  ],
  ['TS types', 'type Login = { password: string; token: string | null };'],
  ['arrow function', 'items.map(token => token.trim())'],
  ['plural keys and numbers', 'max_tokens: 4096\ncompletion_tokens=512\nmax_token: 2048'],
  [
    'python variables',
    'self.token = token\nself.password = password\napi_key = os.environ["API_KEY"]',
  ],
  ['docker user and group', 'docker run -u 1000:1000 image'],
  ['weak key with a plain value', 'sort_key: created_at\nprimary_key: id\ncache_key = "user-123"'],
  ['bearer in prose', 'Bearer token authentication is described in RFC 6750.'],
  [
    'bearer placeholders',
    'Authorization: Bearer $TOKEN\nAuthorization: Bearer <token>\nAuthorization: Bearer YOUR_TOKEN',
  ],
  [
    'transcript ids',
    '"tool_use_id": "toolu_01A2B3C4D5E6F7G8H9J0K1L2", "requestId": "req_011CUxYz"',
  ],
  ['already redacted', 'API_KEY=[REDACTED:openai] and "token": "[REDACTED:github]"'],
  [
    'public key',
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----',
  ],
  ['private key header in code', "if (pem.startsWith('-----BEGIN PRIVATE KEY-----')) return true;"],
  ['secretlint disable comment', '// secretlint-disable\nnothing to see'],
  ['name-like value of a *Key', 'paths.SourceRefTrailerKey = "Entire-Source-Ref"'],
  ['documentation token', 'export GH_TOKEN="github_pat_xxxx"\nSTRIPE_KEY=sk_live_XXXXXXXXXXXXXXXX'],
];

describe('redactText: true positives', () => {
  for (const sample of POSITIVES) {
    test(sample.name, async () => {
      const input = fill(sample.text, sample.secrets);
      const { text, findings } = await redactText(input);
      for (const secret of sample.secrets) {
        assert.ok(!text.includes(secret), `secret left in: ${text}`);
      }
      assert.ok(text.includes(`[REDACTED:${sample.rule}]`), `expected ${sample.rule} in: ${text}`);
      // The surrounding text is intact: putting the secrets back gives the input.
      const parts = sample.text.split('@@');
      let at = 0;
      for (const part of parts) {
        const found = text.indexOf(part, at);
        assert.ok(found >= 0, `context "${part}" lost in: ${text}`);
        at = found + part.length;
      }
      assert.ok(findings.length >= 1);
      for (const f of findings) {
        assert.ok(f.start >= 0 && f.end <= input.length && f.start < f.end);
      }
    });
  }
});

describe('redactText: false positives stay untouched', () => {
  for (const [name, input] of NEGATIVES) {
    test(name, async () => {
      const { text, findings } = await redactText(input);
      assert.deepEqual(findings, []);
      assert.equal(text, input);
    });
  }
});

describe('redactText', () => {
  test('findings are input offsets of what was replaced', async () => {
    const key = 'ghp_' + gen(B62, 36);
    const input = `first ${key} last`;
    const { text, findings } = await redactText(input);
    assert.deepEqual(findings, [{ rule: 'github', start: 6, end: 6 + key.length }]);
    assert.equal(text, 'first [REDACTED:github] last');
  });

  test('overlapping findings of several rules become one replacement', async () => {
    // secret-assignment and openai both find this value.
    const key = 'sk-proj-' + gen(B64URL, 74) + 'T3BlbkFJ' + gen(B64URL, 74);
    const { text, findings } = await redactText(`OPENAI_API_KEY=${key}\n`);
    assert.equal(text, 'OPENAI_API_KEY=[REDACTED:openai]\n');
    assert.equal(findings.length, 1);
  });

  test('Shopify tokens', async () => {
    const key = 'shpat_' + gen(B62, 32);
    const { text } = await redactText(`token ${key}.`);
    assert.equal(text, 'token [REDACTED:shopify].');
  });

  test("an AWS secret's key name stays", async () => {
    const secret = gen(B62, 40);
    const { text } = await redactText(`aws_secret_access_key=${secret}`);
    assert.equal(text, 'aws_secret_access_key=[REDACTED:aws-secret-access-key]');
  });

  test('a comment that disables a scanner does not switch redaction off', async () => {
    const key = 'ghp_' + gen(B62, 36);
    const { text } = await redactText(`// secretlint-disable\n${key}\n// secretlint-enable`);
    assert.ok(!text.includes(key));
  });

  test('a leading BOM does not shift the replacement', async () => {
    const key = 'shpat_' + gen(B62, 32);
    const { text } = await redactText(`\uFEFFx ${key} y`);
    assert.equal(text, '\uFEFFx [REDACTED:shopify] y');
  });

  test('redacting twice changes nothing more', async () => {
    const input = POSITIVES.map((p) => fill(p.text, p.secrets)).join('\n');
    const once = await redactText(input);
    const twice = await redactText(once.text);
    assert.deepEqual(twice.findings, []);
    assert.equal(twice.text, once.text);
  });

  test('empty and short texts', async () => {
    assert.deepEqual(await redactText(''), { text: '', findings: [] });
    assert.deepEqual(await redactText('pw=x'), { text: 'pw=x', findings: [] });
  });
});

describe('redactTextSync', () => {
  test('catches every sample our own rules are meant for', () => {
    for (const sample of POSITIVES) {
      const input = fill(sample.text, sample.secrets);
      const { text } = redactTextSync(input);
      for (const secret of sample.secrets) {
        assert.ok(!text.includes(secret), `${sample.name}: secret left in: ${text}`);
      }
    }
  });

  test('leaves the false-positive samples alone', () => {
    for (const [name, input] of NEGATIVES) {
      assert.equal(redactTextSync(input).text, input, name);
    }
  });

  test("finds what secretlint's recommended preset is made for", () => {
    // One sample per secret format of that preset, which shim no longer runs beside its own.
    const samples = [
      `token shpat_${gen(B62, 32)}.`,
      `secret shpss_${gen(B62, 40)} here`,
      `key SG.${gen(B62, 22)}.${gen(B62, 43)} here`,
      `use lin_api_${gen(B62, 40)} now`,
      `tok ghp_${gen(B62, 36)} and github_pat_${gen(B62, 82)}`,
      `https://hooks.slack.com/services/T${gen(B62, 8)}/B${gen(B62, 8)}/${gen(B62, 24)}`,
      `AKIA${gen('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)} aws_secret_access_key = ${gen(B62, 40)}`,
      `sk-proj-${gen(B62, 48)} sk-ant-api03-${gen(B62, 93)}AA`,
      `mongodb://admin:${gen(B62, 12)}@db.example.com:27017/app https://user:${gen(B62, 12)}@example.com/x`,
      `-----BEGIN RSA PRIVATE KEY-----\n${gen(B62, 64)}\n${gen(B62, 64)}\n-----END RSA PRIVATE KEY-----`,
    ];
    for (const sample of samples) {
      const { text, findings } = redactTextSync(sample);
      assert.ok(findings.length > 0, `nothing found in ${sample}`);
      for (const token of sample.match(/[A-Za-z0-9_+/=.-]{24,}/g) ?? [])
        if (!/^(?:hooks\.slack\.com|-----)/.test(token))
          assert.ok(!text.includes(token), `left ${token} in ${text}`);
    }
  });
});

describe('redactValue', () => {
  test('redacts keys and values at any depth, in arrays, and copies the rest', async () => {
    const github = 'ghp_' + gen(B62, 36);
    const npm = 'npm_' + gen(B62, 36);
    const password = gen(B62, 18);
    const stripeKey = 'sk_live_' + gen(B62, 24);
    const input = {
      id: 'cp-1',
      count: 3,
      ok: true,
      nothing: null,
      nested: {
        env: `PASSWORD=${password}`,
        list: ['plain', `use ${github}`, 42, { [npm]: 'key as secret', deeper: [stripeKey] }],
      },
      [github]: github,
    };
    const before = structuredClone(input);
    const { value, findings } = await redactValue(input);
    assert.deepEqual(value, {
      id: 'cp-1',
      count: 3,
      ok: true,
      nothing: null,
      nested: {
        env: 'PASSWORD=[REDACTED:secret-assignment]',
        list: [
          'plain',
          'use [REDACTED:github]',
          42,
          { '[REDACTED:npm]': 'key as secret', deeper: ['[REDACTED:stripe]'] },
        ],
      },
      '[REDACTED:github]': '[REDACTED:github]',
    });
    assert.equal(findings, 6);
    assert.deepEqual(input, before, 'the input is not modified');
    assert.notEqual(value.nested, input.nested);
  });

  test('finds provider tokens inside the strings of a value', async () => {
    const shopify = 'shpat_' + gen(B62, 32);
    const { value, findings } = await redactValue({ notes: [`deploy with ${shopify} today`] });
    assert.deepEqual(value, { notes: ['deploy with [REDACTED:shopify] today'] });
    assert.equal(findings, 1);
  });

  test('two secret keys of one object stay two properties', async () => {
    const a = 'ghp_' + gen(B62, 36);
    const b = 'ghp_' + gen(B62, 36);
    const { value } = await redactValue({ [a]: 1, [b]: 2 });
    assert.deepEqual(value, { '[REDACTED:github]': 1, '[REDACTED:github]#2': 2 });
  });

  test('a secret split across two strings is not joined into one finding', async () => {
    const key = 'ghp_' + gen(B62, 36);
    const { value, findings } = await redactValue([key.slice(0, 20), key.slice(20)]);
    assert.deepEqual(value, [key.slice(0, 20), key.slice(20)]);
    assert.equal(findings, 0);
  });

  test('primitives, strings and Dates', async () => {
    const key = 'npm_' + gen(B62, 36);
    assert.deepEqual(await redactValue(key), { value: '[REDACTED:npm]', findings: 1 });
    assert.deepEqual(await redactValue(7), { value: 7, findings: 0 });
    assert.deepEqual(await redactValue(null), { value: null, findings: 0 });
    const date = new Date(0);
    const { value } = await redactValue({ at: date });
    assert.deepEqual(value, { at: date });
    assert.notEqual(value.at, date);
  });

  test('a __proto__ key is copied as data', async () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const { value } = await redactValue(input);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'a']);
  });

  test('shared references and cycles survive', async () => {
    const shared = { note: 'same' };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    const { value } = await redactValue(cyclic);
    assert.equal(value.a, value.b);
    assert.equal(value.self, value);
  });

  test('10,000-deep nesting with a secret at the bottom', async () => {
    const key = 'sk_live_' + gen(B62, 24);
    let deep: Record<string, unknown> = { secret: key };
    for (let i = 0; i < 10_000; i++) deep = { child: deep, list: [i] };
    assert.throws(() => JSON.stringify(deep), RangeError);
    const { value, findings } = await redactValue(deep);
    assert.equal(findings, 1);
    let node = value as Record<string, unknown>;
    for (let i = 0; i < 10_000; i++) node = node.child as Record<string, unknown>;
    assert.deepEqual(node, { secret: '[REDACTED:stripe]' });
  });

  test('a 2 MB string with secrets at the start, middle and end', async () => {
    const keys = [
      'ghp_' + gen(B62, 36),
      'sk-ant-api03-' + gen(B64URL, 93) + 'AA',
      'AKIA' + gen(UPPER + DIGITS, 16),
    ];
    const filler = 'The quick brown fox jumps over the lazy dog 0123456789.\n';
    const chunk = filler.repeat(Math.ceil(1_000_000 / filler.length));
    const input = `${keys[0]} ${chunk}${keys[1]}\n${chunk} ${keys[2]}`;
    assert.ok(input.length > 2_000_000);
    const { value, findings } = await redactValue({ log: input });
    assert.equal(findings, 3);
    for (const key of keys) assert.ok(!value.log.includes(key));
    assert.equal(
      value.log.length,
      input.length -
        keys.join('').length +
        '[REDACTED:github][REDACTED:anthropic][REDACTED:aws-access-key-id]'.length,
    );
  });
});
