/**
 * Secret formats of work tools and business platforms.
 * Part of the table ./secret-formats.ts gathers; ./secret-format.ts says what each field means and
 * docs/secret-formats.md where each format comes from.
 * @module
 */
import { hexish, type SecretFormat } from './secret-format.ts';

export const WORK_TOOL_FORMATS: readonly SecretFormat[] = [
  {
    id: 'notion',
    provider: 'Notion',
    // integration token (ntn_) and internal integration secret of the older form (secret_)
    prefix: ['ntn_'],
    body: { alphabet: 'alnum', length: [40, 50] },
  },
  {
    id: 'notion',
    provider: 'Notion',
    // internal integration secret of the older form
    prefix: ['secret_'],
    keyword: ['notion'],
    body: { alphabet: 'alnum', length: 43 },
  },
  {
    id: 'asana',
    provider: 'Asana',
    // client id (16 digits) and client secret (32), named as Asana's
    keyword: ['asana'],
    shape: String.raw`[0-9]{16}|[A-Za-z0-9]{32}`,
    body: { alphabet: 'digits', length: 16 },
  },
  {
    id: 'asana',
    provider: 'Asana',
    // personal access token: "1/" or "2/", user id, "/" or ":", 32 hex
    shape: String.raw`[12]/[0-9]{12,18}[/:][0-9a-f]{32}`,
    body: hexish,
  },
  {
    id: 'sumologic',
    provider: 'Sumo Logic',
    // access id ("su" + 12) and access key (64), named as Sumo Logic's
    keyword: ['sumologic', 'sumo'],
    shape: String.raw`su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}`,
    body: { alphabet: 'alnum', length: 14 },
  },
  {
    id: 'sidekiq',
    provider: 'Sidekiq Pro / Enterprise',
    // gem server credentials: 8 hex ":" 8 hex, in BUNDLE_*__CONTRIBSYS__COM or the gem URL
    keyword: ['contribsys'],
    shape: String.raw`[0-9a-f]{8}:[0-9a-f]{8}`,
    body: { alphabet: 'lowerHex', length: 17 },
  },
  {
    id: 'sidekiq',
    provider: 'Sidekiq Pro / Enterprise',
    // the same credentials in the gem server URL
    anchor: ['contribsys'],
    shape: String.raw`[0-9a-f]{8}:[0-9a-f]{8}@(?:gems|enterprise)\.contribsys\.com`,
    body: { alphabet: 'lowerHex', length: 17 },
  },
  {
    id: 'intra42',
    provider: '42 Intra',
    // client secret: "s-s4t2ud-" or "s-s4t2af-" and 64 hex
    prefix: ['s-s4t2ud-', 's-s4t2af-'],
    body: { alphabet: 'lowerHex', length: 64 },
  },
  {
    id: '1password',
    provider: '1Password',
    // account secret key: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX (or 6-5 middle)
    anchor: ['a3-'],
    shape: String.raw`A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}`,
    body: { alphabet: 'upperAlnum', length: 34 },
  },
  {
    id: '1password',
    provider: '1Password',
    // service account token: "ops_" and base64 JSON
    prefix: ['ops_eyJ'],
    body: { alphabet: 'base64', length: [200, 2000] },
  },
  {
    id: 'messagebird',
    provider: 'MessageBird (Bird)',
    // API key (25) or client id (UUID), named as MessageBird's
    keyword: ['messagebird', 'message_bird', 'message-bird'],
    shape: String.raw`[A-Za-z0-9]{25}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'alnum', length: 25 },
  },
  {
    id: 'heroku',
    provider: 'Heroku',
    // API key: a UUID named as Heroku's; platform key HRKU-
    keyword: ['heroku'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'hubspot',
    provider: 'HubSpot',
    // API key (legacy): a UUID named as HubSpot's
    keyword: ['hubspot'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'hubspot',
    provider: 'HubSpot',
    // private app access token: "pat-", region, "-", UUID
    shape: String.raw`pat-(?:na|eu|ap)[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
    anchor: ['pat-'],
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'heroku',
    provider: 'Heroku',
    // platform API key
    prefix: ['HRKU-'],
    body: { alphabet: 'urlSafe', length: [36, 64] },
  },
];
