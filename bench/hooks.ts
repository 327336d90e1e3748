/**
 * Hook and statusline cost as Claude Code pays it: a fresh process per call, on a ≥ 20 MB
 * transcript with one new response appended before each call, against `node -e ''` measured
 * in the same run (interleaved), and the peer `ccusage statusline` on the same input.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../test/helpers/fixtures.ts';

type Report = (name: string, value: string, note?: string) => void;

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'shim.cjs');
const PEER_DIR = join(ROOT, '.bench', 'peer');
const CCUSAGE = join(PEER_DIR, 'node_modules', '.bin', 'ccusage');

/** The peer is a benchmark-only dependency: pinned, installed on demand outside the lock file
 * (its platform packages for other systems are not all on this registry, which `npm ci` rejects). */
function ensurePeer(): boolean {
  if (existsSync(CCUSAGE)) return true;
  mkdirSync(PEER_DIR, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', PEER_DIR, 'ccusage@20.0.24'],
    { stdio: 'ignore' },
  );
  return r.status === 0 && existsSync(CCUSAGE);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function time(command: string, args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(command, args, { input, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
}

export function runHookBench(
  report: Report,
  results: Record<string, unknown>,
  transcript: string,
  appendLines: string[],
): void {
  const home = makeTempDir('shim-bench-hooks-');
  const claudeHome = join(home, 'home');
  mkdirSync(join(claudeHome, '.claude', 'projects', '-bench'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHIM_HOME: join(home, 'shim'),
    HOME: claudeHome,
  };
  delete env.NODE_EXTRA_CA_CERTS;
  const sessionId =
    (
      JSON.parse(readFileSync(transcript, 'utf8').slice(0, 4096).split('\n')[0]!) as {
        sessionId?: string;
      }
    ).sessionId ?? 'bench';
  const hookInput = JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: home,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: '/x' },
    tool_response: {},
  });
  const statusInput = JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: home,
    model: { id: 'claude-opus-4-6', display_name: 'Opus' },
    workspace: { current_dir: home, project_dir: home },
    version: '2.1.39',
    cost: {
      total_cost_usd: 1.23,
      total_duration_ms: 60000,
      total_api_duration_ms: 30000,
      total_lines_added: 10,
      total_lines_removed: 2,
    },
    context_window: {
      total_input_tokens: 122010,
      total_output_tokens: 300,
      context_window_size: 200000,
      used_percentage: 61,
      remaining_percentage: 39,
      current_usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 120000,
        output_tokens: 300,
      },
    },
  });
  // Warm the cursor cache once, as the session's earlier hooks would have.
  time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, env);

  const havePeer = ensurePeer();
  const runs = 20;
  const baseline: number[] = [];
  const hook: number[] = [];
  const statusline: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < runs; i++) {
    const tag = `hk${i}_`;
    appendFileSync(
      transcript,
      appendLines
        .map((l) => l.replaceAll('"msg_', `"msg_${tag}`).replaceAll('"toolu_', `"toolu_${tag}`))
        .join('\n') + '\n',
    );
    baseline.push(time(process.execPath, ['-e', ''], '', env));
    hook.push(time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, env));
    statusline.push(time(process.execPath, [BIN, 'statusline'], statusInput, env));
    if (havePeer) peer.push(time(CCUSAGE, ['statusline'], statusInput, env));
  }
  const base = median(baseline);
  report("node -e '' (same run)", fmt(base), 'baseline');
  report(
    'shim hook PostToolUse (20 MB transcript, +1 response)',
    fmt(median(hook)),
    `${(median(hook) / base).toFixed(2)}× node (target ≤ 1.3×)`,
  );
  report(
    'shim statusline (same transcript)',
    fmt(median(statusline)),
    `${(median(statusline) / base).toFixed(2)}× node (target ≤ 1.3×)`,
  );
  report(
    'ccusage@20.0.24 statusline (peer, same input)',
    fmt(median(peer)),
    `${(median(peer) / base).toFixed(2)}× node`,
  );
  results.hooks = {
    nodeMs: base,
    postToolUseMs: median(hook),
    postToolUseRatio: median(hook) / base,
    statuslineMs: median(statusline),
    statuslineRatio: median(statusline) / base,
    ccusageStatuslineMs: havePeer ? median(peer) : null,
  };
}
