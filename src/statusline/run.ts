/**
 * `shim statusline`: reads Claude Code's statusline JSON on stdin and prints one line. Uses
 * Claude Code's own `context_window` figures when present (and records them so the hooks use
 * the exact window too), the transcript otherwise. With `--wrap <base64 command>` the user's
 * previous statusline runs first and shim's segments follow on the same line.
 * @module
 */
import { getLevel, toPercent } from '../core/level.ts';
import { createSessionState } from '../core/session.ts';
import { assessLiveSession } from '../app/assess-live-session.ts';
import { loadSessionState } from '../app/read-session.ts';
import { findProjectRoot } from '../capture/project.ts';
import { loadConfig } from '../store/config.ts';
import { getShimHome, type Env } from '../store/home.ts';
import { loadHookMemory } from '../store/hook-memory.ts';
import { writeStatuslineFigures } from '../store/statusline-figures.ts';
import { appendLog } from '../store/log.ts';
import { readStdin } from '../capture/stdin.ts';
import { renderStatusline } from '../core/status-line.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** input + cache_creation + cache_read of `context_window.current_usage`, when Claude Code gave it. */
function readReportedContext(input: Obj): { tokens: number | null; window: number | null } {
  const cw = obj(input.context_window);
  const usage = obj(cw.current_usage);
  const parts = [
    usage.input_tokens,
    usage.cache_creation_input_tokens,
    usage.cache_read_input_tokens,
  ].map(num);
  const tokens = parts.some((p) => p !== null)
    ? parts.reduce<number>((a, b) => a + (b ?? 0), 0)
    : null;
  return { tokens, window: num(cw.context_window_size) };
}

async function runWrapped(command: string, input: string): Promise<string> {
  try {
    // Loaded only to wrap a statusline: node:child_process (with net and stream) costs a render
    // ~4 ms it does not otherwise need.
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('/bin/sh', ['-c', command], { input, encoding: 'utf8', timeout: 2000 });
    return (r.stdout ?? '').replace(/\s+$/, '');
  } catch {
    return '';
  }
}

export async function renderForInput(
  text: string,
  env: Env,
  now: number,
  columns: number,
  color: boolean,
): Promise<string> {
  const home = getShimHome(env);
  let input: Obj;
  try {
    input = obj(JSON.parse(text));
  } catch {
    return '';
  }
  const sessionId = typeof input.session_id === 'string' ? input.session_id : null;
  const transcript = typeof input.transcript_path === 'string' ? input.transcript_path : null;
  const reported = readReportedContext(input);
  const cwd = typeof input.cwd === 'string' ? input.cwd : null;
  const config = await loadConfig(home, {
    lenient: true,
    projectRoot: cwd ? findProjectRoot(cwd) : null,
  });
  if (!config.enabled) return '';
  const state = transcript ? await loadSessionState(transcript, home).catch(() => null) : null; // not written yet
  if (!state && reported.tokens === null) return '';
  const assessment = assessLiveSession(state ?? createSessionState(), {
    home,
    env,
    now,
    config,
    hotPath: true,
    insideClaudeCode: 'statusline',
    reportedWindow: reported.window,
  });
  // Claude Code's own figure wins: the transcript may lag behind the last response.
  const tokens = reported.tokens ?? assessment.contextTokens;
  const percent = toPercent(tokens, assessment.compactThreshold);
  if (sessionId) {
    try {
      writeStatuslineFigures(home, sessionId, {
        at: now,
        contextTokens: reported.tokens,
        windowTokens: reported.window,
      });
    } catch {
      // the line still renders
    }
  }
  const memory = sessionId ? loadHookMemory(home, sessionId) : null;
  return renderStatusline(
    {
      percent,
      windowPercent: toPercent(tokens, assessment.windowTokens),
      level: getLevel(percent, config.levels),
      risk: assessment.risk,
      turnsToCompact: assessment.forecast.turnsToCompact,
      turnsToCompactLow: assessment.forecast.turnsToCompactLow,
      turnsToCompactHigh: assessment.forecast.turnsToCompactHigh,
      checkpointAgeMs: memory?.lastCheckpointAt != null ? now - memory.lastCheckpointAt : null,
      autoCompact: assessment.autoCompact,
    },
    columns,
    color,
  );
}

/** The process entry. Always exits 0: an empty line is better than a broken statusline. */
export async function main(args: string[]): Promise<void> {
  const input = await readStdin();
  // --wrap-command '<command>' (readable), or --wrap <base64> written by older installs.
  const plainIndex = args.indexOf('--wrap-command');
  const wrapIndex = args.indexOf('--wrap');
  const command =
    plainIndex >= 0 && args[plainIndex + 1] !== undefined
      ? args[plainIndex + 1]!
      : wrapIndex >= 0 && args[wrapIndex + 1]
        ? Buffer.from(args[wrapIndex + 1]!, 'base64').toString('utf8')
        : null;
  const wrapped = command ? await runWrapped(command, input) : '';
  const columns = Number(process.env.COLUMNS) || 120;
  const color = !process.env.NO_COLOR;
  let ours = '';
  try {
    const [first] = wrapped.split('\n');
    const room = wrapped ? Math.max(20, columns - (first?.length ?? 0) - 3) : columns;
    ours = await renderForInput(input, process.env, Date.now(), room, color);
  } catch (error) {
    appendLog(getShimHome(), 'error', 'statusline failed', { error: String(error) });
  }
  if (wrapped) {
    const [first, ...rest] = wrapped.split('\n');
    process.stdout.write(`${[ours ? `${first} │ ${ours}` : first, ...rest].join('\n')}\n`);
  } else if (ours) {
    process.stdout.write(`${ours}\n`);
  }
  process.exitCode = 0;
}
