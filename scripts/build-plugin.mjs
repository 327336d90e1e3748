// Assembles shim as a Claude Code plugin inside a local marketplace (reference claude-code.md §1.6):
//
//   node scripts/build-plugin.mjs [outDir] [--no-build] [--no-deps]
//
//   <outDir>/.claude-plugin/marketplace.json   marketplace "shim-local" with one plugin, ./shim
//   <outDir>/shim/.claude-plugin/plugin.json
//   <outDir>/shim/hooks/hooks.json             from src/agents/claude/settings/hook-spec.ts (same table
//                                              as `shim install`), commands under ${CLAUDE_PLUGIN_ROOT},
//                                              and `modules`: shim's mod, hooks/shim-mod.js
//   <outDir>/shim/.mcp.json                    only once getShimMcpEntries() returns servers
//   <outDir>/shim/bin, dist                    prebuilt: the plugin installer builds nothing
//   <outDir>/shim/package.json, package-lock.json   runtime dependencies only; Claude Code
//                                              installs them with `npm ci --ignore-scripts` into
//                                              its plugin cache
//   <outDir>/shim/node_modules                 the same `npm ci --ignore-scripts`, done here too:
//                                              Claude Code 2.1.330 runs a plugin of a local-folder
//                                              marketplace in place (CLAUDE_PLUGIN_ROOT is
//                                              <outDir>/shim, not the cache copy it installed into)
//   <outDir>/shim/README.md
//
// outDir defaults to plugin-dist/. --no-build reuses dist/ as it is (the tests: other test files
// run from dist/ meanwhile); --no-deps skips the node_modules install (the lockfile is still
// written). Both npm steps use the npm cache first and the registry for what it lacks. State
// never goes into the plugin: ${CLAUDE_PLUGIN_ROOT} changes on every update, shim keeps
// everything under SHIM_HOME (default ~/.shim).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKETPLACE = 'shim-local';
const PLUGIN = 'shim';
/** How hooks and MCP servers start shim from the installed plugin (shell form: `sh -c`). */
const PLUGIN_BIN = '${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs';
/** shim's mod, beside hooks.json (a hooks module is named relative to it). */
const MOD_FILE = 'shim-mod.js';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
for (const flag of flags) {
  if (flag !== '--no-build' && flag !== '--no-deps') {
    console.error(`build-plugin: unknown option ${flag}`);
    process.exit(2);
  }
}
const outDir = resolve(args.find((a) => !a.startsWith('--')) ?? join(ROOT, 'plugin-dist'));
const pluginDir = join(outDir, PLUGIN);

const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

if (!flags.has('--no-build')) run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], ROOT);
for (const needed of [
  'bin/shim.cjs',
  'dist/hook.cjs',
  'dist/hook-quick.cjs',
  'dist/hook-heavy.cjs',
  'dist/statusline.cjs',
  'dist/statusline-full.cjs',
  'dist/status.cjs',
  'dist/commands.cjs',
  'dist/cli.js',
  'dist/shim-mod.js',
]) {
  if (!existsSync(join(ROOT, needed))) {
    console.error(`build-plugin: ${needed} is missing; run \`node scripts/build.mjs\` first`);
    process.exit(1);
  }
}

const { SHIM_HOOKS } = await importSource('src/agents/claude/settings/hook-spec.ts');
const { getShimMcpEntries } = await importSource('src/agents/claude/settings/mcp-entries.ts');
const { slashCommandFiles } = await importSource('src/agents/claude/settings/slash-commands.ts');

// Replaces a previous build, and nothing else.
if (existsSync(outDir) && readdirSync(outDir).length > 0) {
  const previous = join(outDir, '.claude-plugin', 'marketplace.json');
  if (!existsSync(previous) || JSON.parse(readFileSync(previous, 'utf8')).name !== MARKETPLACE) {
    console.error(
      `build-plugin: ${outDir} is not empty and not a previous plugin build; not touching it`,
    );
    process.exit(1);
  }
}
rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, '.claude-plugin'), { recursive: true });
mkdirSync(join(pluginDir, '.claude-plugin'), { recursive: true });
mkdirSync(join(pluginDir, 'hooks'), { recursive: true });

