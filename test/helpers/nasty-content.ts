/**
 * Content a session may hold that has broken tools before: PEM fragments, huge lines, NUL bytes,
 * lone surrogates, ANSI escapes, bidi marks, `</script>`, JSON nested thousands deep, and every
 * gitleaks sample secret. For the content fuzz (soak/content-fuzz.ts) and its fast slice
 * (test/content-fuzz.test.ts): injected into real transcripts' requests and tool results.
 */
import { loadSecretCorpus } from './secret-corpus.ts';

export type NastyString = {
  name: string;
  text: string;
  /** A secret the text holds that must not appear raw in anything shim writes. */
  secret?: string;
};

/** Marks an injected `</script>` so an export can be searched for it raw. */
export const SCRIPT_BREAKOUT = '</script><script>window.shimNasty=1</script>';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function keyBody(random: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += B64[Math.floor(random() * 64)];
  return s;
}

/** The fixed set: every shape once (huge ones only when `huge`). */
export function baseNastyStrings(random: () => number, huge = true): NastyString[] {
  const line = () => keyBody(random, 64);
  const pemBody = `${line()}\n${line()}\n${line()}`;
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`;
  const deep = `${'['.repeat(5000)}"deep"${']'.repeat(5000)}`;
  const longSecret = keyBody(random, 4000);
  const list: NastyString[] = [
    {
      name: 'empty PEM block',
      text: '-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----',
    },
    { name: 'lone BEGIN', text: 'here: -----BEGIN RSA PRIVATE KEY-----' },
    { name: 'BEGIN NUL END', text: '-----BEGIN PRIVATE KEY-----\0-----END PRIVATE KEY-----' },
    { name: 'whole PEM', text: `use this key\n${pem}\nthanks`, secret: pemBody.slice(0, 64) },
    {
      name: 'PEM as JSON escapes',
      text: JSON.stringify({ private_key: pem }),
      secret: pemBody.slice(65, 129),
    },
    {
      name: 'PEM cut off',
      text: `-----BEGIN EC PRIVATE KEY-----\n${pemBody.slice(0, 130)}`,
      secret: pemBody.slice(0, 64),
    },
    {
      name: 'kubeconfig client-key-data',
      text: `users:\n- name: me\n  user:\n    client-key-data: ${Buffer.from(pem).toString('base64')}`,
      secret: Buffer.from(pem).toString('base64').slice(40, 120),
    },
    { name: 'NUL bytes', text: 'a\0b\0\0c\u0000' },
    { name: 'lone surrogates', text: 'x\ud800y\udfffz\udc00\ud83d' },
    { name: 'ANSI escapes', text: '\u001b[31mred\u001b[0m \u001b]0;title\u0007 \u001b[2J' },
    { name: 'bidi marks', text: '\u202eevil\u202c \u200f\u200e \u2066x\u2069 \u061c' },
    { name: 'line separators', text: 'a\u2028b\u2029c\r\nd\re' },
    { name: 'script breakout', text: `see ${SCRIPT_BREAKOUT} and <!-- --> <![CDATA[` },
    { name: 'HTML entities', text: '&lt;script&gt; &amp; &#x3C;/script&#x3E;' },
    { name: 'deep JSON text', text: deep },
    { name: 'JSON-looking', text: '{"summary": null, "userRequests": {"__proto__": 1}}' },
    { name: 'prototype keys', text: '__proto__ constructor prototype toString' },
    { name: 'emoji and ZWJ', text: '👩‍👩‍👧‍👦🏳️‍🌈 e\u0301 \ufeffBOM' },
    { name: 'long assigned secret', text: `API_KEY=${longSecret}`, secret: longSecret.slice(3000) },
    { name: 'redaction marker', text: '[REDACTED:private-key] [REDACTED:' },
  ];
  if (huge) {
    list.push(
      { name: '5 MB line', text: keyBody(random, 5 * 1024 * 1024) },
      { name: '1 MB of prose', text: 'all work and no play '.repeat(50_000) },
    );
  }
  return list;
}

/** Every gitleaks true-positive sample (empty when the shared fixtures are missing). */
export function sampleNastyStrings(): NastyString[] {
  return loadSecretCorpus()
    .filter((s) => s.kind === 'tp')
    .map((s) => ({ name: `gitleaks ${s.rule}`, text: s.text, secret: s.secret! }));
}
