/**
 * Secrets named in the other shapes code and configuration give a name and its value, each read
 * with the same judgement of names (./key-names.ts) and values (assignment-scan.ts
 * `acceptAssignedValue`) as a plain assignment:
 *
 * - initialised in braces or parentheses: `std::string AccountKey{"…"}`, `ApiToken("…")`;
 * - a quoted name beside its value: PHP's `define('AUTH_KEY', '…')`, `put("password", "…")`,
 *   `("api_key", "…")`, `.header("X-Api-Key", "…")`;
 * - a quoted name in brackets: `$cfg['db_password'] = '…'`, `ENV["TOKEN"] ||= "…"`;
 * - a name and a value as two fields: `<add key="ApiKey" value="…"/>`, `{"name": "DB_PASSWORD",
 *   "value": "…"}`, a Kubernetes env entry (`- name: API_TOKEN` / `value: …`);
 * - markup elements: `<password>…</password>`, Jenkins' `<secret>{…}</secret>`, FileZilla's
 *   `<Pass encoding="base64">…</Pass>`, Android's `<string name="api_key">…</string>`.
 * @module
 */
import { GENERIC, type RawFinding } from './findings.ts';
import { acceptAssignedValue, CREDENTIAL_STEMS } from './assignment-scan.ts';

/** `key` → `[kK][eE][yY]`: a stem in any case (the patterns keep their own case). */
const anyCase = (word: string) => [...word].map((c) => `[${c}${c.toUpperCase()}]`).join('');
/** A name holding a credential word's stem (./assignment-scan.ts), as a lookahead. */
const NAMED = String.raw`(?=[\w.:-]{0,60}?(?:${CREDENTIAL_STEMS.map(anyCase).join('|')}))`;
const NAME = String.raw`${NAMED}([A-Za-z_$][\w.:$-]{0,80})`;
/**
 * The same name without the lookahead, for the shapes that find it behind what follows it (a
 * lookbehind, so the scan stops only at `{`, `(`, `,` or `]`); the stem is checked after.
 */
const BARE_NAME = String.raw`([A-Za-z_$][\w.:$-]{0,80})`;
const STEM = new RegExp(CREDENTIAL_STEMS.join('|'), 'i');
/** A quoted literal: group 1 "…", 2 '…', 3 `…`. */
const LITERAL =
  String.raw`(?:"((?:[^"\\\n\0]|\\[^\n\0]){1,4096})"|'([^'\n\0]{1,4096})'|` +
  '`([^`\\n\\0]{1,4096})`)';

/** Verbs a call's name starts with when it reads or makes a credential rather than holds one. */
const NOT_A_HOLDER =
  /^(?:get|fetch|load|read|find|lookup|has|is|create|generate|gen|make|build|new|validate|verify|check|parse|decode|encode|hash|remove|delete|del|revoke|refresh|request|require|print|log|assert|expect|test|mock|to|from|match|compare|rotate|clear|reset|save|store|write|update|handle|on|use_?state|i18n|t)(?:[A-Z_]|$)/;

type PairShape = {
  anchors: readonly string[];
  pattern: RegExp;
  /** Group of the name; the literal's groups follow the name's (LITERAL's three). */
  name: number;
  literal: number;
  accept?: (name: string, m: RegExpExecArray) => boolean;
};

