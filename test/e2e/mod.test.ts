/**
 * Claude Code mods (an in-process "hooks module" in a plugin) under the real CLI (pinned
 * 2.1.330), offline against the mock Messages API: what loads, what a handler sees, what a
 * failing handler does. The facts these tests pin down are in docs/claude-code.md, "Mods".
 *
 *   node scripts/build.mjs && node scripts/test.mjs test/e2e/mod
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import {
  claudeInstallProblem,
  createScratch,
  describeRun,
  E2E_SKIP,
  runClaude,
  type Scratch,
} from './claude.ts';
import { startMockApi } from './mock-api.ts';
import { BIN } from '../helpers/cli.ts';

const skip = E2E_SKIP || claudeInstallProblem() || false;

/** A plugin whose hooks module is `register` (the body of `export function register(on)`). */
function writeModPlugin(scratch: Scratch, name: string, register: string): string {
  const dir = join(scratch.root, `${name}-plugin`);
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name }));
  writeFileSync(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.js'] }));
  writeFileSync(join(dir, 'hooks', 'register.js'), register);
  return dir;
}

/** Runs one prompt with the plugin loaded and --debug; returns the run and its debug log. */
async function runWithPlugin(
  t: TestContext,
  scratch: Scratch,
  plugin: string,
  extraArgs: string[] = [],
) {
  const mock = await startMockApi({
    steps: [],
    final: { content: [{ type: 'text', text: 'Done.' }] },
  });
  t.after(async () => {
    await mock.close();
    scratch.cleanup();
  });
  const run = await runClaude({
    scratch,
    mock,
    prompt: 'Say done.',
    args: ['--plugin-dir', plugin, '--debug', ...extraArgs],
  });
  const debugDir = join(scratch.home, '.claude', 'debug');
  const debug = readdirSync(debugDir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => readFileSync(join(debugDir, f), 'utf8'))
    .join('\n');
  return { run, debug };
}

describe('Claude Code mods under the real CLI', { skip }, () => {
  test('a mod loads offline from --plugin-dir, sees each turn with its usage, and a throwing handler leaves the session working', async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'probe',
      `export function register(on) {
  on("turn.complete", async ($, e, next) => {
    console.error("PROBE turn.complete " + Object.keys(e).sort().join(",") + " usage:" + Object.keys(e.usage ?? {}).sort().join(","));
    return next(e);
  });
  on("turn.start", async ($, e, next) => {
    throw new Error("PROBE failure inside a mod");
  });
}
`,
    );
    const { run, debug } = await runWithPlugin(t, scratch, plugin);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /hooks module probe@inline loaded \(worker, environment \d+, tier user\); events: turn\.complete,turn\.start/,
    );
    assert.match(
      debug,
      /PROBE turn\.complete answer,durationMs,isAborted,reason,turnId,usage usage:cache_creation_input_tokens,cache_read_input_tokens,input_tokens,model,output_tokens/,
    );
    assert.match(debug, /probe: turn\.start hook skipped: threw Error: PROBE failure inside a mod/);
    assert.ok(
      run.events.some((e) => (e as { type?: string }).type === 'result'),
      'the turn finished',
    );
  });

  test('a hooks module may import only its own files and "claude-code": node:fs is refused', async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'withfs',
      `import { appendFileSync } from "node:fs";
export function register(on) {
  on("turn.complete", async ($, e, next) => next(e));
}
`,
    );
    const { run, debug } = await runWithPlugin(t, scratch, plugin);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /withfs: hooks module did not load: cannot import "node:fs" \(from hooks\/register\.js\): a hooks module imports its own files by relative path and "claude-code", nothing else/,
    );
  });

  test("a mod reaches shim's MCP server ($.mcp.call) and pins a status line ($.ui.status)", async (t) => {
    const scratch = createScratch('shim-e2e-mod-');
    const plugin = writeModPlugin(
      scratch,
      'bridge',
      `export function register(on) {
  on("turn.complete", async ($, e, next) => {
    const answer = await $.mcp.call("shim", "shim_get_crash_risk", {});
    const text = answer.content.map((block) => block.text ?? "").join("");
    await $.ui.status("shim: " + JSON.parse(text).riskLevel);
    return next(e);
  });
}
`,
    );
    const config = join(scratch.root, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          shim: {
            command: process.execPath,
            args: [BIN, 'mcp'],
            env: { SHIM_HOME: join(scratch.home, '.shim') },
          },
        },
      }),
    );
    const { run, debug } = await runWithPlugin(t, scratch, plugin, ['--mcp-config', config]);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.match(
      debug,
      /\$\.mcp\.call \(bridge\): mcp__shim__shim_get_crash_risk answered in \d+ms/,
    );
    assert.match(debug, /\$\.ui\.status \(bridge\): shim: safe/);
  });
});
