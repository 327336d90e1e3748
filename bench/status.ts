/**
 * `shim status` as a user runs it, beside `node -e ''` in the same run (interleaved): the
 * session's transcript where Claude Code keeps it (~/.claude/projects/<project>/<id>.jsonl),
 * shim's default SHIM_HOME (~/.shim of that HOME), run from the project's directory, with the
 * user's defaults (text output, learning from history); the answer read through a pipe, as a
 * terminal or `watch` reads it. Given by path, and by `--session <id>`. The cursor, code and
 * history caches are warm, as for anyone who looked once before.
 *
 *   node --import tsx bench/status.ts <transcript ≥ 20 MB>      (npm run bench runs it too)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cpuNode, median } from './child-time.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const RUNS = 21;

/** The session id the transcript's lines carry (its file is named by it, as Claude Code does). */
function sessionIdOf(path: string): string {
  const head = readFileSync(path, 'utf8').slice(0, 1 << 20);
  const match = /"sessionId":"([\w-]+)"/.exec(head);
  if (!match) throw new Error(`${path}: no sessionId in its first lines`);
  return match[1]!;
}

function time(args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
}

export type StatusFigures = {
  nodeMs: number;
  byPathMs: number;
  byPathRatio: number;
  bySessionMs: number;
  bySessionRatio: number;
  /** CPU (user + system) of one call each, from perf; null without perf. */
  cpu: { nodeMs: number; byPathMs: number; bySessionMs: number } | null;
};

export function runStatusBench(
  report: Report,
  results: Record<string, unknown>,
  transcript: string,
): StatusFigures {
  const root = makeTempDir('shim-bench-status-');
  try {
    const home = join(root, 'home');
    const project = join(root, 'project');
    const sessionId = sessionIdOf(transcript);
    const projectDir = join(home, '.claude', 'projects', project.replaceAll('/', '-'));
    mkdirSync(projectDir, { recursive: true });
    mkdirSync(project);
    const path = join(projectDir, `${sessionId}.jsonl`);
    copyFileSync(transcript, path);
    // The user's environment: their HOME, no SHIM_HOME (~/.shim), no test switches.
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const name of ['NODE_EXTRA_CA_CERTS', 'SHIM_HOME', 'CLAUDE_CONFIG_DIR', 'NO_COLOR'])
      delete env[name];

    const byPath = [BIN, 'status', path];
    const bySession = [BIN, 'status', '--session', sessionId];
    // Once each: the cursor, the V8 code cache and the history cache are made.
    time(byPath, project, env);
    time(bySession, project, env);
    const nodeTimes: number[] = [];
    const pathTimes: number[] = [];
    const sessionTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      nodeTimes.push(time(['-e', ''], project, env));
      pathTimes.push(time(byPath, project, env));
      sessionTimes.push(time(bySession, project, env));
    }
    const cpuOf = (args: string[]) => {
      const samples: number[] = [];
      for (let i = 0; i < 7; i++) {
        const ms = cpuNode(args, '', env);
        if (ms === null) return null;
        samples.push(ms);
      }
      return median(samples);
    };
    const cpuNodeMs = cpuOf(['-e', '']);
    const cpuPath = cpuNodeMs === null ? null : cpuOf(byPath);
    const cpuSession = cpuNodeMs === null ? null : cpuOf(bySession);

    const sizeMb = statSync(path).size / 1024 / 1024;
    const base = median(nodeTimes);
    const figures: StatusFigures = {
      nodeMs: base,
      byPathMs: median(pathTimes),
      byPathRatio: median(pathTimes) / base,
      bySessionMs: median(sessionTimes),
      bySessionRatio: median(sessionTimes) / base,
      cpu:
        cpuNodeMs !== null && cpuPath !== null && cpuSession !== null
          ? { nodeMs: cpuNodeMs, byPathMs: cpuPath, bySessionMs: cpuSession }
          : null,
    };
    const cpuNote = (ms: number | undefined) =>
      figures.cpu && ms !== undefined
        ? `; CPU ${ms.toFixed(1)} ms, ${(ms / figures.cpu.nodeMs).toFixed(2)}×`
        : '';
    report("node -e ''", `${base.toFixed(2)} ms`, `baseline${cpuNote(figures.cpu?.nodeMs)}`);
    report(
      `shim status <path> (${sizeMb.toFixed(0)} MB transcript)`,
      `${figures.byPathMs.toFixed(2)} ms`,
      `${figures.byPathRatio.toFixed(2)}× node -e '' (target ≤ 1.5×)${cpuNote(figures.cpu?.byPathMs)}`,
    );
    report(
      'shim status --session <id> (same session)',
      `${figures.bySessionMs.toFixed(2)} ms`,
      `${figures.bySessionRatio.toFixed(2)}× node -e '' (target ≤ 1.5×)${cpuNote(figures.cpu?.bySessionMs)}`,
    );
    results.status = figures;
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const transcript = process.argv[2];
  if (!transcript) {
    process.stderr.write('usage: node --import tsx bench/status.ts <transcript.jsonl>\n');
    process.exit(2);
  }
  const report: Report = (name, value, note = '') =>
    process.stdout.write(`  ${name.padEnd(46)} ${value.padStart(14)}  ${note}\n`);
  runStatusBench(report, {}, transcript);
}
