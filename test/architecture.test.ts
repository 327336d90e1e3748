/**
 * docs/ARCHITECTURE.md's rules, checked on the whole source as a reader would grep it (issue 39's
 * must-show): no import of an agent's folder outside `src/agents/` and `src/entries/`, no
 * comparison with an agent's id outside `src/agents/`, imports pointing down the layers only (the
 * layers are ESLint's: `eslint.config.js` LAYERS), no circle of imports, folders of at most 30
 * source files and no source file over 450 lines, and above `store/` the local store's SQLite side
 * named only by the files that open the store (the rest asks `store/ports/`). ESLint refuses most of these file by file;
 * this holds the tree to them, type-only and on-demand imports included, and says what it found.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, test } from 'node:test';
import { AGENT_IDS } from '../src/core/agent-id.ts';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const MAX_FOLDER_FILES = 30;
const MAX_FILE_LINES = 450;

/** A source file: `rel` from the repository's root, `code` without comments. */
type SourceFile = { rel: string; code: string; lines: number };

function isSource(name: string): boolean {
  return /\.tsx?$/.test(name) && !/\.(?:test|test-helper|d)\.ts$/.test(name);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (isSource(name)) out.push(path);
  }
  return out;
}

/** The code without its comments (a comment may name a path or an id without using it). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line.replace(/\s\/\/\s.*$/, '')))
    .join('\n');
}

function sourceFile(rel: string, text: string): SourceFile {
  return {
    rel,
    code: withoutComments(text),
    lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
  };
}

/** Every module of the repository a file imports: static, type-only, re-exported, on demand. */
function importsOf(file: SourceFile): string[] {
  const specifiers = [
    ...file.code.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    ),
    ...file.code.matchAll(/(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g),
    ...file.code.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  const from = dirname(join(ROOT, file.rel));
  return [...new Set(specifiers.map((s) => relative(ROOT, resolve(from, s)).split(sep).join('/')))];
}

/** `src/<layer>/…` → the layer; null outside src/. */
function layerOf(rel: string): string | null {
  const [top, layer] = rel.split('/');
  return top === 'src' && layer !== undefined ? layer : null;
}

function agentFolderImports(files: SourceFile[]): string[] {
  const agentFolder = new RegExp(`^src/agents/(?:${AGENT_IDS.join('|')})/`);
  return files
    .filter((f) => !/^src\/(?:agents|entries)\//.test(f.rel))
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => agentFolder.test(target))
        .map((target) => `${f.rel} imports ${target}`),
    );
}

function crossAgentImports(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.rel.startsWith('src/agents/'))
    .flatMap((f) => {
      const own = /^src\/agents\/([^/]+)\//.exec(f.rel)?.[1] ?? null;
      return importsOf(f)
        .filter((target) => {
          const agent = /^src\/agents\/([^/]+)\//.exec(target)?.[1];
          if (agent === undefined || agent === own) return false;
          // A shared module (src/agents/*.ts) may take an agent's adapter, nothing else of it.
          return own !== null || !target.endsWith('/adapter.ts');
        })
        .map((target) => `${f.rel} imports ${target}`);
    });
}

function agentIdComparisons(files: SourceFile[]): string[] {
  const id = `['"\`](?:${AGENT_IDS.join('|')})['"\`]`;
  const comparison = new RegExp(
    [
      `[!=]==?\\s*${id}`,
      `${id}\\s*[!=]==?`,
      `\\bcase\\s+${id}\\s*:`,
      `\\.(?:includes|indexOf|has)\\(\\s*${id}\\s*\\)`,
    ].join('|'),
  );
  return files
    .filter((f) => !f.rel.startsWith('src/agents/'))
    .flatMap((f) =>
      f.code
        .split('\n')
        .flatMap((line, i) => (comparison.test(line) ? [`${f.rel}:${i + 1}: ${line.trim()}`] : [])),
    );
}

