/**
 * The warm look's process (src/hook/warm-look/) as tests and the bench see it: found through its
 * directory under SHIM_HOME/run, waited for by its result (its pid file, its count of answered
 * calls), stopped with SIGTERM as a user's shutdown would.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listWarmLooks, type WarmLookStats } from '../../src/store/home/warm-look-place.ts';
import { isProcessAlive, signalQuietly } from '../../src/capture/process-tree.ts';
import { BIN, runShim } from './cli.ts';
import { makeTempDir } from './fixtures.ts';
import { SESSION_ID, toJsonl, toolCallLines, userPromptLine } from './transcript-builders.ts';

/** The warm look's directory under `home` (one per build; not one shim distrusts), or null. */
export function warmLookDirIn(home: string): string | null {
  return listWarmLooks(home).find((w) => w.distrust === null)?.dir ?? null;
}

/** The pid serving `home`: a process holding the pipes of a directory there. */
export function warmLookPid(home: string): number | null {
  return listWarmLooks(home).find((w) => w.serving)?.pid ?? null;
}

/** What the process last said of itself (written at most once a second). */
export function warmLookStats(home: string): WarmLookStats | null {
  return listWarmLooks(home).find((w) => w.serving)?.stats ?? null;
}

/**
 * Resolves with the pid once a warm process serves `home` and `until` holds. `limitMs` only turns
 * one that never comes into a failure; it is not the expected wait.
 */
export async function waitForWarmLook(
  home: string,
  until: (stats: WarmLookStats | null, pid: number) => boolean = () => true,
  limitMs = 60_000,
): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const pid = warmLookPid(home);
    if (pid !== null && until(warmLookStats(home), pid)) return pid;
    if (Date.now() > deadline)
      throw new Error(`no warm look process served ${home} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** True for a warm look's process (a service the hooks ask, not a job with a result). */
export function isWarmLookProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('\0warm-look');
  } catch {
    return false;
  }
}

/* A session as Claude Code drives it: a transcript, hooks run as fresh processes. */

export type Session = { dir: string; home: string; transcript: string; calls: number };

export function session(options: { warmLook?: boolean; name?: string } = {}): Session {
  const dir = makeTempDir(`shim-warm-${options.name ?? 'look'}-`);
  const transcript = join(dir, `${SESSION_ID}.jsonl`);
  writeFileSync(transcript, toJsonl([userPromptLine('Port the parser to the new API')]));
  const home = join(dir, 'shim');
  mkdirSync(home, { recursive: true });
  if (options.warmLook === false)
    writeFileSync(join(home, 'config.json'), '{ "warmLook": false }\n');
  return { dir, home, transcript, calls: 0 };
}

/** The same session in a second home: its answers are the ones to match. */
export function twin(s: Session): Session {
  const other = session({ warmLook: false, name: 'twin' });
  copyFileSync(s.transcript, other.transcript);
  return other;
}

/** One response calling `tool` at `context` tokens, and its result, appended to the transcript. */
export function respond(s: Session, tool: string, context: number): { id: string; input: object } {
  const n = ++s.calls;
  const input = tool === 'Bash' ? { command: 'npm test' } : { file_path: `/src/f${n}.ts` };
  appendFileSync(s.transcript, toJsonl(toolCallLines(n, context, tool, input)));
  return { id: `toolu_${n}`, input };
}

export function payload(s: Session, tool: string, call: { id: string; input: object }): string {
  return JSON.stringify({
    session_id: SESSION_ID,
    transcript_path: s.transcript,
    cwd: s.dir,
    hook_event_name: 'PostToolUse',
    tool_name: tool,
    tool_input: call.input,
    tool_use_id: call.id,
    tool_response: {},
  });
}

export function env(s: Session, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SHIM_HOME: s.home,
    CLAUDE_CONFIG_DIR: join(s.dir, 'no-claude'),
    SHIM_WARM_LOOK_IDLE_MS: '60000',
    ...extra,
  };
}

/** One PostToolUse as Claude Code runs it: its stdout, after checking it exited 0. */
export function hook(s: Session, input: string, extra: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [BIN, 'hook', 'PostToolUse'], {
    input,
    encoding: 'utf8',
    env: env(s, extra),
    cwd: s.dir,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** One PostToolUse run without blocking the test (its watchers and timers go on): its stdout. */
export function hookAsync(
  s: Session,
  input: string,
  extra: Record<string, string> = {},
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'PostToolUse'], {
      env: env(s, extra),
      cwd: s.dir,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`)),
    );
    child.stdin.end(input);
  });
}

/** The same call in both sessions: the warm one's answer and its own-process twin's. */
export function callBoth(s: Session, t: Session, tool: string, context: number): [string, string] {
  const call = respond(s, tool, context);
  respond(t, tool, context);
  return [hook(s, payload(s, tool, call)), hook(t, payload(t, tool, call))];
}

/** A session, its own-process twin, one call each, and the warm process that call started. */
export async function served(name: string): Promise<{ s: Session; t: Session; pid: number }> {
  const s = session({ name });
  const t = twin(s);
  callBoth(s, t, 'Read', 40_000);
  return { s, t, pid: await waitForWarmLook(s.home) };
}

/** Resolves once `pid` has exited (a result: the process is gone). */
export async function gone(pid: number, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What `shim doctor` says of the warm look. */
export function doctorSays(s: Session): string {
  const r = runShim(s.home, ['doctor', '--json'], { cwd: s.dir });
  const report = JSON.parse(r.stdout) as { checks: { id: string; detail: string }[] };
  return report.checks.find((c) => c.id === 'warm-look')?.detail ?? `(no check) ${r.stderr}`;
}

/** The warm look's directory name for this build, learnt from the process a first call starts. */
export async function warmLookName(s: Session): Promise<string> {
  hook(s, payload(s, 'Read', respond(s, 'Read', 40_000)));
  await waitForWarmLook(s.home);
  const dir = warmLookDirIn(s.home)!;
  await stop(s);
  return basename(dir);
}

export async function stop(s: Session): Promise<void> {
  const pid = warmLookPid(s.home);
  if (pid === null) return;
  signalQuietly(pid, 'SIGTERM');
  await gone(pid);
}
