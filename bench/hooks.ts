/**
 * Hook and statusline cost as Claude Code pays it: a fresh process per call, on a ≥ 20 MB
 * transcript with one new response appended before each call, against `node -e ''` measured
 * in the same run (interleaved), and the peer `ccusage statusline` on the same input.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { QuietWindow } from '../src/core/policy/quiet-window.ts';
import { signalQuietly } from '../src/capture/process-tree.ts';
import { makeTempDir } from '../test/helpers/fixtures.ts';
import { processesUnder } from '../test/helpers/processes.ts';
import { warmLookPid } from '../test/helpers/warm-look.ts';

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

/** Claude Code reads a hook's and the statusline's answer through a pipe: so does this. */
function time(command: string, args: string[], input: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(command, args, { input, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
}

/**
 * Waits (up to 20 s) for the warm look a home's first full look started: the calls measured
 * after it are the ones a working session makes. False when none came (the rows then measure the
 * look in the hook's own process, and say so).
 */
export function awaitWarmLook(home: string): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 20_000;
  while (warmLookPid(home) === null) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
  return true;
}

/**
 * Waits until the background work earlier calls started under `root` (an interval checkpoint)
 * has finished: in a session calls come seconds apart, so a call rarely shares the cores with the
 * one before's checkpoint; back to back, whichever row came next would pay for it.
 */
function settleBackground(root: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 30_000;
  while (processesUnder(root).length > 0 && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
}

/** Ends the warm looks a bench started (they would otherwise wait 10 min for a call). */
export function stopWarmLooks(root: string): void {
  for (const pid of processesUnder(root, true)) signalQuietly(pid, 'SIGTERM');
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
  // The same calls with a team store connected (config team.url, as `shim team connect` writes
  // it): the hooks must not notice — no connection, no pg (docs/team.md). The server is not
  // reached from the hot path, so an address nothing listens on measures the same.
  const teamHome = join(home, 'shim-team');
  mkdirSync(teamHome, { recursive: true });
  writeFileSync(
    join(teamHome, 'config.json'),
    `${JSON.stringify({ team: { url: 'postgres://bench@127.0.0.1:9/shim' } })}\n`,
  );
  const teamEnv: NodeJS.ProcessEnv = { ...env, SHIM_HOME: teamHome };
  const sessionId =
    (
      JSON.parse(readFileSync(transcript, 'utf8').slice(0, 4096).split('\n')[0]!) as {
        sessionId?: string;
      }
    ).sessionId ?? 'bench';
  const postToolUse = (tool: string) =>
    JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: home,
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: tool === 'Bash' ? { command: 'ls' } : { file_path: '/x' },
      tool_response: {},
    });
  const hookInput = postToolUse('Read');
  // A command may be a milestone: PostToolUse always takes its full look for one.
  const fullLookInput = postToolUse('Bash');
  const memoryPath = join(home, 'shim', 'cache', 'hooks', `${sessionId}.json`);
  const quietWindow = (path = memoryPath) => {
    try {
      return (JSON.parse(readFileSync(path, 'utf8')) as { quiet?: QuietWindow | null }).quiet;
    } catch {
      return null;
    }
  };
  const teamMemoryPath = join(teamHome, 'cache', 'hooks', `${sessionId}.json`);
  // Claude Code reports the newest response's usage: the one appended before each call.
  const usage = (
    JSON.parse(appendLines[0]!) as {
      message: {
        usage: {
          input_tokens: number;
          cache_creation_input_tokens: number;
          cache_read_input_tokens: number;
          output_tokens: number;
        };
      };
    }
  ).message.usage;
  const context =
    usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
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
      total_input_tokens: context,
      total_output_tokens: usage.output_tokens,
      context_window_size: 200000,
      used_percentage: Math.round(context / 2000),
      remaining_percentage: 100 - Math.round(context / 2000),
      current_usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
  });
  // A render that folds the transcript rewrites its cursor cache; one in the quiet window not.
  const cursorDir = join(home, 'shim', 'cache', 'cursors');
  const cursorStamp = () =>
    readdirSync(cursorDir)
      .map((f) => statSync(join(cursorDir, f)).mtimeMs)
      .join();
  // Warm the cursor cache once, as the session's earlier hooks would have.
  time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, env);
  time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, teamEnv);
  const warm = awaitWarmLook(env.SHIM_HOME!);
  awaitWarmLook(teamHome);

  const havePeer = ensurePeer();
  const runs = 20;
  const baseline: number[] = [];
  const hook: number[] = [];
  const hookTeam: number[] = [];
  let quietTeam = 0;
  const quiet: number[] = [];
  const fullLook: number[] = [];
  const statusline: number[] = [];
  const statuslineQuiet: number[] = [];
  const statuslineFull: number[] = [];
  const peer: number[] = [];
  const appendResponse = (tag: string) =>
    appendFileSync(
      transcript,
      appendLines
        .map((l) => l.replaceAll('"msg_', `"msg_${tag}`).replaceAll('"toolu_', `"toolu_${tag}`))
        .join('\n') + '\n',
    );
  for (let i = 0; i < runs; i++) {
    appendResponse(`hk${i}_`);
    baseline.push(time(process.execPath, ['-e', ''], '', env));
    // The same call with a team store connected: before the unconnected one every other
    // iteration, after it otherwise, so neither gains from going second.
    const teamCall = () => {
      const teamBefore = quietWindow(teamMemoryPath);
      hookTeam.push(time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, teamEnv));
      const teamAfter = quietWindow(teamMemoryPath);
      if (teamBefore && teamAfter && teamAfter.offset === teamBefore.offset) quietTeam++;
    };
    if (i % 2 === 0) teamCall();
    // An ordinary tool call: inside the quiet window when the last full look granted one.
    const before = quietWindow();
    const ms = time(process.execPath, [BIN, 'hook', 'PostToolUse'], hookInput, env);
    const after = quietWindow();
    hook.push(ms);
    // A quiet call writes nothing: the window is the one the last full look saved.
    const wasQuiet = before && after && JSON.stringify(after) === JSON.stringify(before);
    (wasQuiet ? quiet : fullLook).push(ms);
    if (i % 2 === 1) teamCall();
    if (i % 2 === 1) {
      appendResponse(`hb${i}_`);
      fullLook.push(time(process.execPath, [BIN, 'hook', 'PostToolUse'], fullLookInput, env));
    }
    const stamp = cursorStamp();
    const renderMs = time(process.execPath, [BIN, 'statusline'], statusInput, env);
    statusline.push(renderMs);
    (cursorStamp() === stamp ? statuslineQuiet : statuslineFull).push(renderMs);
    if (havePeer) peer.push(time(CCUSAGE, ['statusline'], statusInput, env));
  }
  // The team home's background worker retries the address nothing listens on: stopped here.
  for (const pid of processesUnder(teamHome)) signalQuietly(pid, 'SIGKILL');
  stopWarmLooks(home);
  const base = median(baseline);
  /** A row's time and its ratio to node; '–' for a path no call took. */
  const row = (name: string, times: number[], note = '') =>
    report(
      name,
      times.length > 0 ? fmt(median(times)) : '–',
      times.length > 0 ? `${(median(times) / base).toFixed(2)}× node${note}` : 'no call took it',
    );
  report("node -e '' (same run)", fmt(base), 'baseline');
  row(
    'shim hook PostToolUse (20 MB transcript, +1 response)',
    hook,
    `; ${quiet.length} of ${hook.length} ordinary calls quiet`,
  );
  row('  inside the quiet window', quiet, ' (target ≤ 1.15×)');
  row(
    '  the same calls, team store connected (team.url)',
    hookTeam,
    `; ${quietTeam} of ${hookTeam.length} quiet (unconnected ${fmt(median(hook))}: target no change)`,
  );
  row(
    `  full look (fold, redaction, forecast)${warm ? ', by the warm look' : ' (no warm look came)'}`,
    fullLook,
    ' (target ≤ 1.3×)',
  );
  row(
    'shim statusline (same transcript)',
    statusline,
    ` (target ≤ 1.2×); ${statuslineQuiet.length} of ${statusline.length} renders quiet`,
  );
  row('  inside the quiet window', statuslineQuiet);
  row('  folding the new response', statuslineFull);
  // The peer comes from the npm registry; without it the row says so instead of failing the run.
  if (peer.length > 0) {
    report(
      'ccusage@20.0.24 statusline (peer, same input)',
      fmt(median(peer)),
      `${(median(peer) / base).toFixed(2)}× node`,
    );
  } else report('ccusage@20.0.24 statusline (peer, same input)', '–', 'not installed');
  results.hooks = {
    nodeMs: base,
    postToolUseMs: median(hook),
    postToolUseRatio: median(hook) / base,
    postToolUseTeamMs: median(hookTeam),
    postToolUseQuietMs: quiet.length > 0 ? median(quiet) : null,
    postToolUseFullLookMs: median(fullLook),
    quietCalls: quiet.length,
    statuslineMs: median(statusline),
    statuslineRatio: median(statusline) / base,
    statuslineQuietMs: statuslineQuiet.length > 0 ? median(statuslineQuiet) : null,
    statuslineFoldMs: statuslineFull.length > 0 ? median(statuslineFull) : null,
    ccusageStatuslineMs: peer.length > 0 ? median(peer) : null,
  };
}

