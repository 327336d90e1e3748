/**
 * Secrets in every shape people write them (issue 38): one test per syntax and format, each with
 * made-up values (./made-up.test-helper.ts), each beside what in the same shape is plainly not a
 * secret. The values are found by shape and context — a generated-looking value where a
 * credential stands — not by a provider's prefix.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  B62,
  B64,
  B64URL,
  CRYPT64,
  HEX,
  LOWER,
  DIGITS,
  UPPER,
  madeUp,
} from './made-up.test-helper.ts';
import { redactTextSync } from './redact.ts';

const { gen, digits } = madeUp(0x38);

/** `text` with `@@` filled by `values` in order. */
const fill = (text: string, values: string[]) => {
  let i = 0;
  return text.replace(/@@/g, () => values[i++] ?? '');
};

type Shape = { name: string; text: string; values: string[]; kept?: string[] };

/** A shape: the values must go, and (`kept`) the words around them must stay. */
const shape = (name: string, text: string, values: string[], kept: string[] = []): Shape => ({
  name,
  text,
  values,
  kept,
});

const base64Of = (bytes: number) => Buffer.from(gen(B62, bytes)).toString('base64');

const SHAPES: Shape[] = [
  // Assignments in every syntax
  shape('shell export', 'export WEATHERCO_TOKEN=@@', [gen(B62, 32)], ['export WEATHERCO_TOKEN=']),
  shape('dotenv', 'APP_ENV=prod\nACME_API_KEY=@@\nPORT=3000', [gen(B64URL, 40)], ['PORT=3000']),
  shape('JSON', '{"name": "svc", "acme_api_key": "@@"}', [gen(B62, 36)], ['"name": "svc"']),
  shape('YAML', 'acme:\n  region: eu\n  api_key: @@\n', [gen(B62, 28)], ['region: eu']),
  shape('YAML secret_key_base', 'production:\n  secret_key_base: @@\n', [gen(HEX, 128)]),
  shape(
    'TOML',
    '[acme]\nurl = "https://acme.test"\ntoken = "@@"',
    [gen(B62, 30)],
    ['https://acme.test'],
  ),
  shape('ini', '[database]\nuser = app\npassword = @@\n', [gen(B62, 14)], ['user = app']),
  shape('product name, then a credential word', "weatherco token = '@@'", [gen(B62, 32)]),
  shape('a name with a number', '"access_token2": "@@"', [gen(B62, 24)]),
  shape('a credential word joined into one', 'DBPASS=@@\nadminpassword: @@', [
    gen(B62, 12),
    gen(B62, 14),
  ]),
  // Typed declarations
  shape('Go typed const', 'const fastlyKey string = "@@"', [gen(B62, 32)]),
  shape('Go short declaration, a product name and api', 'weatherApi := "@@"', [gen(B62, 32)]),
  shape('TypeScript', 'const apiKey: string = "@@";', [gen(B64URL, 40)]),
  shape('C++ brace initialisation', 'static const std::string AccountKey{"@@"};', [gen(B62, 32)]),
  shape('Java', 'private static final String API_TOKEN = "@@";', [gen(B62, 40)]),
  shape('C#', 'public const string ClientSecret = "@@";', [gen(B62, 34)]),
  shape('Rust', 'const API_KEY: &str = "@@";', [gen(B62, 32)]),
  shape('Python annotated', 'api_key: str = "@@"', [gen(B62, 32)]),
  shape(
    'PHP define()',
    "define('AUTH_KEY', '@@');\ndefine('WP_DEBUG', false);",
    [gen(B64, 64)],
    ["'WP_DEBUG', false"],
  ),
  shape('PHP array', "$cfg['db_password'] = '@@';", [gen(B62, 16)]),
  shape('a setter call', 'client.setApiKey("@@");', [gen(B62, 32)]),
  shape('a map entry', 'headers.put("X-Api-Key", "@@");', [gen(B62, 32)]),
  // Markup
  shape('XML element', '<server><password>@@</password></server>', [gen(B62, 16)], ['<server>']),
  shape(
    "Jenkins' credentials.xml",
    '<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <username>deploy</username>\n  <password>{@@}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>',
    ['AQAAABAAAAAQ' + gen(B64, 64) + '='],
    ['<username>deploy</username>'],
  ),
  shape('Jenkins secret element', '<secret>{@@}</secret>', ['AQAAABAAAAAw' + gen(B64, 88)]),
  shape(
    "FileZilla's Pass",
    '<Server><User>ada</User><Pass encoding="base64">@@</Pass></Server>',
    [base64Of(12)],
    ['<User>ada</User>'],
  ),
  shape('appSettings', '<add key="ApiKey" value="@@" />', [gen(B62, 32)]),
  shape('Android string resource', '<string name="maps_api_key">@@</string>', [gen(B62, 30)]),
  shape(
    'Kubernetes env',
    'env:\n  - name: DB_PASSWORD\n    value: @@\n  - name: PORT\n    value: "8080"',
    [gen(B62, 18)],
    ['value: "8080"'],
  ),
  // Credential files
  shape(
    '.netrc on one line',
    'machine api.acme.test login deploy password @@',
    [gen(B62, 20)],
    ['login deploy'],
  ),
  shape('.netrc on lines', 'machine git.acme.test\n  login deploy\n  password @@\n', [
    gen(B62, 20),
  ]),
  shape(
    '.pgpass',
    'db.acme.test:5432:app:deploy:@@\n*:*:*:report:@@',
    [gen(B62, 16), gen(B62, 12)],
    ['db.acme.test:5432:app:deploy:'],
  ),
  shape(
    'URL user information with @ # !',
    'git clone https://deploy:@@@git.acme.test/app.git',
    [`p@ss#w!rd${digits(4)}${gen(B62, 6)}`],
    ['https://deploy:', '@git.acme.test/app.git'],
  ),
  shape('a token as the URL user', 'https://@@@github.com/acme/app.git', [gen(B62, 40)]),
  shape('.htpasswd', 'deploy:$apr1$@@', [`${gen(CRYPT64, 8)}$${gen(CRYPT64, 22)}`], ['deploy:']),
  shape(
    '/etc/shadow',
    'root:$6$@@:19500:0:99999:7:::',
    [`${gen(CRYPT64, 16)}$${gen(CRYPT64, 86)}`],
    ['root:', ':19500:'],
  ),
  shape(
    'bcrypt in an SQL dump',
    "INSERT INTO users VALUES (1, 'ada', '$2b$12$@@');",
    [gen(CRYPT64, 53)],
    ["'ada'"],
  ),
  shape(
    'AWS credentials block',
    '[default]\naws_access_key_id = AKIA@@\naws_secret_access_key = @@\naws_session_token = @@\nregion = eu-west-1',
    [gen('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16), gen(B64, 40), `IQoJb3JpZ2luX2Vj${gen(B64, 300)}`],
    ['region = eu-west-1'],
  ),
  shape(
    'Azure storage connection string',
    'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=@@;EndpointSuffix=core.windows.net',
    [gen(B64, 86) + '=='],
    ['AccountName=acme', 'EndpointSuffix=core.windows.net'],
  ),
  shape('an Azure storage key alone', 'key1  @@', [gen(B64, 86) + '==']),
  shape(
    "Firefox's logins.json",
    '{"hostname":"https://acme.test","encryptedUsername":"@@","encryptedPassword":"@@"}',
    [
      'MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECL' + gen(B64, 20) + '==',
      'MEIEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECH' + gen(B64, 30) + '==',
    ],
    ['"hostname":"https://acme.test"'],
  ),
  // Commands
  shape('mysql -p', 'mysql -h db -u root -p@@ app < dump.sql', [gen(B62, 14)]),
  shape('sshpass', "sshpass -p '@@' ssh deploy@host", [gen(B62, 14)]),
  shape('redis-cli -a', 'redis-cli -h cache -a @@ ping', [gen(B62, 20)]),
  shape(
    "PowerShell's parameters",
    "Connect-Acme -ClientId 'app' -ClientSecret '@@'\nNew-Login -Password @@",
    [gen(B64URL + '~', 40), gen(B62, 16)],
    ["-ClientId 'app'"],
  ),
  shape('Makefile assignments', 'ACME_TOKEN ::= @@\nACME_SECRET :::= @@\nACME_KEY ?= "@@"', [
    gen(B62, 24),
    gen(B62, 24),
    gen(B62, 24),
  ]),
  shape("JavaScript's ??=", 'config.apiToken ??= "@@";', [gen(B62, 32)]),
  shape(
    "Bundler's credentials for a gem server (BUNDLE_<HOST>)",
    'export BUNDLE_GEMS__ACME__IO=@@:@@\nBUNDLE_PKGS__ACME__DEV: "@@"',
    [gen(HEX, 8), gen(HEX, 8), gen(B62, 20)],
    ['BUNDLE_GEMS__ACME__IO'],
  ),
  shape('a key word joined into the name', 'WEATHERCO_ACCESSKEY: @@\nmyapikey=@@', [
    gen(B62, 32),
    gen(B62, 32),
  ]),
  shape('a camelCase name, a value of letters only', 'weatherToken=@@', [gen(UPPER + LOWER, 34)]),
  // Prose
  shape(
    'your API key is …',
    'Thanks! your API key is @@, keep it safe.',
    [gen(HEX, 32)],
    ['keep it safe'],
  ),
  shape('use this token: …', 'use this token: @@', [gen(B62, 30)]),
  shape('a bare value after key:', 'here it is, key: @@ thanks', [gen(B62, 24)]),
  shape('the password for … is …', 'the password for the staging db is @@!', [
    `Tr${digits(2)}ub4d${gen(LOWER, 3)}`,
  ]),
  shape('a token right after its word', 'deploy with the token @@ please', [gen(B62, 36)]),
  // A prefix naming the kind, then a long generated run, bare: no name, no word beside it.
  shape(
    'prefixed tokens standing alone',
    'deploy with acme_@@ now\ncurl -H "X-Key: zq-live-@@"\n[wx_local_@@, ok]',
    [gen(B62, 40), gen(B64URL, 48), gen(B62, 36)],
    ['deploy with', 'now', 'ok'],
  ),
];

describe('secrets in every shape', () => {
  for (const s of SHAPES) {
    test(s.name, () => {
      const input = fill(s.text, s.values);
      const { text } = redactTextSync(input);
      for (const value of s.values) assert.ok(!text.includes(value), `left in: ${text}`);
      for (const word of s.kept ?? []) assert.ok(text.includes(word), `"${word}" lost: ${text}`);
    });
  }
});

/** What stands where a credential stands and is plainly not one. */
const NOT_SECRETS: Array<[string, string]> = [
  ['placeholder in angle brackets', 'API_KEY=<your-key>'],
  ['placeholder of x', 'ACME_TOKEN=xxx\nGH_TOKEN=ghp_xxx'],
  [
    'environment look-ups',
    'const token = process.env.ACME_TOKEN;\napi_key = os.environ["API_KEY"]\nTOKEN=${ACME_TOKEN}',
  ],
  ['command substitution', 'export TOKEN=$(vault read -field=token secret/acme)'],
  ['paths', 'SSH_KEY=~/.ssh/id_ed25519\nKEY_FILE=/etc/acme/key.pem'],
  ['versions', '"jsonwebtoken": "^9.0.2",\n"passport": "0.7.0"'],
  ['words', 'token: bearer\nauth: basic\npassword_policy: strict'],
  ['code names', 'const key = parseAndLogHookInput;\noperationKey: listSpecWorkflowRuns'],
  ['a UUID as an id', 'key: 7c9e6679-7425-40de-944b-e07fc1f90ae7'],
  ['a git SHA as an id', 'commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39'],
  ['prose about passwords', 'The password is wrong; the token expired and the key is missing.'],
  ['a tuple of words', "if ev.get('Action') in ('pass', 'fail'):"],
  ['a URL without credentials', 'see https://acme.test/docs?key=value#token'],
  ['a package integrity digest', `"integrity": "sha512-${gen(B64, 86)}=="`],
  ['a test runner status', '- ✅ Unit tests pass (`mise run test`)'],
  [
    'flags that read a secret elsewhere',
    'docker login --password-stdin -u ci\nrun --token-file ./t',
  ],
  ['a word ending in key', `monkey: ${gen(B62, 32)}\nhockey = 4`],
  ['a name assigned in code', 'apiToken = getTokenFromEnvironment\ntoken = userPasswordFromConfig'],
  [
    "Bundler's settings that are not credentials",
    'BUNDLE_PATH=vendor/bundle\nBUNDLE_BUILD__PG=--with-pg-config=/usr/bin/pg_config',
  ],
  [
    "ids, hashes and names of a prefixed token's shape",
    // Claude Code's ids (24 or so after the prefix), digests in one case, a name of words.
    `toolu_01${gen(B62, 22)} msg_01${gen(B62, 22)} req_011C${gen(B62, 20)}\n` +
      `build-${gen(HEX, 64)}.js sha256-${gen(B64, 43)}=\n` +
      'data-widget="desktop-rhf_SponsoredProductsRemoteSearchK2ClickPagination"\n' +
      // A tool call's id of a prefix of words, a chat's message id in lower-case hex.
      `"id": "run_shell_command-${digits(13)}-${gen(HEX, 13)}" om_x${gen(HEX, 31)}`,
  ],
  [
    'a file name in kebab case with a hash among its words',
    // A hex piece and a version among words (a checkpoint id the bench built from such a name
    // was redacted, and two of them collided).
    `report-nightly-${gen(HEX, 12)}-quarterly-export-155k-rollup-v3.1.2.jsonl`,
  ],
];

describe('plainly not secrets', () => {
  for (const [name, text] of NOT_SECRETS) {
    test(name, () => assert.equal(redactTextSync(text).text, text));
  }
});

void DIGITS;
