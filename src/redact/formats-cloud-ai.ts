/**
 * Secret formats of cloud platforms, infrastructure tools and AI providers.
 * Part of the table ./secret-formats.ts gathers; ./secret-format.ts says what each field means and
 * docs/secret-formats.md where each format comes from.
 * @module
 */
import type { SecretFormat } from './secret-format.ts';

export const CLOUD_AI_FORMATS: readonly SecretFormat[] = [
  {
    id: 'aws-bedrock',
    provider: 'Amazon Bedrock',
    // long-term API key (base64 of "BedrockAPIKey-…")
    prefix: ['ABSK'],
    body: { alphabet: 'base64', length: [100, 300] },
  },
  {
    id: 'aws-bedrock',
    provider: 'Amazon Bedrock',
    // short-term API key (base64 of "bedrock.amazonaws.com…")
    prefix: ['bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t'],
    body: { alphabet: 'base64', length: [0, 2048] },
  },
  {
    id: 'azure-ad-client-secret',
    provider: 'Microsoft Entra ID',
    // client secret: 3 characters, a digit, "Q~", then 31 to 34 more
    shape: String.raw`[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`,
    anchor: ['q~'],
    body: { alphabet: 'urlSafe', length: 40 },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    // service, batch and recovery tokens (hvs., hvb., hvr.)
    prefix: ['hvs.', 'hvb.', 'hvr.'],
    body: { alphabet: 'urlSafe', length: [24, 400] },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    // service token before Vault 1.10: "s." and 24 letters and digits, named as a token
    keyword: ['vault', 'token'],
    prefix: ['s.'],
    body: { alphabet: 'alnum', length: 24 },
  },
  {
    id: 'vault',
    provider: 'HashiCorp Vault',
    // batch token before Vault 1.10: "b." and 100 or more characters, named as Vault's
    keyword: ['vault'],
    prefix: ['b.'],
    body: { alphabet: 'urlSafe', length: [100, 400] },
  },
  {
    id: 'flyio',
    provider: 'Fly.io',
    // org and machine tokens (fo1_, fm1r_, fm1a_, fm2_)
    prefix: ['fo1_', 'fm1r_', 'fm1a_'],
    body: { alphabet: 'urlSafe', length: [40, 800] },
  },
  {
    id: 'flyio',
    provider: 'Fly.io',
    // macaroon token (fm2_, base64, several joined by commas)
    prefix: ['fm2_'],
    body: { alphabet: 'base64', length: [40, 4000] },
  },
  {
    id: 'openshift',
    provider: 'OpenShift',
    // user token: "sha256~" and 43 base64url characters
    prefix: ['sha256~'],
    body: { alphabet: 'urlSafe', length: 43 },
  },
  {
    id: 'pulumi',
    provider: 'Pulumi',
    // access token: "pul-" and 40 lower-case hex characters
    prefix: ['pul-'],
    body: { alphabet: 'lowerHex', length: 40 },
  },
  {
    id: 'infracost',
    provider: 'Infracost',
    // API key
    prefix: ['ico-'],
    body: { alphabet: 'alnum', length: 32 },
  },
  {
    id: 'sentry',
    provider: 'Sentry',
    // organization auth token (sntrys_ + base64 JSON, then _ and a secret of 32 bytes)
    prefix: ['sntrys_eyJ'],
    // The JSON's base64 may end in padding before the `_` and the secret (43 characters).
    shape: String.raw`sntrys_eyJ[A-Za-z0-9+/]{20,400}={0,2}(?:_[A-Za-z0-9_+/-]{43})?`,
    body: { alphabet: 'base64', length: [60, 400] },
  },
  {
    id: 'sentry',
    provider: 'Sentry',
    // user auth token
    prefix: ['sntryu_'],
    body: { alphabet: 'lowerHex', length: 64 },
  },
  {
    id: 'age',
    provider: 'age (file encryption)',
    // X25519 identity: "AGE-SECRET-KEY-1" and 58 upper-case Bech32 characters
    prefix: ['AGE-SECRET-KEY-1'],
    body: { alphabet: 'upperAlnum', length: 58 },
  },
  {
    id: 'airtable',
    provider: 'Airtable',
    // personal access token: "pat", 14 characters, ".", 64 hex
    prefix: ['pat'],
    anchor: ['pat'],
    shape: String.raw`pat[A-Za-z0-9]{14}\.[0-9a-f]{64}`,
    body: { alphabet: 'hex', length: 64 },
  },
  {
    id: 'anthropic',
    provider: 'Anthropic',
    // API and admin keys: "sk-ant-api03-" / "sk-ant-admin01-", 93 characters, "AA"
    prefix: ['sk-ant-api03-', 'sk-ant-admin01-'],
    shape: String.raw`sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA`,
    body: { alphabet: 'urlSafe', length: 95 },
  },
  {
    id: 'huggingface',
    provider: 'Hugging Face',
    // user access token and organization API token
    prefix: ['hf_', 'api_org_'],
    body: { alphabet: 'letters', length: 34 },
  },
];