/**
 * The full look where it is paid on every call: the same 20 MB transcript with the appended
 * response's context at L1, L2 and L3 (above half the threshold no quiet window holds), an
 * ordinary call at each, a failed call and a command at L2; each level on its own copy, each
 * call once answered by the warm look (its SHIM_HOME's warm process, src/hook/warm-look/) and
 * once looked at in the hook's own process (a second SHIM_HOME with `warmLook: false`), all
 * interleaved with `node -e ''`.
 */
export function runFullLookBench(
  report: Report,
  results: Record<string, unknown>,
  transcript: string,
  appendLines: string[],
): void {
  const root = makeTempDir('shim-bench-levels-');
  // 200k window, threshold 167,000: L1 from 116,900, L2 from 141,950, L3 from 158,650.
  const levels = { L1: 125_000, L2: 150_000, L3: 162_000 } as const;
  const ways = ['warm', 'own'] as const;
  const setups = Object.entries(levels).map(([level, context]) => {
    const dir = join(root, level);
    mkdirSync(join(dir, 'home', '.claude'), { recursive: true });
    const path = join(dir, 'session.jsonl');
    copyFileSync(transcript, path);
    const envOf = (way: (typeof ways)[number]): NodeJS.ProcessEnv => {
      const home = join(dir, way === 'warm' ? 'shim' : 'shim-own');
      mkdirSync(home, { recursive: true });
      if (way === 'own') writeFileSync(join(home, 'config.json'), '{ "warmLook": false }\n');
      const env: NodeJS.ProcessEnv = { ...process.env, SHIM_HOME: home, HOME: join(dir, 'home') };
      delete env.NODE_EXTRA_CA_CERTS;
      return env;
    };
    const env = { warm: envOf('warm'), own: envOf('own') };
    const assistant = JSON.parse(appendLines[0]!) as {
      message: { usage: Record<string, number> };
    };
    assistant.message.usage = {
      input_tokens: 10,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: context - 510,
      output_tokens: 200,
    };
    const lines = [JSON.stringify(assistant), ...appendLines.slice(1)];
    const payload = (event: string, tool: string) =>
      JSON.stringify({
        session_id: 'bench-levels',
        transcript_path: path,
        cwd: dir,
        hook_event_name: event,
        tool_name: tool,
        tool_input: tool === 'Bash' ? { command: 'ls' } : { file_path: '/x' },
        tool_response: {},
        ...(event === 'PostToolUseFailure' ? { error: 'Exit code 1' } : {}),
      });
    const append = (tag: string) =>
      appendFileSync(
        path,
        lines
          .map((l) => l.replaceAll('"msg_', `"msg_${tag}`).replaceAll('"toolu_', `"toolu_${tag}`))
          .join('\n') + '\n',
      );
    return { level, env, payload, append };
  });
  const hook = (event: string) => [BIN, 'hook', event];
  // The session's earlier calls: the cursor cache warm, the level's alert and checkpoint taken.
  for (const s of setups)
    for (const way of ways)
      for (let i = 0; i < 3; i++) {
        s.append(`warm${way}${i}_`);
        time(process.execPath, hook('PostToolUse'), s.payload('PostToolUse', 'Read'), s.env[way]);
      }
  const warmLooks = setups.filter((s) => awaitWarmLook(s.env.warm.SHIM_HOME!)).length;
  const runs = 15;
  const baseline: number[] = [];
  const rows = { warm: new Map<string, number[]>(), own: new Map<string, number[]>() };
  const push = (way: (typeof ways)[number], name: string, ms: number) =>
    rows[way].set(name, [...(rows[way].get(name) ?? []), ms]);
  for (let i = 0; i < runs; i++) {
    settleBackground(root);
    baseline.push(time(process.execPath, ['-e', ''], '', setups[0]!.env.own));
    for (const s of setups) {
      // Which way goes first alternates, so neither gains from the other's page cache.
      for (const way of i % 2 === 0 ? ways : [...ways].reverse()) {
        const env = s.env[way];
        s.append(`lv${way}${i}_`);
        settleBackground(root);
        push(
          way,
          `  ${s.level}: an ordinary call`,
          time(process.execPath, hook('PostToolUse'), s.payload('PostToolUse', 'Read'), env),
        );
        if (s.level !== 'L2') continue;
        s.append(`lf${way}${i}_`);
        settleBackground(root);
        push(
          way,
          '  L2: a failed call',
          time(
            process.execPath,
            hook('PostToolUseFailure'),
            s.payload('PostToolUseFailure', 'Read'),
            env,
          ),
        );
        s.append(`lc${way}${i}_`);
        settleBackground(root);
        push(
          way,
          '  L2: a command (Bash)',
          time(process.execPath, hook('PostToolUse'), s.payload('PostToolUse', 'Bash'), env),
        );
      }
    }
  }
  stopWarmLooks(root);
  const base = median(baseline);
  report("node -e '' (same run)", fmt(base), 'baseline');
  const measured = { warm: {}, own: {} } as Record<
    (typeof ways)[number],
    Record<string, { ms: number; ratio: number }>
  >;
  for (const way of ways) {
    report(
      way === 'warm'
        ? `PostToolUse full look, 20 MB transcript, answered by the warm look (${warmLooks} of ${setups.length} homes served)`
        : "PostToolUse full look, the same calls in the hook's own process (warmLook: false)",
      '',
      way === 'warm' ? 'target ≤ 1.3× node each' : 'before the warm look; no target',
    );
    for (const [name, times] of rows[way]) {
      const ms = median(times);
      report(name, fmt(ms), `${(ms / base).toFixed(2)}× node`);
      measured[way][name.trim()] = { ms, ratio: ms / base };
    }
  }
  results.fullLook = { nodeMs: base, warmLooks, ...measured.warm };
  results.fullLookOwnProcess = measured.own;
}
