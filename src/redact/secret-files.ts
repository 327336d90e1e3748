/**
 * Files that are secrets by what they are: whatever a tool shows of one is kept as a stand-in
 * with the file's name and line count (transcript/secret-file-read.ts decides when a tool call
 * shows one), and a diff's section for one is replaced whole. The names follow what each tool
 * documents as where it keeps credentials: dotenv files (not `.env.example`, `.sample`,
 * `.template`), `.netrc`, `.pgpass`, SSH's `id_*` keys, `*.pem` / `*.key` and other key stores,
 * `.npmrc`, `.docker/config.json`, `~/.aws/credentials`, kubeconfig, Rails' `secrets.yml` and
 * `master.key`, Jenkins' `credentials.xml`, Terraform's variables and state, shell history and
 * start-up files.
 * @module
 */
import { SPECIFIC, redactionMarker, type RawFinding } from './findings.ts';

/** File names (the last part of a path, lower case) that hold secrets wherever they are. */
const NAMES = new Set([
  '.envrc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.yarnrc.yml',
  '.htpasswd',
  '.my.cnf',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.terraformrc',
  'credentials.tfrc.json',
  'kubeconfig',
  'secrets.yml',
  'secrets.yaml',
  'secrets.json',
  'secrets.toml',
  'master.key',
  'credentials.xml',
  'credentials.json',
  'credentials.yml.enc',
  'terraform.tfvars',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  'fish_history',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
]);

/** Files named by their directory and name (lower case, `/`-separated). */
const PLACES = [
  '.aws/credentials',
  '.docker/config.json',
  '.kube/config',
  'gh/hosts.yml',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  'fish/config.fish',
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/shadow-',
];

/** Key and certificate stores, and Terraform's. */
const EXTENSIONS = /\.(?:pem|key|p12|pfx|jks|keystore|ppk|tfvars|tfstate|tfstate\.backup)$/;
/** SSH's private keys: `id_rsa`, `id_ed25519_sk`, `id_ecdsa-work` (not `.pub`). */
const SSH_KEY = /^id_(?:rsa|dsa|ecdsa|ed25519|xmss)(?:_sk)?(?:[-_.][\w-]+)?$/;
/** A template of a secret file, which holds names and placeholders. */
const TEMPLATE = /(?:^|[._-])(?:example|sample|template|dist|defaults|schema)(?:[._-]|$)/;

/**
 * The name to keep for `path` when it is a secret file (its last part, or the last two for a
 * file named by its directory), else null.
 */
export function secretFileName(path: string): string | null {
  const normal = path.replace(/\\/g, '/').replace(/\/+$/, '');
  const lower = normal.toLowerCase();
  const parts = lower.split('/');
  const base = parts.at(-1) ?? '';
  const shown = normal.split('/').at(-1) ?? normal;
  if (base === '' || base.endsWith('.pub')) return null;
  for (const place of PLACES) {
    const named = place.startsWith('/')
      ? lower === place
      : lower === place || lower.endsWith(`/${place}`);
    if (named) return normal.split('/').slice(-2).join('/');
  }
  if (NAMES.has(base)) return shown;
  if (SSH_KEY.test(base) || (parts.at(-2) === '.ssh' && base.startsWith('id_'))) return shown;
  // Dotenv files: `.env`, `.env.local`, `prod.env`; not their templates.
  if (base === '.env' || base.startsWith('.env.') || base.endsWith('.env')) {
    return TEMPLATE.test(base.replace(/^\.env/, '')) || TEMPLATE.test(base) ? null : shown;
  }
  if (EXTENSIONS.test(base) || base.endsWith('.kubeconfig')) return shown;
  return null;
}

/** The stand-in for what a tool showed of a secret file: its name and how many lines it had. */
export function secretFileStandIn(name: string, text: string): string {
  const body = text.replace(/\n+$/, '');
  const lines = body === '' ? 0 : body.split('\n').length;
  return `${redactionMarker('secret-file')} (${name}, ${lines} line${lines === 1 ? '' : 's'})`;
}

/** A unified diff's file header: `diff --git a/X b/X`, or `--- a/X` then `+++ b/X`. */
const DIFF_HEADER =
  /(?:^|\n)(?:diff --git "?a\/([^\n"]+?)"? "?b\/([^\n"]+?)"?|--- (?:a\/)?([^\t\n]+)(?:\t[^\n]*)?\n\+\+\+ (?:b\/)?([^\t\n]+))(?:\t[^\n]*)?(?=\n)/g;

/**
 * The sections of a unified diff (`git diff`, `diff -u`) that change a secret file: everything
 * after the file's header up to the next file's header, replaced whole.
 */
export function scanSecretFileDiffs(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  const headers: Array<{ start: number; end: number; secret: boolean }> = [];
  DIFF_HEADER.lastIndex = 0;
  for (let m = DIFF_HEADER.exec(text); m !== null; m = DIFF_HEADER.exec(text)) {
    const names = [m[1], m[2], m[3], m[4]].filter((n): n is string => n !== undefined);
    const start = m.index + (text[m.index] === '\n' ? 1 : 0);
    // `--- a/X` right after a `diff --git` header is part of that header's section.
    const previous = headers.at(-1);
    if (m[3] !== undefined && previous && text.slice(previous.end, start).split('\n').length <= 6) {
      previous.secret ||= names.some((n) => secretFileName(n) !== null);
      continue;
    }
    headers.push({
      start,
      end: m.index + m[0].length,
      secret: names.some((n) => n !== '/dev/null' && secretFileName(n) !== null),
    });
  }
  headers.forEach((h, i) => {
    if (!h.secret) return;
    // A section ends at the next header, or where the string does (strings joined by NUL).
    const nul = text.indexOf('\0', h.end);
    const end = Math.min(headers[i + 1]?.start ?? text.length, nul === -1 ? text.length : nul);
    // The body starts on the line after the header; what is left is the header (its name).
    const from = h.end + 1;
    const to = text[end - 1] === '\n' ? end - 1 : end;
    if (to > from) findings.push({ rule: 'secret-file', start: from, end: to, priority: SPECIFIC });
  });
  return findings;
}
