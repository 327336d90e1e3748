/**
 * What shim's Claude Code mod costs a turn, under the real CLI (pinned, offline against the mock
 * Messages API): the same 20-step session without shim, with shim's mod (and its MCP server, no
 * command hooks), and with shim's command hooks, interleaved. Per step: the time the mod's
 * handler adds inside the turn (measured in-process, read from Claude Code's --debug log), how
 * long a report takes to reach shim off the turn, and the whole run's wall time per step.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALL_HOOK_EVENTS,
  claudeInstallProblem,
  createScratch,
  readDebugLog,
  runClaude,
  shellQuote,
  writeProjectSettings,
} from '../test/e2e/claude.ts';
import { startMockApi, type Scenario } from '../test/e2e/mock-api.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const STEPS = 20;
const ROUNDS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const scenario = (): Scenario => ({
  steps: Array.from({ length: STEPS }, (_, i) => ({
    content: [{ type: 'tool_use' as const, name: 'Bash', input: { command: `echo ${i}` } }],
    usage: { input_tokens: 500, cache_read_input_tokens: 20_000 + i * 3_000, output_tokens: 80 },
  })),
  final: { content: [{ type: 'text', text: 'Done.' }] },
});

type Mode = 'none' | 'mod' | 'hooks';

async function session(mode: Mode): Promise<{ wallMs: number; debug: string }> {
  const scratch = createScratch(`shim-bench-mod-${mode}-`);
  const mock = await startMockApi(scenario());
  try {
    const shimHome = join(scratch.home, '.shim');
    const args = ['--debug'];
    if (mode === 'mod') {
      const plugin = join(scratch.root, 'shim-plugin');
      mkdirSync(join(plugin, '.claude-plugin'), { recursive: true });
      mkdirSync(join(plugin, 'hooks'));
      writeFileSync(
        join(plugin, '.claude-plugin', 'plugin.json'),
        JSON.stringify({ name: 'shim' }),
      );
      writeFileSync(
        join(plugin, 'hooks', 'hooks.json'),
        JSON.stringify({ modules: ['./shim-mod.js'] }),
      );
      writeFileSync(
        join(plugin, 'hooks', 'shim-mod.js'),
        readFileSync(join(ROOT, 'dist', 'shim-mod.js')),
      );
      const mcp = join(scratch.root, 'mcp.json');
      writeFileSync(
        mcp,
        JSON.stringify({
          mcpServers: {
            shim: { command: process.execPath, args: [BIN, 'mcp'], env: { SHIM_HOME: shimHome } },
          },
        }),
      );
      args.push('--plugin-dir', plugin, '--mcp-config', mcp);
    } else if (mode === 'hooks') {
      const command = (event: string) =>
        `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook ${event}`;
      writeProjectSettings(scratch, {
        hooks: Object.fromEntries(
          ALL_HOOK_EVENTS.map((event) => [
            event,
            [{ matcher: '*', hooks: [{ type: 'command', command: command(event), timeout: 30 }] }],
          ]),
        ),
      });
    }
    const started = performance.now();
    const run = await runClaude({
      scratch,
      mock,
      prompt: 'Run the commands.',
      args,
      env: { NODE_EXTRA_CA_CERTS: '' },
    });
    const wallMs = performance.now() - started;
    if (run.exitCode !== 0)
      throw new Error(`claude (${mode}) exited ${run.exitCode}: ${run.stderr}`);
    return { wallMs, debug: readDebugLog(scratch) };
  } finally {
    await mock.close();
    scratch.cleanup();
  }
}

export async function runModBench(report: Report, results: Record<string, unknown>): Promise<void> {
  let problem = claudeInstallProblem();
  if (problem) {
    spawnSync(process.execPath, [join(ROOT, 'scripts', 'install-e2e-claude.mjs'), '--quiet'], {
      stdio: 'ignore',
    });
    problem = claudeInstallProblem();
  }
  if (problem) {
    report("shim's mod (real Claude Code)", 'skipped', problem);
    return;
  }
  const wall: Record<Mode, number[]> = { none: [], mod: [], hooks: [] };
  const inTurn: number[] = [];
  const reported: number[] = [];
  const hookRuns: Record<Mode, number> = { none: 0, mod: 0, hooks: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['none', 'mod', 'hooks'] as const) {
      const { wallMs, debug } = await session(mode);
      wall[mode].push(wallMs / STEPS);
      // Every command hook Claude Code ran: "Hooks: PostToolUse:Bash [<command>] … finished with status".
      hookRuns[mode] += [
        ...debug.matchAll(/Hooks: \w+\S* \[[^\]]*\] .*finished with status/g),
      ].length;
      if (mode === 'mod') {
        for (const m of debug.matchAll(
          /shim mod: step \d+: ([\d.]+) ms in the turn, reported in (\d+) ms/g,
        )) {
          inTurn.push(Number(m[1]));
          reported.push(Number(m[2]));
        }
      }
    }
  }
  if (inTurn.length === 0) throw new Error("shim's mod reported no step: see the mod e2e tests");
  const base = median(wall.none);
  report(
    "mod: added inside a turn's step (in-process)",
    `${median(inTurn).toFixed(3)} ms`,
    `${((median(inTurn) / base) * 100).toFixed(4)}% of a mock step (${base.toFixed(0)} ms); max ${Math.max(...inTurn).toFixed(3)} ms over ${inTurn.length} steps; report reaches shim in ${median(reported)} ms (off the turn)`,
  );
  report(
    'run wall time per step: no shim / mod / hooks',
    `${base.toFixed(0)} ms`,
    `mod ${median(wall.mod).toFixed(0)} ms (+${(median(wall.mod) - base).toFixed(0)}), hooks ${median(wall.hooks).toFixed(0)} ms (+${(median(wall.hooks) - base).toFixed(0)}); hook processes per run: mod ${hookRuns.mod / ROUNDS}, hooks ${hookRuns.hooks / ROUNDS}`,
  );
  results.mod = {
    inTurnMs: median(inTurn),
    inTurnMaxMs: Math.max(...inTurn),
    reportMs: median(reported),
    wallPerStepMs: { none: base, mod: median(wall.mod), hooks: median(wall.hooks) },
    hookProcessesPerRun: { mod: hookRuns.mod / ROUNDS, hooks: hookRuns.hooks / ROUNDS },
  };
}
