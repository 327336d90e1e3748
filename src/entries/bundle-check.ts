/**
 * What the per-call bundles may carry, checked against esbuild's metafile (dist/meta/*.json,
 * written by scripts/build.mjs): the packages each must never contain or import, and its size
 * budget. Keyed on the bundles and on package names, never on source paths (files move; a
 * package that lands on the path is what costs every call). docs/hot-path.md says why each rule.
 * @module
 */

/** The part of esbuild's metafile this reads. */
export type Metafile = {
  outputs: Record<
    string,
    {
      bytes: number;
      inputs: Record<string, { bytesInOutput: number }>;
      imports: Array<{ path: string; kind: string; external?: boolean }>;
    }
  >;
};

export type BundleRule = {
  /** The output's file name in dist/ (`hook-quick.cjs`). */
  bundle: string;
  /** Package names (`hono`, `@octokit/*`, `node:sqlite`) it must neither contain nor import. */
  forbidden: readonly string[];
  /** Largest size allowed, in bytes. */
  budget: number;
};

/** What nothing started per call may carry: the MCP SDK, the web server, trackers, databases. */
export const NEVER_PER_CALL = [
  '@modelcontextprotocol/sdk',
  'hono',
  '@hono/*',
  '@octokit/*',
  '@linear/sdk',
  'pg',
  'pg-*',
  'kysely',
  '@electric-sql/pglite',
  'commander',
  '@commander-js/*',
  'playwright-core',
  'uplot',
] as const;
export const SQLITE = ['@photostructure/sqlite', 'node:sqlite', 'better-sqlite3'] as const;

const KB = 1024;

export const BUNDLE_RULES: readonly BundleRule[] = [
  // First after every tool call: hands the payload to the warm look. Required without the code
  // cache, so nothing but the pipes' protocol: no config schema, no shim bundle of substance.
  {
    bundle: 'hook-ask.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*', 'zod'],
    budget: 8 * KB,
  },
  // After every tool call and every render: the quiet paths. zod stays reachable (lazily) for a
  // config file whose text changed since it was last found valid (store/config/config-checked.ts).
  {
    bundle: 'hook-quick.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*'],
    // 36 → 38: a shell command's end taken out of its session's started calls while shim's mod
    // watches (hook/shell-calls.ts; issue 40, measured in the bench). 38 → 39: no warm look
    // started for a call whose transcript is not a file (hook/quick-run.ts; a stat only then).
    // 39 → 48: Codex CLI's and Gemini CLI's after-call hooks answered here too (their payloads,
    // their logs' tail looks) and a shell command that can change no work answered unlooked
    // (check-command.ts): before, each of their calls loaded hook.cjs (issue 39, bench).
    budget: 48 * KB,
  },
  {
    bundle: 'statusline.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*'],
    // 36 → 37: the config schema it carries gained projectFiles (issue 43; measured in the bench).
    budget: 37 * KB,
  },
  // The full look (PostToolUse outside the window, the other events) and the statusline's fold;
  // the one hook runner of every agent, carrying Claude Code's whole agent value (the redactor
  // every fold runs is most of it).
  {
    bundle: 'hook.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*'],
    // 230 → 236: the fold's ring of shell commands and newest failure (issue 40); → 256: the one
    // runner of every agent carries Claude Code's whole agent value (issue 39); → 258: a shell
    // command noted for the team store and the session's command watch started (issue 40, ~1.8 KB);
    // → 259: a new session's team pull started by the runner before it loads the handler
    // (app/team/pull-at-start.ts, 1.45 KB: issue 41; the child waited for, not pg); → 260: the
    // warm look's read-ahead polls a transcript it cannot watch (no inotify instance left);
    // → 261: its write buffer is an object it owns (store/home/write-buffer.ts, ~0.7 KB; its
    // node:async_hooks loaded only by the warm look: issue 39).
    budget: 261 * KB,
  },
  {
    bundle: 'statusline-full.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*'],
    budget: 180 * KB,
  },
  // The redactor alone: a quiet bundle's log entry (store/log.ts), and the scanner status.cjs and
  // the agents' bundles require on first use. Nothing but the redactor.
  { bundle: 'redact.cjs', forbidden: [...NEVER_PER_CALL, ...SQLITE, 'zod'], budget: 80 * KB },
  // Each agent's value, loaded by a per-call bundle the first time a call meets its session.
  // Their scanner is dist/redact.cjs's since issue 37 (−44 KB each): 135 → 100 KB for Claude
  // Code (91 KB), 124 → 76 for Codex (66 KB), 120 → 70 for Gemini (59 KB).
  { bundle: 'agent-claude.cjs', forbidden: [...NEVER_PER_CALL, ...SQLITE], budget: 100 * KB },
  { bundle: 'agent-codex.cjs', forbidden: [...NEVER_PER_CALL, ...SQLITE], budget: 76 * KB },
  { bundle: 'agent-gemini.cjs', forbidden: [...NEVER_PER_CALL, ...SQLITE], budget: 70 * KB },
  // Before every model request of Gemini CLI: string work on the request, nothing else.
  {
    bundle: 'gemini-before-model.cjs',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, '@secretlint/*', 'zod'],
    budget: 8 * KB,
  },
  // 200 → 80 KB: its scanner is dist/redact.cjs's, required on first use (issue 37; 68 KB).
  { bundle: 'status.cjs', forbidden: [...NEVER_PER_CALL, '@secretlint/*'], budget: 80 * KB },
  // Every other command (src/entries/commands.ts), through the code cache: every byte of it is
  // read and its compiled functions deserialised on every command, so the long-lived and rare
  // commands' packages (the dashboard's and MCP servers, the team store's driver and query
  // builder) stay in node_modules, required when such a command first runs: the budget keeps
  // them out (with them it was 2.2 MB). No browser, no test tooling.
  // pg is dist/pg.cjs's (below), required as ./pg.cjs: never from node_modules, where its
  // Cloudflare probe loads undici.
  {
    bundle: 'commands.cjs',
    forbidden: ['playwright-core', 'uplot', '@secretlint/*', '@electric-sql/pglite', 'pg'],
    budget: 1400 * KB,
  },
  // The team store's driver for the commands (scripts/build.mjs: pg-node-streams): pg and its own
  // packages, nothing of shim's.
  {
    bundle: 'pg.cjs',
    forbidden: [...NEVER_PER_CALL.filter((p) => p !== 'pg' && p !== 'pg-*'), ...SQLITE, 'zod'],
    budget: 120 * KB,
  },
  // Checkpoints from a hook: the store is here, nothing that talks to a server.
  { bundle: 'hook-heavy.cjs', forbidden: NEVER_PER_CALL, budget: 900 * KB },
  // The pull a starting session waits for, a child of SessionStart: the team store's driver is
  // what it is for; no query builder (Kysely was 267 KB of its 605), web server, MCP, tracker or
  // CLI parser.
  {
    bundle: 'team-pull.cjs',
    forbidden: NEVER_PER_CALL.filter((p) => p !== 'pg' && p !== 'pg-*'),
    budget: 300 * KB,
  },
  // Inside Claude Code: nothing but its own code (Claude Code refuses any import).
  {
    bundle: 'shim-mod.js',
    forbidden: [...NEVER_PER_CALL, ...SQLITE, 'zod', 'node:*'],
    budget: 16 * KB,
  },
];

