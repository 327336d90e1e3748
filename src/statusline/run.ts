/**
 * `shim statusline`: reads Claude Code's statusline JSON on stdin and prints one line. Uses
 * Claude Code's own `context_window` figures when present (and records them so the hooks use
 * the exact window too), the transcript otherwise. With `--wrap <base64 command>` the user's
 * previous statusline runs first and shim's segments follow on the same line.
 * @module
 */
import { getLevel, toPercent } from '../core/context/level.ts';
import { useBundleLoader, type BundleLoader } from '../app/load-bundle.ts';
import type { assessForStatusline } from './full-basis.ts';
import { findProjectRoot } from '../capture/project.ts';
import { loadConfig } from '../store/config/config.ts';
import { getCheckpointFailure } from '../store/cache/checkpoint-failures.ts';
import { getShimHome, type Env } from '../store/home/home.ts';
import { loadHookMemory } from '../store/cache/hook-memory.ts';
import { loadDeferral } from '../store/cache/deferral-file.ts';
import { writeStatuslineFigures } from '../store/cache/statusline-figures.ts';
import { appendLog } from '../store/home/log.ts';
import { readStdin } from '../capture/stdin.ts';
import { writeStdout } from '../capture/stdout.ts';
import { cannotSaveSegment, renderStatusline } from '../core/context/status-line.ts';
import { probeStorage, STORAGE_LABELS } from '../store/home/storage-failure.ts';
import { forecastAfter, type QuietView, type QuietWindow } from '../core/policy/quiet-window.ts';
import type { SessionLogReader } from '../agents/agent.ts';

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

/**
 * The full look (full-basis.ts) for the statusline's agent, loaded only when needed: the entry
 * (src/entries/statusline.ts) says which agent and where the look comes from.
 */
export type FullLook = () => Promise<
  (request: Parameters<typeof assessForStatusline>[1]) => ReturnType<typeof assessForStatusline>
>;

/** The statusline's agent as the entry hands it in: a look at its log's tail, and the full look. */
export type StatuslineAgent = { tail: SessionLogReader['tail']; full: FullLook };

export async function renderForInput(
  agent: StatuslineAgent,
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
  const given = readReportedContext(input);
  let reported = given;
  const cwd = typeof input.cwd === 'string' ? input.cwd : null;
  const config = await loadConfig(home, {
    lenient: true,
    projectRoot: cwd ? findProjectRoot(cwd) : null,
  });
  if (!config.enabled) return '';
  const memory = sessionId ? loadHookMemory(home, sessionId) : null;
  // Right after a compaction Claude Code still reports the last response's usage, from before
  // it: the transcript's post-compaction figure stands until a new response comes.
  const compactions = memory?.compactions ?? null;
  if (compactions && reported.tokens !== null && reported.tokens === compactions.staleTokens)
    reported = { ...reported, tokens: null };
  // Inside the hooks' quiet window only the context can differ from their last full look: the
  // line is drawn from that look without folding the transcript (docs/hot-path.md).
  const quiet =
    memory?.quiet && transcript
      ? viewInQuietWindow(agent, memory.quiet, transcript, reported.tokens, now)
      : null;
  let basis: QuietView | null = quiet;
  if (!basis) {
    const assess = await agent.full();
    basis = await assess({ transcript, home, env, now, config, reported });
    if (!basis) {
      const why = cannotSave(home);
      return why ? cannotSaveSegment(why, color) : '';
    }
  }
  if (sessionId) {
    try {
      writeStatuslineFigures(home, sessionId, {
        at: now,
        contextTokens: given.tokens,
        windowTokens: given.window,
      });
    } catch {
      // the line still renders
    }
  }
  const percent = toPercent(basis.contextTokens, basis.compactThreshold);
  const level = getLevel(percent, config.levels);
  return renderStatusline(
    {
      percent,
      windowPercent: toPercent(basis.contextTokens, basis.windowTokens),
      level,
      risk: basis.risk,
      turnsToCompact: basis.turnsToCompact,
      turnsToCompactLow: basis.turnsToCompactLow,
      turnsToCompactHigh: basis.turnsToCompactHigh,
      checkpointAgeMs: memory?.lastCheckpointAt != null ? now - memory.lastCheckpointAt : null,
      autoCompact: basis.autoCompact,
      issue: memory?.issue ?? null,
      phase: memory?.phase ?? null,
      checkpointFailures: sessionId ? (getCheckpointFailure(home, sessionId)?.count ?? 0) : 0,
      cannotSave: cannotSave(home),
      contextLimitHit: basis.contextLimitHit === true,
      compactions: compactions?.count ?? 0,
      // Read only where it shows: at L1/L2.
      ...(sessionId && (level === 'L1' || level === 'L2')
        ? { deferred: loadDeferral(home, sessionId) !== null }
        : {}),
    },
    columns,
    color,
  );
}

/** Why nothing can be saved now (two system calls, no write), in the statusline's words. */
function cannotSave(home: string): string | null {
  const kind = probeStorage(home);
  return kind ? STORAGE_LABELS[kind] : null;
}

/**
 * The line's basis from the quiet window, when the transcript since the hooks' last full look
 * holds nothing eventful and the context stays below the window's bound; null otherwise.
 */
function viewInQuietWindow(
  agent: StatuslineAgent,
  quiet: QuietWindow,
  transcript: string,
  reportedTokens: number | null,
  now: number,
): QuietView | null {
  if (now >= quiet.until) return null;
  const look = agent.tail(transcript, quiet.offset);
  if (look === null || look.eventful) return null;
  const contextTokens = reportedTokens ?? look.contextTokens ?? quiet.view.contextTokens;
  if (contextTokens >= quiet.tokensBelow) return null;
  return { ...forecastAfter(quiet.view, look.responses), contextTokens };
}

export async function main(
  agent: StatuslineAgent,
  args: string[],
  loadBundle?: BundleLoader,
): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
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
    ours = await renderForInput(agent, input, process.env, Date.now(), room, color);
  } catch (error) {
    appendLog(getShimHome(), 'error', 'statusline failed', { error: String(error) });
    // A SHIM_HOME nothing can be saved in may be why: said, where nothing else can be drawn.
    const why = cannotSave(getShimHome());
    if (why) ours = cannotSaveSegment(why, color);
  }
  if (wrapped) {
    const [first, ...rest] = wrapped.split('\n');
    writeStdout(`${[ours ? `${first} │ ${ours}` : first, ...rest].join('\n')}\n`);
  } else if (ours) {
    writeStdout(`${ours}\n`);
  }
  process.exitCode = 0;
}