export const SHAPES: readonly PairShape[] = [
  {
    // AccountKey{"…"}, ApiToken("…"), password = {"…"} is an assignment's business.
    anchors: ['{', '('],
    pattern: new RegExp(
      String.raw`[{(](?<=(?<![\w.$])${BARE_NAME}[ \t]*[{(])[ \t]*${LITERAL}[ \t]*[})]`,
      'dg',
    ),
    name: 1,
    literal: 2,
    // A name in code (`ApiToken`, `set_password`), not a word of a sentence (`tests pass (…)`),
    // around one run of characters.
    accept: (name, m) =>
      /[A-Z_]/.test(name) &&
      !/\s/.test(m[2] ?? m[3] ?? m[4] ?? '') &&
      (m[0].includes('{') || !NOT_A_HOLDER.test(name.replace(/^.*[.:]/, ''))),
  },
  {
    // define('AUTH_KEY', '…'), put("password", "…"), ("api_key", "…"), {"token", "…"}
    anchors: [','],
    pattern: new RegExp(
      String.raw`,(?<=[({\[,][ \t]*["']${BARE_NAME}["'][ \t]*,)[ \t]*${LITERAL}`,
      'dg',
    ),
    name: 1,
    literal: 2,
  },
  {
    // $cfg['db_password'] = '…', ENV["TOKEN"] ||= "…", os.environ["API_KEY"] = "…"
    anchors: ['['],
    pattern: new RegExp(
      String.raw`\](?<=\[[ \t]*["']${BARE_NAME}["'][ \t]*\])[ \t]*(?:=(?![=>])|\|\|=|\?\?=|:=|=>)[ \t]*${LITERAL}`,
      'dg',
    ),
    name: 1,
    literal: 2,
  },
  {
    // <add key="ApiKey" value="…"/>, <property name="password" value="…"/>
    anchors: ['value'],
    pattern: new RegExp(
      String.raw`\b(?:key|name|id)[ \t]*=[ \t]*["']${NAME}["'][ \t]+(?:value|content)[ \t]*=[ \t]*${LITERAL}`,
      'dgi',
    ),
    name: 1,
    literal: 2,
  },
  {
    // {"name": "DB_PASSWORD", "value": "…"} (a list of environment variables)
    anchors: ['value'],
    pattern: new RegExp(
      String.raw`"(?:name|key)"[ \t]*:[ \t]*"${NAME}"[ \t]*,[ \t]*"value"[ \t]*:[ \t]*${LITERAL}`,
      'dg',
    ),
    name: 1,
    literal: 2,
  },
  {
    // - name: API_TOKEN\n  value: …  (Kubernetes, GitHub Actions, docker-compose lists)
    anchors: ['value'],
    pattern: new RegExp(
      String.raw`name:(?<=(?:^|\n)[ \t]*-?[ \t]*name:)[ \t]*["']?${NAME}["']?[ \t]*\r?\n[ \t]+value:[ \t]*(?:${LITERAL}|([^\s"'#][^\n\0#]{0,4095}?))[ \t]*(?=\r?\n|$|#)`,
      'dg',
    ),
    name: 1,
    literal: 2,
  },
  {
    // <password>…</password>, <secret>{…}</secret>, <Pass encoding="base64">…</Pass>
    anchors: ['</'],
    pattern: new RegExp(
      String.raw`<${NAME}(?:[ \t][^<>\n\0]{0,200})?>[ \t]*([^<\n\0]{1,4096}?)[ \t]*</\1[ \t]*>`,
      'dg',
    ),
    name: 1,
    literal: 2,
  },
  {
    // <string name="api_key">…</string>, <entry key="token">…</entry>
    anchors: ['</'],
    pattern: new RegExp(
      String.raw`<([A-Za-z][\w:.-]{0,40})[ \t][^<>\n\0]{0,200}?\b(?:name|key)[ \t]*=[ \t]*["']${NAMED}([\w.:$-]{1,80})["'][^<>\n\0]{0,200}>[ \t]*([^<\n\0]{1,4096}?)[ \t]*</\1[ \t]*>`,
      'dg',
    ),
    name: 2,
    literal: 3,
  },
];

/** The first of the literal's groups that took part, from `first` on. */
function literalGroup(m: RegExpExecArray, first: number): number | undefined {
  for (let g = first; g < m.length; g++) if (m[g] !== undefined) return g;
  return undefined;
}

export function scanPairs(text: string, lower = text.toLowerCase()): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const shape of SHAPES) {
    if (!shape.anchors.some((a) => lower.includes(a))) continue;
    const pattern = shape.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const name = m[shape.name] ?? '';
      if (!STEM.test(name)) continue;
      const group = literalGroup(m, shape.literal);
      const range = group === undefined ? undefined : m.indices?.[group];
      if (range === undefined) continue;
      const value = text.slice(range[0], range[1]);
      if (shape.accept && !shape.accept(name, m)) continue;
      // The name's last part decides: `cfg.db.password`, `ns:Password`.
      const key = name.replace(/^.*[.:$]/, '') || name;
      const literal = value.trim();
      if (!acceptAssignedValue(key, literal, true, text, range[1])) continue;
      // Beside a name a plain word is data (`('pass', 'fail')`), not a password.
      if (/^[a-z]{1,12}$/.test(literal)) continue;
      // A pattern may leave the literal's group at the next match's start: continue after it.
      if (pattern.lastIndex < range[1]) pattern.lastIndex = range[1];
      findings.push({
        rule: 'secret-assignment',
        start: range[0],
        end: range[1],
        priority: GENERIC,
      });
    }
  }
  return findings;
}