writeJson(join(outDir, '.claude-plugin', 'marketplace.json'), {
  name: MARKETPLACE,
  owner: { name: 'shim' },
  metadata: { description: 'shim, built from a local checkout' },
  plugins: [
    {
      name: PLUGIN,
      source: `./${PLUGIN}`,
      description: rootPkg.description,
      version: rootPkg.version,
    },
  ],
});

writeJson(join(pluginDir, '.claude-plugin', 'plugin.json'), {
  name: PLUGIN,
  version: rootPkg.version,
  description: rootPkg.description,
  author: { name: 'shim' },
  license: rootPkg.license,
  // Shown by `claude plugin validate` only: shim talks to no host.
  network: { hosts: [] },
});

// shim's slash commands: /checkpoint (--status, --estimate) and /shard.
mkdirSync(join(pluginDir, 'commands'), { recursive: true });
for (const command of slashCommandFiles(`node "${PLUGIN_BIN}"`))
  writeFileSync(join(pluginDir, 'commands', command.name), command.text);

// shim's mod (Claude Code 2.1.287+ loads it; older versions ignore `modules`): it sees each
// response's usage in-process and reports to the plugin's MCP server. The command hooks stay for
// older versions and for what a mod cannot do; while the mod watches, PostToolUse stands aside.
cpSync(join(ROOT, 'dist', 'shim-mod.js'), join(pluginDir, 'hooks', MOD_FILE));
writeJson(join(pluginDir, 'hooks', 'hooks.json'), {
  description:
    "shim's hooks and mod: checkpoints into SHIM_HOME (default ~/.shim), restores after compaction",
  modules: [`./${MOD_FILE}`],
  hooks: Object.fromEntries(
    SHIM_HOOKS.map((spec) => [
      spec.event,
      [
        {
          ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
          hooks: [
            {
              type: 'command',
              command: `node "${PLUGIN_BIN}" hook ${spec.event}`,
              timeout: spec.timeout,
            },
          ],
        },
      ],
    ]),
  ),
});

const mcpEntries = getShimMcpEntries({ node: 'node', bin: PLUGIN_BIN });
if (Array.isArray(mcpEntries) && mcpEntries.length > 0) {
  writeJson(join(pluginDir, '.mcp.json'), {
    mcpServers: Object.fromEntries(
      mcpEntries.map(({ name, command, args: serverArgs, env }) => [
        name,
        { command, args: serverArgs, ...(env ? { env } : {}) },
      ]),
    ),
  });
}

for (const dir of ['bin', 'dist']) {
  cpSync(join(ROOT, dir), join(pluginDir, dir), { recursive: true });
}
if (existsSync(join(ROOT, 'LICENSE'))) cpSync(join(ROOT, 'LICENSE'), join(pluginDir, 'LICENSE'));

// "type": "module" because dist/cli.js is an ES module; "name" and "version" are what
// `shim --version` reads.
writeJson(join(pluginDir, 'package.json'), {
  name: rootPkg.name,
  version: rootPkg.version,
  description: rootPkg.description,
  license: rootPkg.license,
  private: true,
  type: 'module',
  engines: rootPkg.engines,
  dependencies: rootPkg.dependencies,
  // The same pins (a dependency kept on versions that run on Node 20).
  ...(rootPkg.overrides ? { overrides: rootPkg.overrides } : {}),
});

// Start from the root lockfile so the plugin gets the versions the tests ran with; npm prunes
// the dev dependencies and resolves only what the root lockfile lacks.
if (existsSync(join(ROOT, 'package-lock.json'))) {
  cpSync(join(ROOT, 'package-lock.json'), join(pluginDir, 'package-lock.json'));
}
const NPM_QUIET = ['--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'];
run(npmCommand(), ['install', '--package-lock-only', ...NPM_QUIET], pluginDir);

writeFileSync(join(pluginDir, 'README.md'), pluginReadme());

