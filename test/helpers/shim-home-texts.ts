/**
 * Everything under a SHIM_HOME as text, each piece with where it lies, for tests and the bench
 * that must find no raw secret at rest: every file (gzip opened), every database row by row
 * (compressed columns opened) and as raw bytes (freed pages, the write-ahead log), the search
 * index's terms. The warm look's pipes (run/) and V8's code cache are left out: nothing of a
 * session is at rest there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DatabaseSync } from '@photostructure/sqlite';

export type Place = { where: string; text: string };

/** Where under SHIM_HOME a file's text belongs, for the raw-by-location count. */
function placeOf(rel: string): string {
  if (rel.startsWith('cache/cursors/')) return 'cursor cache';
  if (rel.startsWith('cache/')) return `cache (${rel.split('/')[1]})`;
  if (rel.startsWith('handoffs/')) return 'handoffs';
  if (rel.startsWith('logs/')) return 'logs';
  if (rel.startsWith('exports/')) return 'export file';
  return rel.split('/')[0]!;
}

/**
 * Every file under `home` as text (gzip opened), every database also row by row (compressed
 * columns opened) and as raw bytes (freed pages, the write-ahead log), and the search index's
 * terms (each term an exact lower-case token: a secret's tokens are looked for among them).
 */
export function placesUnder(home: string): Place[] {
  const places: Place[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(home, path);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat || rel === 'run' || rel === 'cache/v8') continue;
      if (stat.isDirectory()) {
        walk(path);
        continue;
      }
      if (!stat.isFile()) continue;
      const bytes = readFileSync(path);
      if (/\.db$/.test(name)) places.push(...rowsOf(path, rel));
      let text = bytes.toString('latin1');
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        try {
          text = gunzipSync(bytes).toString();
        } catch {
          // not gzip after all
        }
      }
      places.push({
        where: /\.db(?:-wal|-shm)?$/.test(name) ? `${name} (raw bytes)` : placeOf(rel),
        text,
      });
    }
  };
  walk(home);
  return places;
}

function rowsOf(path: string, rel: string): Array<{ where: string; text: string }> {
  const db = new DatabaseSync(path, { readOnly: true });
  const out: Array<{ where: string; text: string }> = [];
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
      .all() as Array<{ name: string; sql: string | null }>;
    for (const { name, sql } of tables) {
      let rows: Array<Record<string, unknown>>;
      try {
        rows = db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>;
      } catch {
        continue;
      }
      const where =
        /fts5/i.test(sql ?? '') || /_(?:content|data|idx|docsize|config)$/.test(name)
          ? 'search index'
          : `${rel}: ${name}`;
      const texts: string[] = [];
      for (const row of rows)
        for (const value of Object.values(row)) {
          if (typeof value === 'string') texts.push(value);
          else if (value instanceof Uint8Array) {
            const b = Buffer.from(value);
            try {
              texts.push(
                b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b).toString() : b.toString('latin1'),
              );
            } catch {
              texts.push(b.toString('latin1'));
            }
          }
        }
      out.push({ where, text: texts.join('\n') });
      if (/fts5/i.test(sql ?? '')) {
        try {
          db.exec(
            `CREATE VIRTUAL TABLE IF NOT EXISTS temp."v_${name}" USING fts5vocab(main, "${name}", row)`,
          );
          const terms = db.prepare(`SELECT term FROM temp."v_${name}"`).all() as Array<{
            term: string;
          }>;
          out.push({ where: 'search index terms', text: terms.map((t) => t.term).join('\n') });
        } catch {
          // read-only connections cannot make the vocabulary table: the content is read above
        }
      }
    }
  } finally {
    db.close();
  }
  return out;
}

/** A JSON Web Token: header, payload and signature, base64url, joined by dots. */
const JWT = /eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * The header segments of the JWTs in `secret` whose header decodes to a JSON object naming an
 * algorithm or a type: public (every JWT of one algorithm and type has the same one), so a term of
 * the search index equal to one of its runs says nothing about this token.
 */
function publicJwtHeaders(secret: string): string[] {
  const headers: string[] = [];
  for (const [token] of secret.matchAll(JWT)) {
    const header = token.slice(0, token.indexOf('.'));
    try {
      const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown;
      if (typeof decoded === 'object' && decoded !== null && ('alg' in decoded || 'typ' in decoded))
        headers.push(header);
    } catch {
      // not a JWT's header after all: its runs count like any other
    }
  }
  return headers;
}

const runsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 12);

/**
 * The search index's terms a secret would leave (its runs of letters and digits, lower case, as
 * the tokenizer splits them); only long ones, which no ordinary word matches by chance. A JWT's
 * header is left out (only its payload and signature are the token's own); the secret's whole
 * text is still looked for everywhere else.
 */
export function indexedTokens(secret: string): string[] {
  const shared = new Set(publicJwtHeaders(secret).flatMap(runsOf));
  return runsOf(secret).filter((t) => !shared.has(t));
}

/**
 * Where in `places` each of `secrets` lies raw (the search index by its terms). One pass over the
 * texts for all the secrets: a rolling hash of each secret's first characters is looked up at
 * every position, and only a hit is compared in full (the texts are tens of MB, the secrets
 * thousands).
 */
export function whereRaw(
  places: readonly Place[],
  secrets: readonly string[],
): Map<string, string[]> {
  const found = new Map<string, Set<string>>(secrets.map((s) => [s, new Set<string>()]));
  // A secret holding a quote, a backslash or a control character stands escaped in JSON text
  // (rows, caches, the team store's bodies): that form is looked for too.
  const forms = new Map<string, string>(secrets.map((s) => [s, s]));
  for (const s of secrets) {
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) forms.set(escaped, s);
  }
  const head = Math.min(10, ...secrets.map((s) => s.length));
  const MOD = 2 ** 31 - 1;
  const BASE = 257;
  let power = 1;
  for (let i = 1; i < head; i++) power = (power * BASE) % MOD;
  const hashOf = (t: string, from: number) => {
    let h = 0;
    for (let i = from; i < from + head; i++) h = (h * BASE + t.charCodeAt(i)) % MOD;
    return h;
  };
  const byHead = new Map<number, string[]>();
  for (const form of forms.keys()) {
    const h = hashOf(form, 0);
    byHead.set(h, [...(byHead.get(h) ?? []), form]);
  }
  const byToken = new Map<string, string[]>();
  for (const s of secrets)
    for (const t of indexedTokens(s)) byToken.set(t, [...(byToken.get(t) ?? []), s]);
  for (const p of places) {
    const text = p.text;
    if (p.where === 'search index terms') {
      for (const term of text.split('\n'))
        for (const s of byToken.get(term) ?? []) found.get(s)!.add('search index');
      continue;
    }
    if (text.length < head) continue;
    let h = hashOf(text, 0);
    for (let i = 0; ; i++) {
      const candidates = byHead.get(h);
      if (candidates)
        for (const form of candidates)
          if (text.startsWith(form, i)) found.get(forms.get(form)!)!.add(p.where);
      if (i + head >= text.length) break;
      h = (h - ((text.charCodeAt(i) * power) % MOD) + MOD) % MOD;
      h = (h * BASE + text.charCodeAt(i + head)) % MOD;
    }
  }
  return new Map([...found].map(([s, w]) => [s, [...w]]));
}
