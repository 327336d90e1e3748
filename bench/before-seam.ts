/**
 * Issue 27 asks that Claude Code lose no speed behind the agent seam: the hook and statusline
 * measured here beside the same calls of the commit before the seam, built from the repository's
 * history into a temporary directory (its own build script, this checkout's node_modules),
 * interleaved with `node -e ''` and each other in one run. Skipped with a line where the history
 * is not there (a shallow clone).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { cpuNode, median, timeNode } from './child-time.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
/** The parent of 93cda88 ("The agent seam: src/agents/agent.ts …"). */
const BEFORE_SEAM = '82f8d1e';

/** The commit before the seam, built; null (and why) when it cannot be. */
function buildBeforeSeam(dir: string): { bin: string } | { why: string } {
  const archive = spawnSync('git', ['archive', '--format=tar', BEFORE_SEAM], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0) return { why: `git archive ${BEFORE_SEAM}: ${archive.stderr}` };
  const tree = join(dir, 'before-seam');
  mkdirSync(tree);
  const untar = spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout });
  if (untar.status !== 0) return { why: `tar: ${untar.stderr}` };
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: tree });
  if (build.status !== 0) return { why: `its build failed: ${build.stderr}` };
  return { bin: join(tree, 'bin', 'shim.cjs') };
}

export function runBeforeSeamBench(
  report: Report,
  results: Record<string, unknown>,
  transcript: string,
  appendLines: string[],
): void {
  const dir = makeTempDir('shim-bench-seam-');
  const built = buildBeforeSeam(dir);
  if ('why' in built) {
    report('before/after the agent seam', 'skipped', built.why.split('\n')[0]!);
    return;
  }
  const sessionId =
    (
      JSON.parse(readFileSync(transcript, 'utf8').slice(0, 4096).split('\n')[0]!) as {
        sessionId?: string;
      }
    ).sessionId ?? 'bench';
  const envFor = (name: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, SHIM_HOME: join(dir, name), HOME: dir };
    delete env.NODE_EXTRA_CA_CERTS;
    return env;
  };
  const now = envFor('after');
  const then = envFor('before');
  const hookInput = JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: '/x' },
    tool_response: {},
  });
  const statusInput = JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: dir,
    model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    workspace: { current_dir: dir, project_dir: dir },
    version: '2.1.39',
  });
  const hook = (bin: string) => [bin, 'hook', 'PostToolUse'];
  const statusline = (bin: string) => [bin, 'statusline'];
  // Warm each side's cursor cache and code cache, as a session's earlier calls would have.
  for (const [bin, env] of [
    [BIN, now],
    [built.bin, then],
  ] as const) {
    timeNode(hook(bin), hookInput, env);
    timeNode(statusline(bin), statusInput, env);
  }
  type Samples = Record<'node' | 'hookBefore' | 'hookAfter' | 'lineBefore' | 'lineAfter', number[]>;
  /**
   * 20 rounds of the five calls, a new response appended before each; `measure` returns null
   * when it cannot measure here (then nothing is taken).
   */
  const interleave = (
    label: string,
    measure: (args: string[], input: string, env: NodeJS.ProcessEnv) => number | null,
  ): Samples => {
    const out: Samples = { node: [], hookBefore: [], hookAfter: [], lineBefore: [], lineAfter: [] };
    for (let i = 0; i < 20; i++) {
      const tag = `${label}${i}_`;
      appendFileSync(
        transcript,
        appendLines
          .map((l) => l.replaceAll('"msg_', `"msg_${tag}`).replaceAll('"toolu_', `"toolu_${tag}`))
          .join('\n') + '\n',
      );
      const bare = measure(['-e', ''], '', now);
      if (bare === null) return out;
      out.node.push(bare);
      // Which side goes first alternates, so neither gains from the other's page cache.
      const sides = [
        () => out.hookAfter.push(measure(hook(BIN), hookInput, now) ?? NaN),
        () => out.hookBefore.push(measure(hook(built.bin), hookInput, then) ?? NaN),
      ];
      for (const side of i % 2 === 0 ? sides : sides.reverse()) side();
      out.lineAfter.push(measure(statusline(BIN), statusInput, now) ?? NaN);
      out.lineBefore.push(measure(statusline(built.bin), statusInput, then) ?? NaN);
    }
    return out;
  };
  const wall = interleave('seam', timeNode);
  // The same calls in CPU time: what each build costs, whatever the load.
  const cpu = interleave('seamcpu', cpuNode);
  const { node, hookBefore, hookAfter, lineBefore, lineAfter } = wall;
  const base = median(node);
  const ratio = (xs: number[]) => `${(median(xs) / base).toFixed(2)}×`;
  report(`agent seam: node -e '' (same run)`, `${base.toFixed(1)} ms`, 'baseline');
  report(
    '  PostToolUse, before → after the seam',
    `${ratio(hookBefore)} → ${ratio(hookAfter)}`,
    `${median(hookBefore).toFixed(1)} → ${median(hookAfter).toFixed(1)} ms; ${BEFORE_SEAM} built from history`,
  );
  report(
    '  statusline, before → after the seam',
    `${ratio(lineBefore)} → ${ratio(lineAfter)}`,
    `${median(lineBefore).toFixed(1)} → ${median(lineAfter).toFixed(1)} ms`,
  );
  if (cpu.node.length > 0) {
    const cpuBase = median(cpu.node);
    const cpuRatio = (xs: number[]) => `${(median(xs) / cpuBase).toFixed(2)}×`;
    report(
      '  CPU time (perf): PostToolUse',
      `${cpuRatio(cpu.hookBefore)} → ${cpuRatio(cpu.hookAfter)}`,
      `${median(cpu.hookBefore).toFixed(1)} → ${median(cpu.hookAfter).toFixed(1)} ms; node -e '' ${cpuBase.toFixed(1)} ms`,
    );
    report(
      '  CPU time (perf): statusline',
      `${cpuRatio(cpu.lineBefore)} → ${cpuRatio(cpu.lineAfter)}`,
      `${median(cpu.lineBefore).toFixed(1)} → ${median(cpu.lineAfter).toFixed(1)} ms`,
    );
  } else report('  CPU time (perf)', 'skipped', 'perf stat is not installed or not permitted here');
  results.agentSeam = {
    nodeMs: base,
    hookBeforeMs: median(hookBefore),
    hookAfterMs: median(hookAfter),
    statuslineBeforeMs: median(lineBefore),
    statuslineAfterMs: median(lineAfter),
    ...(cpu.node.length > 0
      ? {
          cpuNodeMs: median(cpu.node),
          cpuHookBeforeMs: median(cpu.hookBefore),
          cpuHookAfterMs: median(cpu.hookAfter),
          cpuStatuslineBeforeMs: median(cpu.lineBefore),
          cpuStatuslineAfterMs: median(cpu.lineAfter),
        }
      : {}),
  };
}