// What Claude Code runs when it caches the plugin (no lifecycle scripts: the SQLite addon loads
// its prebuilt binary through node-gyp-build at run time).
if (!flags.has('--no-deps')) {
  run(npmCommand(), ['ci', '--workspaces=false', ...NPM_QUIET], pluginDir);
}

console.log(`build-plugin: marketplace "${MARKETPLACE}" with plugin "${PLUGIN}" in ${outDir}`);

/** Imports a TypeScript source file of ours (bundled in memory by esbuild). */
async function importSource(relative) {
  const result = await build({
    entryPoints: [join(ROOT, relative)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  return import(url).catch((error) => {
    throw new Error(`build-plugin: could not load ${relative}`, { cause: error });
  });
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function npmCommand() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

function run(command, commandArgs, cwd) {
  const result = spawnSync(command, commandArgs, {
    cwd,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error(`build-plugin: \`${command} ${commandArgs.join(' ')}\` failed in ${cwd}`);
    process.exit(result.status ?? 1);
  }
}

function pluginReadme() {
  const events = SHIM_HOOKS.map((s) => `\`${s.event}\``).join(', ');
  return `# shim as a Claude Code plugin

${rootPkg.description}

This folder is a local plugin marketplace, \`${MARKETPLACE}\`, holding one plugin, \`${PLUGIN}\`
${rootPkg.version}, built from a shim checkout with \`npm run build:plugin\`. The plugin carries
shim's prebuilt code (\`bin/\`, \`dist/\`): Claude Code builds nothing when it installs a plugin.
It installs the runtime dependencies from \`package-lock.json\` with \`npm ci --ignore-scripts\`;
the SQLite module ships prebuilt binaries, so it needs no install script.

## Install

\`\`\`sh
claude plugin marketplace add <path>/plugin-dist
claude plugin install ${PLUGIN}@${MARKETPLACE}
\`\`\`

(or \`/plugin marketplace add <path>/plugin-dist\` and \`/plugin install ${PLUGIN}@${MARKETPLACE}\`
inside Claude Code). Claude Code runs the plugin of a local-folder marketplace from that folder,
so \`${PLUGIN}/node_modules\` is installed here too, and a rebuild takes effect at the next session
start (or \`/reload-plugins\`). To try it for one session only:
\`claude --plugin-dir <path>/plugin-dist/${PLUGIN}\`.

The plugin registers the same hooks, matchers and timeouts as \`shim install\` (${events}),
each running \`node "\${CLAUDE_PLUGIN_ROOT}/bin/shim.cjs" hook <Event>\`. Use either the plugin
or \`shim install\` for the hooks, not both: with both, every hook runs twice.

It also carries shim's mod (\`hooks/${MOD_FILE}\`, loaded by Claude Code 2.1.287 and later, ignored
by older versions): it sees each response's usage in-process and reports it to the plugin's MCP
server, so the PostToolUse hook has nothing left to do while it runs.

## State

All of shim's state (the checkpoint database \`shim.db\`, handoffs, caches, the log) lives under
\`SHIM_HOME\`, which defaults to \`~/.shim\`, never inside the plugin folder: Claude Code moves
that on every update. Uninstalling the plugin leaves \`~/.shim\` alone.

## Statusline

A plugin cannot set Claude Code's main statusline. Add it by hand to \`~/.claude/settings.json\`,
with the path of a shim checkout that stays put (not the plugin's cache folder, which moves on
every update):

\`\`\`json
{
  "statusLine": { "type": "command", "command": "node /path/to/shim/bin/shim.cjs statusline" }
}
\`\`\`

\`shim install\` from a checkout writes the statusline too (and keeps an existing one next to
shim's), but it also writes the hooks, which the plugin already provides.

## Notes

- Needs Node ${rootPkg.engines?.node ?? '>=20'} as \`node\` on the PATH Claude Code runs hooks with.
- Claude Code gives plugin \`SessionEnd\` hooks 1.5 s in all (plugin timeouts do not raise that
  budget, settings-file ones do); \`CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS\` raises it if the
  end-of-session checkpoint gets cut short.
`;
}
