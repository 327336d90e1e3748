/**
 * shim's own table of secret formats: for each provider's key, token or credential, its shape as
 * the provider documents it (a fixed prefix, the alphabet and length of the rest) and, where the
 * shape alone would also match ordinary text, the word that must name it in the key it is
 * assigned to. Written from the formats' documented facts (docs/secret-formats.md says where
 * each comes from); secretlint's maintained preset runs beside it (redact.ts), and the general
 * rules (rules.ts: assignments, headers, URLs, private keys) catch what no table can list.
 *
 * A format is data, not a regular expression: ./format-scan.ts builds one matcher per format the
 * first time its prefix or keyword occurs in a text.
 *
 * Over 450 lines on purpose: it is one table (one entry per provider), read and extended as a whole.
 * @module
 */

/** The characters a secret's body is made of. */
export type Alphabet =
  | 'digits'
  | 'hex'
  | 'lowerHex'
  | 'alnum'
  | 'lowerAlnum'
  | 'upperAlnum'
  /** letters, digits, `_` and `-` (base64url without padding) */
  | 'urlSafe'
  /** letters, digits, `+`, `/`, with `=` padding */
  | 'base64'
  | 'letters';

export type Length = number | readonly [min: number, max: number];

export type SecretFormat = {
  /** The marker's name: `[REDACTED:<id>]`. */
  id: string;
  provider: string;
  /** What it is, in the provider's words. */
  what: string;
  /** Literal prefixes that start every such secret (case as written). */
  prefix?: readonly string[];
  /** The characters after the prefix, and how many. */
  body: { alphabet: Alphabet; length: Length };
  /**
   * Words one of which must stand in the name the value is assigned to (`ASANA_CLIENT_ID=…`,
   * `"sumoToken": "…"`), for shapes that are not unique on their own. Lower case.
   */
  keyword?: readonly string[];
  /** A shape that is more than one run (`<digits>:<token>`): its own pattern source. */
  shape?: string;
  /**
   * For a shape without prefix or keyword: lower-case strings one of which every match holds,
   * so the shape is tried only on texts that have one.
   */
  anchor?: readonly string[];
};

const hexish = { alphabet: 'hex', length: 32 } as const;

