/**
 * Secret formats of social networks, chat and messaging.
 * Part of the table ./secret-formats.ts gathers; ./secret-format.ts says what each field means and
 * docs/secret-formats.md where each format comes from.
 * @module
 */
import type { SecretFormat } from './secret-format.ts';

export const MESSAGING_FORMATS: readonly SecretFormat[] = [
  {
    id: 'facebook',
    provider: 'Meta (Facebook)',
    // user and page access tokens (EAA…)
    prefix: ['EAAC', 'EAAM', 'EAAG', 'EAAB', 'EAAE', 'EAAI', 'EAAJ', 'EAAK', 'EAAL', 'EAAQ'],
    body: { alphabet: 'alnum', length: [90, 400] },
  },
  {
    id: 'facebook',
    provider: 'Meta (Facebook)',
    // app access token: the app id (15-16 digits), "|", the app secret or a signature
    shape: String.raw`[0-9]{15,16}(?:\||%7[Cc])[A-Za-z0-9_-]{27,32}`,
    anchor: ['|', '%7c'],
    body: { alphabet: 'urlSafe', length: 27 },
  },
  {
    id: 'telegram',
    provider: 'Telegram',
    // bot token: the bot id, ":", then "A" and 34 more characters
    shape: String.raw`[0-9]{5,16}:A[A-Za-z0-9_-]{34}`,
    anchor: [':a'],
    body: { alphabet: 'urlSafe', length: 35 },
  },
  {
    id: 'twitter-bearer',
    provider: 'X (Twitter)',
    // app-only bearer token: 22 "A"s, then URL-encoded base64
    shape: String.raw`A{22}[A-Za-z0-9%]{80,200}`,
    anchor: ['aaaaaaaaaaaaaaaaaaaaaa'],
    body: { alphabet: 'alnum', length: 100 },
  },
  {
    id: 'discord',
    provider: 'Discord',
    // bot token: base64 user id, ".", timestamp, ".", HMAC
    shape: String.raw`[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}`,
    body: { alphabet: 'urlSafe', length: 59 },
  },
  {
    id: 'discord',
    provider: 'Discord',
    // client id (17-20 digits), public key / client secret (hex 64 or 32), named as Discord's
    keyword: ['discord'],
    shape: String.raw`[0-9]{17,20}|[0-9a-f]{64}|[A-Za-z0-9_-]{32}`,
    body: { alphabet: 'hex', length: 64 },
  },
  {
    id: 'dropbox',
    provider: 'Dropbox',
    // short-lived access token (sl.)
    prefix: ['sl.'],
    keyword: ['dropbox'],
    body: { alphabet: 'urlSafe', length: [130, 1400] },
  },
  {
    id: 'dropbox',
    provider: 'Dropbox',
    // app key / app secret (15 lower-case letters and digits), long-lived token (64), named as Dropbox's
    keyword: ['dropbox'],
    shape: String.raw`[a-z0-9]{15}|[A-Za-z0-9_-]{11}AAAAAAAAAA[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{64}`,
    body: { alphabet: 'lowerAlnum', length: 15 },
  },
  {
    id: 'linkedin',
    provider: 'LinkedIn',
    // client id (14) and client secret (16), named as LinkedIn's
    keyword: ['linkedin', 'linked_in', 'linked-in'],
    body: { alphabet: 'alnum', length: [14, 16] },
  },
  {
    id: 'slack',
    provider: 'Slack',
    // bot, user, app-config, refresh and legacy workspace tokens (xox?-)
    prefix: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxe-', 'xoxr-', 'xoxs-', 'xoxe.xoxp-'],
    // Workspace id, user id and a random part: never shorter than 20 characters.
    body: { alphabet: 'urlSafe', length: [20, 250] },
  },
  {
    id: 'slack-webhook',
    provider: 'Slack',
    // incoming webhook, workflow and trigger URLs
    prefix: [
      'hooks.slack.com/services/',
      'hooks.slack.com/workflows/',
      'hooks.slack.com/triggers/',
    ],
    body: { alphabet: 'alnum', length: [24, 120] },
    shape: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{24,120}`,
  },
];