function upwardImports(files: SourceFile[], layers: string[][]): string[] {
  const rank = new Map(layers.flatMap((names, i) => names.map((name) => [name, i] as const)));
  return files.flatMap((f) => {
    const from = layerOf(f.rel);
    if (from === null) return [];
    return importsOf(f).flatMap((target) => {
      const to = layerOf(target);
      if (to === null || to === from) return [];
      return (rank.get(to) ?? Infinity) >= (rank.get(from) ?? -1)
        ? [`${f.rel} (${from}) imports ${target} (${to})`]
        : [];
    });
  });
}

/** Tarjan's strongly connected components: each of two or more files is a circle. */
function circles(files: SourceFile[]): string[][] {
  const graph = new Map(files.map((f) => [f.rel, importsOf(f)]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The files that open the local store: the only ones above store/ that name its SQLite side. */
const STORE_OPENERS = new Set(['src/app/open-store.ts', 'src/app/open-command-store.ts']);

/**
 * The local store's SQLite side: `src/store/sqlite/` and every store module that reaches into it
 * (repositories, queries, row mappings). The team store's dialect (`store/postgres/`) and the
 * ports (`store/ports/`) are not of it.
 */
function sqliteSide(files: SourceFile[]): Set<string> {
  return new Set(
    files
      .filter((f) => /^src\/store\/(?!ports\/|postgres\/)/.test(f.rel))
      .filter(
        (f) =>
          f.rel.startsWith('src/store/sqlite/') ||
          importsOf(f).some((target) => target.startsWith('src/store/sqlite/')),
      )
      .map((f) => f.rel),
  );
}

/** Imports of the SQLite side from the ports or from above store/, but by the files that open the store. */
function storeSideImports(files: SourceFile[]): string[] {
  const side = sqliteSide(files);
  return files
    .filter((f) => !/^src\/store\/(?!ports\/)/.test(f.rel) && !STORE_OPENERS.has(f.rel))
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => side.has(target))
        .map((target) => `${f.rel} imports ${target}`),
    );
}

function crowdedFolders(files: SourceFile[]): string[] {
  const perFolder = new Map<string, number>();
  for (const f of files) perFolder.set(dirname(f.rel), (perFolder.get(dirname(f.rel)) ?? 0) + 1);
  return [...perFolder]
    .filter(([, n]) => n > MAX_FOLDER_FILES)
    .map(([folder, n]) => `${folder}: ${n} source files`);
}

function longFiles(files: SourceFile[]): string[] {
  return files.filter((f) => f.lines > MAX_FILE_LINES).map((f) => `${f.rel}: ${f.lines} lines`);
}

let files: SourceFile[] = [];
let layers: string[][] = [];

before(async () => {
  files = walk(SRC).map((path) =>
    sourceFile(relative(ROOT, path).split(sep).join('/'), readFileSync(path, 'utf8')),
  );
  // A plain-JS config: imported by its URL, so the type checker does not ask for its types.
  const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as {
    LAYERS: string[][];
  };
  layers = config.LAYERS;
});

test("the whole source is read, and each of its folders is one of ESLint's layers", () => {
  assert.ok(files.length > 300, `${files.length} source files`);
  const known = new Set(layers.flat());
  const unknown = [...new Set(files.map((f) => layerOf(f.rel)))].filter((l) => !known.has(l!));
  assert.deepEqual(unknown, [], 'a folder of src/ that no layer in eslint.config.js names');
});

test("no import of an agent's folder outside src/agents/ and src/entries/", () => {
  assert.deepEqual(agentFolderImports(files), []);
});

test("no agent's folder imports another's; src/agents' shared modules reach one through its adapter.ts", () => {
  assert.deepEqual(crossAgentImports(files), []);
});

test("no comparison with an agent's id outside src/agents/ (ask the agent's fields and capabilities)", () => {
  assert.deepEqual(agentIdComparisons(files), []);
});

test('imports point down the layers, never between two layers of one rank', () => {
  assert.deepEqual(upwardImports(files, layers), []);
});

test('no circle of imports, type-only and on-demand imports included', () => {
  assert.deepEqual(circles(files), []);
});

test('above store/, only the files that open the store name its SQLite side (the rest asks the ports, which name none of it)', () => {
  assert.deepEqual(storeSideImports(files), []);
});

test(`folders of at most ${MAX_FOLDER_FILES} source files, no source file over ${MAX_FILE_LINES} lines`, () => {
  assert.deepEqual(crowdedFolders(files), []);
  assert.deepEqual(longFiles(files), []);
});

test('each check finds what it looks for (planted files)', () => {
  const planted = [
    sourceFile(
      'src/app/planted.ts',
      [
        "/** A comment naming `../agents/gemini/agent.ts` and === 'codex' is no use of them. */",
        "// import { x } from '../agents/codex/agent.ts';",
        'import type {',
        '  Claude,',
        "} from '../agents/claude/agent.ts';",
        "export { y } from './planted-too.ts';",
        "const cli = await import('../cli/main.ts');",
        "export function paths() { return ['../cli/not-an-import.ts']; }",
        "if (agent.id === 'gemini') run();",
        "switch (id) { case 'codex': break; }",
      ].join('\n'),
    ),
    sourceFile('src/app/planted-too.ts', "import { z } from './planted.ts';\n"),
    sourceFile('src/agents/codex/planted.ts', "import { g } from '../gemini/chat-fold.ts';\n"),
    sourceFile('src/agents/planted.ts', "import { c } from './claude/agent.ts';\n"),
    sourceFile('src/app/crowded/long.ts', 'x\n'.repeat(MAX_FILE_LINES + 1)),
    ...Array.from({ length: MAX_FOLDER_FILES }, (_, i) =>
      sourceFile(`src/app/crowded/f${i}.ts`, ''),
    ),
  ];
  assert.deepEqual(agentFolderImports(planted), [
    'src/app/planted.ts imports src/agents/claude/agent.ts',
  ]);
  assert.deepEqual(crossAgentImports(planted), [
    'src/agents/codex/planted.ts imports src/agents/gemini/chat-fold.ts',
    'src/agents/planted.ts imports src/agents/claude/agent.ts',
  ]);
  assert.equal(agentIdComparisons(planted).length, 2, agentIdComparisons(planted).join('\n'));
  assert.deepEqual(upwardImports(planted, [['app'], ['agents'], ['cli']]), [
    'src/app/planted.ts (app) imports src/agents/claude/agent.ts (agents)',
    'src/app/planted.ts (app) imports src/cli/main.ts (cli)',
  ]);
  assert.deepEqual(circles(planted), [['src/app/planted-too.ts', 'src/app/planted.ts']]);
  assert.deepEqual(crowdedFolders(planted), ['src/app/crowded: 31 source files']);
  assert.deepEqual(longFiles(planted), [`src/app/crowded/long.ts: ${MAX_FILE_LINES + 1} lines`]);
});

test('the SQLite side is found through what it imports, and only its openers may name it (planted files)', () => {
  const planted = [
    sourceFile('src/store/sqlite/planted-db.ts', ''),
    sourceFile(
      'src/store/checkpoints/planted-repo.ts',
      "import { d } from '../sqlite/planted-db.ts';\n",
    ),
    sourceFile('src/store/ports/planted-port.ts', ''),
    sourceFile(
      'src/store/ports/planted-leak.ts',
      "import type { Db } from '../sqlite/planted-db.ts';\n",
    ),
    sourceFile(
      'src/hook/planted-hook.ts',
      [
        "import type { Repo } from '../store/checkpoints/planted-repo.ts';",
        "import type { Port } from '../store/ports/planted-port.ts';",
      ].join('\n'),
    ),
    sourceFile(
      'src/app/open-store.ts',
      "import { Repo } from '../store/checkpoints/planted-repo.ts';\n",
    ),
  ];
  assert.deepEqual(storeSideImports(planted), [
    'src/store/ports/planted-leak.ts imports src/store/sqlite/planted-db.ts',
    'src/hook/planted-hook.ts imports src/store/checkpoints/planted-repo.ts',
  ]);
});