export const SECRET_FORMATS: readonly SecretFormat[] = [
  // --- Source hosting and CI
  {
    id: 'gitlab',
    provider: 'GitLab',
    what: 'personal, project, group, deploy, runner, CI job, feed, incoming-mail, agent tokens',
    prefix: [
      'glpat-',
      'gldt-',
      'glptt-',
      'glrt-',
      'glcbt-',
      'glimt-',
      'glagent-',
      'glsoat-',
      'glffct-',
    ],
    body: { alphabet: 'urlSafe', length: [20, 64] },
  },
  {
    id: 'gitlab',
    provider: 'GitLab',
    what: 'runner registration token',
    prefix: ['GR1348941'],
    body: { alphabet: 'urlSafe', length: [20, 40] },
  },
  {
    id: 'sourcegraph',
    provider: 'Sourcegraph',
    what: 'access token (sgp_, then the instance id or `local_`, optional) and license key',
    prefix: ['sgp_', 'slk_'],
    shape: String.raw`sgp_(?:[0-9A-Fa-f]{16}_|local_)?[0-9A-Fa-f]{40}|slk_[0-9A-Fa-f]{64}`,
    body: { alphabet: 'hex', length: 40 },
  },
  {
    id: 'sonar',
    provider: 'SonarQube / SonarCloud',
    what: 'user, project and analysis tokens',
    prefix: ['squ_', 'sqp_', 'sqa_'],
    // Documented as 40 hex; taken as any 40 letters and digits.
    body: { alphabet: 'alnum', length: 40 },
  },
  {
    id: 'sonar',
    provider: 'SonarQube / SonarCloud',
    what: "token of the older form, 40 letters and digits, named as Sonar's",
    keyword: ['sonar'],
    body: { alphabet: 'alnum', length: 40 },
  },
  {
    id: 'jfrog',
    provider: 'JFrog Artifactory',
    what: 'API key (AKCp) and reference token (base64 of "ref")',
    prefix: ['AKCp', 'cmVmd'],
    body: { alphabet: 'alnum', length: [59, 73] },
  },
  {
    id: 'jfrog',
    provider: 'JFrog',
    what: "identity / access token, 64 letters and digits, named as JFrog's or Artifactory's",
    keyword: ['jfrog', 'artifactory'],
    body: { alphabet: 'alnum', length: [64, 73] },
  },
  {
    id: 'sourcegraph',
    provider: 'Sourcegraph',
    what: "access token of the older form: 40 hex, named as Sourcegraph's",
    keyword: ['sourcegraph'],
    body: { alphabet: 'hex', length: 40 },
  },
  {
    id: 'snyk',
    provider: 'Snyk',
    what: "API token: a UUID named as Snyk's",
    keyword: ['snyk'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'linear',
    provider: 'Linear',
    what: 'personal API key',
    prefix: ['lin_api_'],
    body: { alphabet: 'alnum', length: 40 },
  },
  // --- Cloud
  {
    id: 'aws-bedrock',
    provider: 'Amazon Bedrock',
    what: 'long-term API key (base64 of "BedrockAPIKey-…")',
    prefix: ['ABSK'],
    body: { alphabet: 'base64', length: [100, 300] },
  },
  {
    id: 'aws-bedrock',
    provider: 'Amazon Bedrock',
    what: 'short-term API key (base64 of "bedrock.amazonaws.com…")',
    prefix: ['bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t'],
    body: { alphabet: 'base64', length: [0, 2048] },
  },
  {
    id: 'azure-ad-client-secret',
    provider: 'Microsoft Entra ID',
    what: 'client secret: 3 characters, a digit, "Q~", then 31 to 34 more',
    shape: String.raw`[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`,
    anchor: ['q~'],
    body: { alphabet: 'urlSafe', length: 40 },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    what: 'service, batch and recovery tokens (hvs., hvb., hvr.)',
    prefix: ['hvs.', 'hvb.', 'hvr.'],
    body: { alphabet: 'urlSafe', length: [24, 400] },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    what: 'service token before Vault 1.10: "s." and 24 letters and digits, named as a token',
    keyword: ['vault', 'token'],
    prefix: ['s.'],
    body: { alphabet: 'alnum', length: 24 },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    what: 'batch token before Vault 1.10: "b." and 100 or more characters, named as Vault\'s',
    keyword: ['vault'],
    prefix: ['b.'],
    body: { alphabet: 'urlSafe', length: [100, 400] },
  },
  {
    id: 'flyio',
    provider: 'Fly.io',
    what: 'org and machine tokens (fo1_, fm1r_, fm1a_, fm2_)',
    prefix: ['fo1_', 'fm1r_', 'fm1a_'],
    body: { alphabet: 'urlSafe', length: [40, 800] },
  },
  {
    id: 'flyio',
    provider: 'Fly.io',
    what: 'macaroon token (fm2_, base64, several joined by commas)',
    prefix: ['fm2_'],
    body: { alphabet: 'base64', length: [40, 4000] },
  },
  {
    id: 'openshift',
    provider: 'OpenShift',
    what: 'user token: "sha256~" and 43 base64url characters',
    prefix: ['sha256~'],
    body: { alphabet: 'urlSafe', length: 43 },
  },
  {
    id: 'infracost',
    provider: 'Infracost',
    what: 'API key',
    prefix: ['ico-'],
    body: { alphabet: 'alnum', length: 32 },
  },
  {
    id: 'sentry',
    provider: 'Sentry',
    what: 'organization auth token (sntrys_ + base64 JSON, then _ and a secret of 32 bytes)',
    prefix: ['sntrys_eyJ'],
    // The JSON's base64 may end in padding before the `_` and the secret (43 characters).
    shape: String.raw`sntrys_eyJ[A-Za-z0-9+/]{20,400}={0,2}(?:_[A-Za-z0-9_+/-]{43})?`,
    body: { alphabet: 'base64', length: [60, 400] },
  },
  {
    id: 'sentry',
    provider: 'Sentry',
    what: 'user auth token',
    prefix: ['sntryu_'],
    body: { alphabet: 'lowerHex', length: 64 },
  },
  {
    id: 'age',
    provider: 'age (file encryption)',
    what: 'X25519 identity: "AGE-SECRET-KEY-1" and 58 upper-case Bech32 characters',
    prefix: ['AGE-SECRET-KEY-1'],
    body: { alphabet: 'upperAlnum', length: 58 },
  },
  {
    id: 'airtable',
    provider: 'Airtable',
    what: 'personal access token: "pat", 14 characters, ".", 64 hex',
    prefix: ['pat'],
    anchor: ['pat'],
    shape: String.raw`pat[A-Za-z0-9]{14}\.[0-9a-f]{64}`,
    body: { alphabet: 'hex', length: 64 },
  },
  // --- AI
  {
    id: 'anthropic',
    provider: 'Anthropic',
    what: 'API and admin keys: "sk-ant-api03-" / "sk-ant-admin01-", 93 characters, "AA"',
    prefix: ['sk-ant-api03-', 'sk-ant-admin01-'],
    shape: String.raw`sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA`,
    body: { alphabet: 'urlSafe', length: 95 },
  },
  {
    id: 'huggingface',
    provider: 'Hugging Face',
    what: 'user access token and organization API token',
    prefix: ['hf_', 'api_org_'],
    body: { alphabet: 'letters', length: 34 },
  },
  // --- Payments and commerce
  {
    id: 'square',
    provider: 'Square',
    what: 'access token (sq0atp-) and OAuth application secret (sq0csp-)',
    prefix: ['sq0atp-', 'sq0idp-'],
    body: { alphabet: 'urlSafe', length: 22 },
  },
  {
    id: 'square',
    provider: 'Square',
    what: 'OAuth application secret: "sq0csp-" and 43 characters',
    prefix: ['sq0csp-'],
    // Printable ASCII without quotes and whitespace: samples hold `]` and `^`.
    shape: String.raw`sq0csp-[!#-&(-~]{43}`,
    body: { alphabet: 'urlSafe', length: 43 },
  },
  {
    id: 'square',
    provider: 'Square',
    what: 'production access token: "EAAA" and 60 characters',
    prefix: ['EAAA'],
    body: { alphabet: 'urlSafe', length: 60 },
  },
  {
    id: 'stripe',
    provider: 'Stripe',
    what: 'secret and restricted keys, live, test and prod (sk_, rk_); webhook secrets (whsec_)',
    prefix: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    body: { alphabet: 'alnum', length: [16, 255] },
  },
  {
    id: 'plaid',
    provider: 'Plaid',
    what: 'access token: access-<environment>-<UUID>',
    prefix: ['access-sandbox-', 'access-development-', 'access-production-'],
    body: { alphabet: 'hex', length: 36 },
    shape: String.raw`access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  },
  {
    id: 'stripe',
    provider: 'Stripe',
    what: 'secret and restricted keys, live, test and prod (sk_, rk_); webhook secrets (whsec_)',
    prefix: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    body: { alphabet: 'alnum', length: [16, 255] },
  },
  {
    id: 'plaid',
    provider: 'Plaid',
    what: "client id (24) and secret (30), named as Plaid's",
    keyword: ['plaid'],
    body: { alphabet: 'alnum', length: [24, 30] },
  },
  {
    id: 'easypost',
    provider: 'EasyPost',
    what: 'production (EZAK) and test (EZTK) API keys',
    prefix: ['EZAK', 'EZTK'],
    body: { alphabet: 'alnum', length: 54 },
  },
  {
    id: 'mailgun',
    provider: 'Mailgun',
    what: 'private API key (key-) and public validation key (pubkey-): 32 hex',
    prefix: ['key-', 'pubkey-'],
    keyword: ['mailgun'],
    body: { alphabet: 'lowerHex', length: 32 },
  },
  {
    id: 'mailgun',
    provider: 'Mailgun',
    what: 'webhook signing key: 32 hex, 8 hex, 8 hex',
    shape: String.raw`[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}`,
    body: hexish,
  },
  {
    id: 'sendgrid',
    provider: 'Twilio SendGrid',
    what: 'API key: "SG.", 22 characters, ".", 43 characters',
    prefix: ['SG.'],
    shape: String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
    body: { alphabet: 'urlSafe', length: 66 },
  },
  {
    id: 'twilio',
    provider: 'Twilio',
    what: 'API key sid (SK + 32 hex) and account sid (AC + 32 hex)',
    prefix: ['SK'],
    anchor: ['sk'],
    shape: String.raw`SK[0-9a-fA-F]{32}`,
    body: { alphabet: 'hex', length: 32 },
  },
  {
    id: 'adobe',
    provider: 'Adobe',
    what: 'OAuth client secret',
    prefix: ['p8e-'],
    body: { alphabet: 'alnum', length: 32 },
  },
  // --- Social and messaging
  {
    id: 'facebook',
    provider: 'Meta (Facebook)',
    what: 'user and page access tokens (EAA…)',
    prefix: ['EAAC', 'EAAM', 'EAAG', 'EAAB', 'EAAE', 'EAAI', 'EAAJ', 'EAAK', 'EAAL', 'EAAQ'],
    body: { alphabet: 'alnum', length: [90, 400] },
  },
  {
    id: 'facebook',
    provider: 'Meta (Facebook)',
    what: 'app access token: the app id (15-16 digits), "|", the app secret or a signature',
    shape: String.raw`[0-9]{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,32}`,
    anchor: ['|', '%7c'],
    body: { alphabet: 'urlSafe', length: 27 },
  },
  {
    id: 'telegram',
    provider: 'Telegram',
    what: 'bot token: the bot id, ":", then "A" and 34 more characters',
    shape: String.raw`[0-9]{5,16}:A[A-Za-z0-9_-]{34}`,
    anchor: [':a'],
    body: { alphabet: 'urlSafe', length: 35 },
  },
  {
    id: 'twitter-bearer',
    provider: 'X (Twitter)',
    what: 'app-only bearer token: 22 "A"s, then URL-encoded base64',
    shape: String.raw`A{22}[A-Za-z0-9%]{80,200}`,
    anchor: ['aaaaaaaaaaaaaaaaaaaaaa'],
    body: { alphabet: 'alnum', length: 100 },
  },
  {
    id: 'discord',
    provider: 'Discord',
    what: 'bot token: base64 user id, ".", timestamp, ".", HMAC',
    shape: String.raw`[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}`,
    body: { alphabet: 'urlSafe', length: 59 },
  },
  {
    id: 'discord',
    provider: 'Discord',
    what: "client id (17-20 digits), public key / client secret (hex 64 or 32), named as Discord's",
    keyword: ['discord'],
    shape: String.raw`[0-9]{17,20}|[0-9a-f]{64}|[A-Za-z0-9_-]{32}`,
    body: { alphabet: 'hex', length: 64 },
  },
  {
    id: 'dropbox',
    provider: 'Dropbox',
    what: 'short-lived access token (sl.) ',
    prefix: ['sl.'],
    keyword: ['dropbox'],
    body: { alphabet: 'urlSafe', length: [130, 1400] },
  },
  {
    id: 'dropbox',
    provider: 'Dropbox',
    what: "app key / app secret (15 lower-case letters and digits), long-lived token (64), named as Dropbox's",
    keyword: ['dropbox'],
    shape: String.raw`[a-z0-9]{15}|[A-Za-z0-9_-]{11}AAAAAAAAAA[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{64}`,
    body: { alphabet: 'lowerAlnum', length: 15 },
  },
  {
    id: 'linkedin',
    provider: 'LinkedIn',
    what: "client id (14) and client secret (16), named as LinkedIn's",
    keyword: ['linkedin', 'linked_in', 'linked-in'],
    body: { alphabet: 'alnum', length: [14, 16] },
  },
  {
    id: 'slack',
    provider: 'Slack',
    what: 'bot, user, app-config, refresh and legacy workspace tokens (xox?-)',
    prefix: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxe-', 'xoxr-', 'xoxs-', 'xoxe.xoxp-'],
    // Workspace id, user id and a random part: never shorter than 20 characters.
    body: { alphabet: 'urlSafe', length: [20, 250] },
  },
  {
    id: 'slack-webhook',
    provider: 'Slack',
    what: 'incoming webhook, workflow and trigger URLs',
    prefix: [
      'hooks.slack.com/services/',
      'hooks.slack.com/workflows/',
      'hooks.slack.com/triggers/',
    ],
    body: { alphabet: 'alnum', length: [24, 120] },
    shape: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{24,120}`,
  },
  {
    id: 'notion',
    provider: 'Notion',
    what: 'integration token (ntn_) and internal integration secret of the older form (secret_)',
    prefix: ['ntn_'],
    body: { alphabet: 'alnum', length: [40, 50] },
  },
  {
    id: 'notion',
    provider: 'Notion',
    what: 'internal integration secret of the older form',
    prefix: ['secret_'],
    keyword: ['notion'],
    body: { alphabet: 'alnum', length: 43 },
  },
  {
    id: 'asana',
    provider: 'Asana',
    what: "client id (16 digits) and client secret (32), named as Asana's",
    keyword: ['asana'],
    shape: String.raw`[0-9]{16}|[A-Za-z0-9]{32}`,
    body: { alphabet: 'digits', length: 16 },
  },
  {
    id: 'asana',
    provider: 'Asana',
    what: 'personal access token: "1/" or "2/", user id, "/" or ":", 32 hex',
    shape: String.raw`[12]/[0-9]{12,18}[/:][0-9a-f]{32}`,
    body: hexish,
  },
  {
    id: 'sumologic',
    provider: 'Sumo Logic',
    what: 'access id ("su" + 12) and access key (64), named as Sumo Logic\'s',
    keyword: ['sumologic', 'sumo'],
    shape: String.raw`su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}`,
    body: { alphabet: 'alnum', length: 14 },
  },
  {
    id: 'sidekiq',
    provider: 'Sidekiq Pro / Enterprise',
    what: 'gem server credentials: 8 hex ":" 8 hex, in BUNDLE_*__CONTRIBSYS__COM or the gem URL',
    keyword: ['contribsys'],
    shape: String.raw`[0-9a-f]{8}:[0-9a-f]{8}`,
    body: { alphabet: 'lowerHex', length: 17 },
  },
  {
    id: 'sidekiq',
    provider: 'Sidekiq Pro / Enterprise',
    what: 'the same credentials in the gem server URL',
    anchor: ['contribsys'],
    shape: String.raw`[0-9a-f]{8}:[0-9a-f]{8}@(?:gems|enterprise)\.contribsys\.com`,
    body: { alphabet: 'lowerHex', length: 17 },
  },
  {
    id: 'intra42',
    provider: '42 Intra',
    what: 'client secret: "s-s4t2ud-" or "s-s4t2af-" and 64 hex',
    prefix: ['s-s4t2ud-', 's-s4t2af-'],
    body: { alphabet: 'lowerHex', length: 64 },
  },
  {
    id: '1password',
    provider: '1Password',
    what: 'account secret key: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX (or 6-5 middle)',
    anchor: ['a3-'],
    shape: String.raw`A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}`,
    body: { alphabet: 'upperAlnum', length: 34 },
  },
  {
    id: '1password',
    provider: '1Password',
    what: 'service account token: "ops_" and base64 JSON',
    prefix: ['ops_eyJ'],
    body: { alphabet: 'base64', length: [200, 2000] },
  },
  {
    id: 'messagebird',
    provider: 'MessageBird (Bird)',
    what: "API key (25) or client id (UUID), named as MessageBird's",
    keyword: ['messagebird', 'message_bird', 'message-bird'],
    shape: String.raw`[A-Za-z0-9]{25}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'alnum', length: 25 },
  },
  {
    id: 'heroku',
    provider: 'Heroku',
    what: "API key: a UUID named as Heroku's; platform key HRKU-",
    keyword: ['heroku'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'hubspot',
    provider: 'HubSpot',
    what: "API key (legacy): a UUID named as HubSpot's",
    keyword: ['hubspot'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'hubspot',
    provider: 'HubSpot',
    what: 'private app access token: "pat-", region, "-", UUID',
    shape: String.raw`pat-(?:na|eu|ap)[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
    anchor: ['pat-'],
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'heroku',
    provider: 'Heroku',
    what: 'platform API key',
    prefix: ['HRKU-'],
    body: { alphabet: 'urlSafe', length: [36, 64] },
  },
];
