/**
 * Secret formats of payments, commerce, e-mail and SMS delivery.
 * Part of the table ./secret-formats.ts gathers; ./secret-format.ts says what each field means and
 * docs/secret-formats.md where each format comes from.
 * @module
 */
import { hexish, type SecretFormat } from './secret-format.ts';

export const COMMERCE_FORMATS: readonly SecretFormat[] = [
  {
    id: 'square',
    provider: 'Square',
    // access token (sq0atp-) and OAuth application secret (sq0csp-)
    prefix: ['sq0atp-', 'sq0idp-'],
    body: { alphabet: 'urlSafe', length: 22 },
  },
  {
    id: 'square',
    provider: 'Square',
    // OAuth application secret: "sq0csp-" and 43 characters
    prefix: ['sq0csp-'],
    // Printable ASCII without quotes and whitespace: samples hold `]` and `^`.
    shape: String.raw`sq0csp-[!#-&(-~]{43}`,
    body: { alphabet: 'urlSafe', length: 43 },
  },
  {
    id: 'square',
    provider: 'Square',
    // production access token: "EAAA" and 60 characters
    prefix: ['EAAA'],
    body: { alphabet: 'urlSafe', length: 60 },
  },
  {
    id: 'stripe',
    provider: 'Stripe',
    // secret and restricted keys, live, test and prod (sk_, rk_); webhook secrets (whsec_)
    prefix: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    body: { alphabet: 'alnum', length: [16, 255] },
  },
  {
    id: 'plaid',
    provider: 'Plaid',
    // access token: access-<environment>-<UUID>
    prefix: ['access-sandbox-', 'access-development-', 'access-production-'],
    body: { alphabet: 'hex', length: 36 },
    shape: String.raw`access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  },
  {
    id: 'stripe',
    provider: 'Stripe',
    // secret and restricted keys, live, test and prod (sk_, rk_); webhook secrets (whsec_)
    prefix: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    body: { alphabet: 'alnum', length: [16, 255] },
  },
  {
    id: 'plaid',
    provider: 'Plaid',
    // client id (24) and secret (30), named as Plaid's
    keyword: ['plaid'],
    body: { alphabet: 'alnum', length: [24, 30] },
  },
  {
    id: 'easypost',
    provider: 'EasyPost',
    // production (EZAK) and test (EZTK) API keys
    prefix: ['EZAK', 'EZTK'],
    body: { alphabet: 'alnum', length: 54 },
  },
  {
    id: 'mailgun',
    provider: 'Mailgun',
    // private API key (key-) and public validation key (pubkey-): 32 hex
    prefix: ['key-', 'pubkey-'],
    keyword: ['mailgun'],
    body: { alphabet: 'lowerHex', length: 32 },
  },
  {
    id: 'mailgun',
    provider: 'Mailgun',
    // webhook signing key: 32 hex, 8 hex, 8 hex
    shape: String.raw`[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}`,
    body: hexish,
  },
  {
    id: 'sendgrid',
    provider: 'Twilio SendGrid',
    // API key: "SG.", 22 characters, ".", 43 characters
    prefix: ['SG.'],
    shape: String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
    body: { alphabet: 'urlSafe', length: 66 },
  },
  {
    id: 'twilio',
    provider: 'Twilio',
    // API key sid (SK + 32 hex) and account sid (AC + 32 hex)
    prefix: ['SK'],
    anchor: ['sk'],
    shape: String.raw`SK[0-9a-fA-F]{32}`,
    body: { alphabet: 'hex', length: 32 },
  },
  {
    id: 'adobe',
    provider: 'Adobe',
    // OAuth client secret
    prefix: ['p8e-'],
    body: { alphabet: 'alnum', length: 32 },
  },
];
