#!/usr/bin/env node
// The `shim` launcher. Hooks and the statusline run as fresh processes on every tool call and
// every render: they load one CommonJS bundle each, with no ES-module loader and no CLI parser.
'use strict';
const [command, ...rest] = process.argv.slice(2);
const HELP = {
  hook: `Usage: shim hook [--agent <claude|codex>] <Event>

Runs one hook event of an agent (Claude Code's without --agent); the payload comes on stdin as
JSON. The agent runs this itself once \`shim install\` has wired it: Claude Code (SessionStart,
UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, PreCompact, PostCompact, Stop,
SessionEnd, PostModelSwitch), Codex CLI with --agent codex (SessionStart, UserPromptSubmit,
PreToolUse, PostToolUse, PreCompact, PostCompact, Stop). Gemini CLI's hooks are
\`shim gemini-hook\`. It never blocks or breaks the agent: problems go to
$SHIM_HOME/logs/shim.log and it exits 0.

Try it in a throwaway SHIM_HOME (nothing of your real sessions is read or changed; given a
real transcript, the warm process it starts there leaves by itself after 10 idle minutes):
  echo '{"session_id":"try-it","transcript_path":"/path/to/session.jsonl"}' | SHIM_HOME="$(mktemp -d)" shim hook PostToolUse
`,
  'gemini-hook': `Usage: shim gemini-hook <Event>

Runs one Gemini CLI hook event; the payload comes on stdin as JSON. Gemini CLI runs this itself
once \`shim install --agent gemini\` has wired it into ~/.gemini/settings.json (SessionStart,
BeforeAgent, BeforeTool, AfterTool, PreCompress, AfterAgent, SessionEnd; and BeforeModel, which
gives back the < and > Gemini CLI escapes in shim's restore). It never blocks or breaks the
agent: problems go to $SHIM_HOME/logs/shim.log and it exits 0.
`,
  statusline: `Usage: shim statusline [--wrap-command '<your statusline command>']

Prints shim's statusline from Claude Code's statusline JSON on stdin:
  [CTX ████████░░ 82% L2] [risk: warning] [~6 turns to compact] [ckpt 3m ago]
With --wrap-command, your own statusline command runs too and shim's line follows it.
\`shim install\` sets this up in Claude Code's settings.
`,
};
if (
  (command === 'hook' || command === 'statusline' || command === 'gemini-hook') &&
  rest.some((a) => a === '--help' || a === '-h')
) {
  process.stdout.write(HELP[command]);
} else if (command === 'hook' && rest[0] === '--agent' && rest[2] === 'PostToolUse') {
  // After every tool call of another agent: as for Claude Code's below, the warm process first.
  require('../dist/hook-ask.cjs').main(rest[2], loadBundle, rest[1]);
} else if (command === 'gemini-hook' && rest[0] === 'BeforeModel') {
  // Before every model request: gives back what the CLI escaped in shim's restore, nothing else.
  loadBundle('gemini-before-model.cjs').main();
} else if (command === 'gemini-hook' && rest[0] === 'AfterTool') {
  require('../dist/hook-ask.cjs').main(rest[0], loadBundle, 'gemini');
} else if (command === 'hook' && rest[0] === '--agent') {
  // Another agent's hooks (`shim hook --agent codex <Event>`): the full hook, speaking that agent's
  // protocol; its log reader loads from the agent's own bundle.
  loadBundle('hook.cjs').main(rest[2], loadBundle, rest[1]);
} else if (command === 'hook' && (rest[0] === 'PostToolUse' || rest[0] === 'PostToolUseFailure')) {
  // After every tool call: asked of the warm process first (a tiny bundle, required as it is);
  // where none answers, most calls need no look at the session, answered from a small bundle
  // that hands the rest to the full hook.
  require('../dist/hook-ask.cjs').main(rest[0], loadBundle);
} else if (command === 'gemini-hook' && !rest.some((a) => a === '--help' || a === '-h')) {
  // Gemini CLI's hooks (the command its settings were installed with): the same runner, its agent.
  loadBundle('hook.cjs').main(rest[0], loadBundle, 'gemini');
} else if (command === 'hook') {
  // The hooks' heavy half (checkpoints, restores) loads through the same cache.
  loadBundle('hook.cjs').main(rest[0], loadBundle);
} else if (command === 'background' && rest[0] === 'warm-look') {
  // The process the hooks hand PostToolUse's full look to: the look's own bundle, kept warm.
  loadBundle('hook.cjs').runWarmLook(loadBundle);
} else if (command === 'background') {
  // Jobs the hooks start detached (a checkpoint, the risky commands' promised ones): the heavy
  // half through the code cache, not the ES-module CLI.
  loadBundle('hook-heavy.cjs').runBackgroundJob(rest, loadBundle);
} else if (command === 'team' && rest[0] === 'pull' && rest[1] === '--quiet' && rest.length === 2) {
  // The pull a starting session waits for (app/team/pull-at-start.ts): every millisecond counts
  // against its 1.5 s, so its own bundle through the code cache, not the ES-module CLI.
  loadBundle('team-pull.cjs').main();
} else if (command === 'statusline') {
  loadBundle('statusline.cjs').main(rest, loadBundle);
} else if (command === 'status') {
  // The command people run to look at a session: its plain forms from a small bundle of their
  // own; help and mistakes from the full CLI.
  loadBundle('status.cjs')
    .main(rest, loadBundle)
    .then((handled) => handled || runCommands());
} else {
  runCommands();
}