/** `node_modules/@scope/name/lib/x.js` → `@scope/name`; a source file → null. */
export function packageOf(input: string): string | null {
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) return null;
  const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
  if (!first) return null;
  return first.startsWith('@') && second ? `${first}/${second}` : first;
}

function matches(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** An import path's package (`@octokit/rest/dist/x` → `@octokit/rest`, `node:fs` as is). */
function importedPackage(path: string): string {
  if (path.startsWith('node:')) return path;
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? path);
}

/** Every broken rule, one line each (empty: the bundle is fine). */
export function checkBundle(meta: Metafile, rule: BundleRule): string[] {
  const key = Object.keys(meta.outputs).find(
    (k) => k === rule.bundle || k.endsWith(`/${rule.bundle}`),
  );
  if (!key) return [`${rule.bundle}: not in the metafile (was it built?)`];
  const output = meta.outputs[key]!;
  const problems: string[] = [];
  const contained = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    if (name) contained.set(name, (contained.get(name) ?? 0) + bytesInOutput);
  }
  const imported = new Set(output.imports.map((i) => importedPackage(i.path)));
  for (const pattern of rule.forbidden) {
    for (const [name, bytes] of contained)
      if (matches(name, pattern)) problems.push(`${rule.bundle} contains ${name} (${bytes} bytes)`);
    for (const name of imported)
      if (matches(name, pattern)) problems.push(`${rule.bundle} imports ${name}`);
  }
  if (output.bytes > rule.budget)
    problems.push(
      `${rule.bundle} is ${output.bytes} bytes, over its budget of ${rule.budget} bytes`,
    );
  return problems;
}
