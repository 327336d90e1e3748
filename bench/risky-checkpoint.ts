/**
 * The blocking checkpoint before a risky command (`git reset --hard`): `shim hook PreToolUse`
 * as Claude Code runs it, a fresh process that saves a checkpoint and a git snapshot before the
 * command may run, on a repository of 200 files with a few uncommitted changes and a real
 * session transcript. Beside `node -e ''` in the same run (interleaved).
 *
 * The hook returns once the snapshot and the checkpoint's durable note are written; a detached
 * process builds the checkpoint meanwhile (docs/hot-path.md). Each measurement waits for that
 * process to finish before the next one starts (it would otherwise share the cores with the next
 * call), and the time until the checkpoint is in the store is reported beside.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath, makeTempDir } from '../test/helpers/fixtures.ts';
import { processesUnder } from '../test/helpers/processes.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const FILES = 200;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function git(cwd: string, args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A repository of FILES source files, committed, then three of them changed and one added. */
function makeRepository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'user.name', 'bench']);
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `src/module${i % 20}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, `file${i}.ts`),
      `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`.repeat(20),
    );
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  for (const i of [3, 57, 140])
    writeFileSync(join(dir, `src/module${i % 20}/file${i}.ts`), `// changed\n`);
  writeFileSync(join(dir, 'src/new-file.ts'), 'export const added = true;\n');
}

function time(
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { ms: number; stdout: string } {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

export function runRiskyCheckpointBench(report: Report, results: Record<string, unknown>): void {
  const root = makeTempDir('shim-bench-risky-');
  const repo = join(root, 'repo');
  makeRepository(repo);
  const sessionId = '55604662-cf2a-4331-851a-ec234028f8ca';
  const transcript = join(root, `${sessionId}.jsonl`);
  writeFileSync(
    transcript,
    readFileSync(fixturePath('spotter-short-v2.1.38.jsonl'), 'utf8').replace(
      /"cwd":"(?:[^"\\]|\\.)*"/g,
      `"cwd":${JSON.stringify(repo)}`,
    ),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHIM_HOME: join(root, 'shim'),
    HOME: join(root, 'home'),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  const payload = (i: number) =>
    JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: `toolu_bench_${i}`,
      tool_input: { command: 'git reset --hard HEAD' },
    });
  const stored = () =>
    spawnSync(process.execPath, [BIN, 'list', '--all', '--json'], { env, encoding: 'utf8' });
  /** Waits (on the process, not a clock) for the detached builder; ms until it was done. */
  const waitForBuilder = (from: number): number => {
    while (processesUnder(root).length > 0) spawnSync('sleep', ['0.005']);
    return performance.now() - from;
  };
  // The session's earlier hooks have run: the store exists and the cursor is warm.
  time([BIN, 'hook', 'PreToolUse'], payload(-1), env, repo);
  waitForBuilder(performance.now());
  const runs = 15;
  const baseline: number[] = [];
  const hook: number[] = [];
  const built: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(time(['-e', ''], '', env, repo).ms);
    const start = performance.now();
    const run = time([BIN, 'hook', 'PreToolUse'], payload(i), env, repo);
    if (!/checkpoint saved with a git snapshot/.test(run.stdout))
      throw new Error(`no checkpoint with a snapshot: ${run.stdout}`);
    hook.push(run.ms);
    built.push(waitForBuilder(start));
  }
  const count = (JSON.parse(stored().stdout) as unknown[]).length;
  if (count !== runs + 1) throw new Error(`${count} checkpoints stored, ${runs + 1} promised`);
  const base = median(baseline);
  report(
    `risky command: git snapshot + checkpoint note (${FILES} files)`,
    fmt(median(hook)),
    `${(median(hook) / base).toFixed(2)}× node (target ≤ 60 ms)`,
  );
  report(
    '  … the checkpoint stored, by the detached builder',
    fmt(median(built)),
    'after the hook started (the command runs meanwhile)',
  );
  results.riskyCheckpoint = {
    ms: median(hook),
    nodeMs: base,
    files: FILES,
    storedAfterMs: median(built),
  };
}