/**
 * Every other command: the CLI as one CommonJS bundle through the code cache (Node's ES-module
 * loader cost every command more than its work). A Node that cannot require() an ES module
 * (before 20.19; the trackers' clients are ES modules only) runs the same commands as dist/cli.js.
 */
function runCommands() {
  if (process.features.require_module) return loadBundle('commands.cjs').main();
  return import('../dist/cli.js');
}

/**
 * Loads a per-call bundle with V8's code cache (SHIM_HOME/cache/v8): compiling the bundle and the
 * functions a call runs costs every hook process a few milliseconds, and Node 20 has no compile
 * cache of its own. The cache is keyed by the bundle's size, mtime, Node version and arch, written
 * once after a call that had none (at exit, with the functions that call compiled), never through
 * a symbolic link; anything unusable falls back to a plain require.
 */
function loadBundle(name) {
  const path = require('node:path');
  const file = path.join(__dirname, '..', 'dist', name);
  try {
    const fs = require('node:fs');
    const vm = require('node:vm');
    const Module = require('node:module');
    const configured = (process.env.SHIM_HOME || '').trim();
    const home = configured
      ? path.resolve(configured)
      : path.join(require('node:os').homedir(), '.shim');
    const dir = path.join(home, 'cache', 'v8');
    const stat = fs.statSync(file);
    // V8 refuses a cache made under other flags: they are part of the key, so no two setups
    // keep overwriting each other's.
    const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS || ''}`;
    let hash = 0;
    for (let i = 0; i < flags.length; i++) hash = (Math.imul(hash, 31) + flags.charCodeAt(i)) | 0;
    const key = `${name}-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}-${process.arch}-${(hash >>> 0).toString(36)}`;
    const cachePath = path.join(dir, `${key}.bin`);
    let cached;
    try {
      if (!fs.lstatSync(cachePath).isSymbolicLink()) cached = fs.readFileSync(cachePath);
    } catch {
      // no cache yet
    }
    const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
      filename: file,
      cachedData: cached,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const bundle = new Module(file, module);
    bundle.filename = file;
    bundle.paths = Module._nodeModulePaths(path.dirname(file));
    script
      .runInThisContext()
      .call(
        bundle.exports,
        bundle.exports,
        bundleRequire(Module.createRequire(file)),
        bundle,
        file,
        path.dirname(file),
      );
    bundle.loaded = true;
    if (!cached || script.cachedDataRejected) {
      process.once('exit', () => saveCodeCache(fs, path, dir, name, cachePath, script));
    }
    return bundle.exports;
  } catch {
    return require(file);
  }
}

/**
 * A bundle's `require`, which serves its sibling bundles (`require('./redact.cjs')`) through
 * {@link loadBundle} once per process: the code cache, not a compile.
 */
const siblings = new Map();
function bundleRequire(requireHere) {
  const own = (id) => {
    if (!/^\.\/[a-z-]+\.cjs$/.test(id)) return requireHere(id);
    if (!siblings.has(id)) siblings.set(id, loadBundle(id.slice(2)));
    return siblings.get(id);
  };
  return Object.assign(own, requireHere);
}

function saveCodeCache(fs, path, dir, name, cachePath, script) {
  try {
    // Only into a SHIM_HOME the call itself made usable, one level at a time: a recursive mkdir
    // under an unusable place (/proc/…) can spin forever.
    const cache = path.dirname(dir);
    const home = path.dirname(cache);
    if (!fs.lstatSync(home).isDirectory()) return;
    for (const level of [cache, dir]) {
      try {
        fs.mkdirSync(level, { mode: 0o700 });
      } catch (error) {
        if (error.code !== 'EEXIST') return;
      }
      if (!fs.lstatSync(level).isDirectory()) return; // a symbolic link or a file: not ours
    }
    // Caches of earlier builds of this bundle go (other flags' caches of this build stay).
    const build = path.basename(cachePath).replace(/-[a-z0-9]+\.bin$/, '-');
    for (const old of fs.readdirSync(dir)) {
      if (old.startsWith(`${name}-`) && !old.startsWith(build))
        fs.rmSync(path.join(dir, old), { force: true });
    }
    const temp = `${cachePath}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, script.createCachedData(), { flag: 'wx', mode: 0o600 });
      fs.renameSync(temp, cachePath);
    } catch (error) {
      // A write cut short (a full disk) leaves no part behind: it would hold space the
      // checkpoints need, and every later call would add another.
      fs.rmSync(temp, { force: true });
      throw error;
    }
  } catch {
    // a cache is an optimisation: without it the next call compiles again
  }
}
