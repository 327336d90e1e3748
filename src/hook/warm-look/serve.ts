/**
 * The warm look's process (`shim background warm-look`, store/home/warm-look-place.ts): holds the
 * pipes of its directory open and answers each request as a hook would in its own process (the
 * quick answer of quick-run.ts, else run.ts's look), only warm. Its lifecycle:
 *
 * - start: the pipes are made in a directory of its own and moved into place whole, so a hook
 *   never finds half a set; a directory left by a process that died is taken over;
 * - serve: requests are answered as they come (a look waiting for its response does not hold up
 *   the others); a slot whose caller died is freed;
 * - leave: after `idleMs` without a call, when its directory was retired (a hook that got no
 *   answer in time) or removed (SHIM_HOME deleted), or on SIGTERM. It first moves the directory
 *   aside (no new caller finds it), answers what was already asked, then exits.
 * @module
 */
import { existsSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { useBundleLoader, type BundleLoader } from '../../app/load-bundle.ts';
import { getShimHome } from '../../store/home/home.ts';
import { WriteBuffer } from '../../store/home/write-buffer.ts';
import { appendLog } from '../../store/home/log.ts';
import { writeFileSafely } from '../../store/home/safe-file.ts';
import {
  decodeRequest,
  encodeAnswer,
  currentWarmLookDir,
  readWarmLookOwner,
  statsFile,
  type WarmAnswer,
  type WarmLookStats,
  type WarmRequest,
} from '../../store/home/warm-look-place.ts';
import type { Agent, Agents } from '../../agents/agent.ts';
import { isAgentId } from '../../core/agent-id.ts';
import { answerQuickly } from '../quick-run.ts';
import { runHook } from '../run.ts';
import {
  closeSlot,
  drain,
  freeAbandonedSlots,
  openPipes,
  retiredCopies,
  type Slot,
} from './pipes.ts';
import { ReadAhead } from './read-ahead.ts';
import { startingMark } from './start.ts';

export type ServeOptions = {
  /** Leave after this long without a call (default 10 min; SHIM_WARM_LOOK_IDLE_MS). */
  idleMs: number;
  /** The agent whose hooks it answers, and every agent. */
  served: Served;
};

/** How long the process stays without a call: a user reading, not an agent working. */
export const IDLE_MS = 10 * 60_000;

/** How often the process looks at its directory, its slots and the clock. */
const CHECK_MS = 1_000;

/** How long without a call before the process tidies its slots and writes its stats. */
const QUIET_MS = 1_000;

/** Calls already asked are answered for this long after the directory is moved aside. */
const GRACE_MS = 1_000;

/** Serves until it leaves; resolves then (the caller exits). */
export async function serveWarmLooks(
  dir: string,
  home: string,
  options: ServeOptions,
): Promise<void> {
  // A SIGTERM from the moment the pipes can be found: the process leaves the way it always does
  // (the directory moved aside and removed), never by the signal's default, which would leave
  // the directory behind for the next start to take over.
  let stop: (() => void) | null = null;
  let stopAsked = false;
  process.once('SIGTERM', () => (stop ? stop() : (stopAsked = true)));
  const opened = openPipes(dir, home);
  try {
    unlinkSync(startingMark(dir));
  } catch {
    // A start by hand (`shim background warm-look`) has no mark.
  }
  if (!opened) return;
  appendLog(home, 'info', 'warm look: serving', { dir });
  const server = new Server(dir, home, opened, options, await WriteBuffer.create());
  const served = server.run();
  stop = () => server.leave();
  if (stopAsked) stop();
  await served;
}

class Server {
  private inFlight = 0;
  private lastCall = Date.now();
  private leaving = false;
  /** Set once the calls asked before leaving have had their time. */
  private graceOver = false;
  private finished = false;
  /** Calls answered, and how many of them statsFile says. */
  private answered = 0;
  private answeredWritten = 0;
  private readonly startedAt = Date.now();
  private saving = false;
  /** Where the directory was moved on leaving (removed at the end). */
  private closing: string | null = null;
  private done!: () => void;

  private readonly dir: string;
  private readonly home: string;
  private readonly slots: Slot[];
  private readonly options: ServeOptions;
  private readonly readAhead: ReadAhead;
  /**
   * Answer first, save after: the files the looks and the read-ahead replace are written, and
   * the jobs a look starts started, once its answer is out (save()).
   */
  private readonly buffer: WriteBuffer;

  constructor(
    dir: string,
    home: string,
    slots: Slot[],
    options: ServeOptions,
    buffer: WriteBuffer,
  ) {
    this.dir = dir;
    this.home = home;
    this.slots = slots;
    this.options = options;
    this.buffer = buffer;
    this.readAhead = new ReadAhead(home, this.buffer, () => this.saveSoon());
  }

  run(): Promise<void> {
    const finished = new Promise<void>((resolve) => (this.done = resolve));
    this.slots.forEach((slot, index) => {
      slot.socket.setEncoding('utf8');
      slot.socket.on('data', (chunk: string) => this.receive(index, chunk));
      slot.socket.on('error', (error) => {
        appendLog(this.home, 'warn', 'warm look: a request pipe failed; leaving', {
          error: String(error),
        });
        this.leave();
      });
    });
    const check = setInterval(() => this.check(), CHECK_MS);
    return finished.finally(() => clearInterval(check));
  }

  private receive(index: number, chunk: string): void {
    const slot = this.slots[index]!;
    slot.buffered += chunk;
    let end: number;
    while ((end = slot.buffered.indexOf('\n')) !== -1) {
      const line = slot.buffered.slice(0, end);
      slot.buffered = slot.buffered.slice(end + 1);
      if (!line) continue;
      const request = decodeRequest(line);
      if (!request) {
        // What a caller killed mid-write left: its own line, dropped.
        appendLog(this.home, 'warn', 'warm look: dropped a request that was not whole', {
          slot: index,
          bytes: line.length,
        });
        continue;
      }
      this.lastCall = Date.now();
      this.inFlight++;
      slot.latest = request.id;
      void this.answer(index, request)
        .catch((error: unknown) =>
          appendLog(this.home, 'warn', 'warm look: an answer could not be written', {
            error: String(error),
          }),
        )
        .finally(() => {
          this.inFlight--;
          this.lastCall = Date.now();
          if (this.leaving) this.finishIfIdle();
        });
    }
  }

  private async answer(index: number, request: WarmRequest): Promise<void> {
    const agent = await askingAgent(request, this.options.served);
    const { answer, transcriptPath } = agent
      ? await this.buffer.hold(() => lookFor(request, { ...this.options.served, agent }))
      : { answer: { id: request.id, out: '', lookHere: true }, transcriptPath: null };
    const slot = this.slots[index]!;
    // Its caller gave up and another holds the slot now: that one's answer is the only one due.
    if (slot.latest === request.id) await this.write(slot, answer);
    if (transcriptPath && agent) this.readAhead.follow(transcriptPath, agent);
    this.saveSoon();
  }

  private async write(slot: Slot, answer: WarmAnswer): Promise<void> {
    // An answer a caller gave up on is still in the pipe: it goes before this one is written.
    drain(slot.answers);
    const frame = Buffer.from(encodeAnswer(answer));
    // An answer longer than the pipe holds waits for its caller to read; one that left is not
    // waited for long (the next caller of the slot skips what is left of it).
    const deadline = Date.now() + 5_000;
    let written = 0;
    while (written < frame.length) {
      try {
        written += writeSync(slot.answers, frame, written);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > deadline)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    this.answered++;
  }

  /** Writes the files the looks replaced, once the answers already due are out. */
  private saveSoon(): void {
    if (this.saving) return;
    this.saving = true;
    setImmediate(() => {
      this.saving = false;
      this.save();
    });
  }

  private save(): void {
    // SHIM_HOME deleted (an uninstall with --purge, a test's scratch): nothing is written back,
    // not even the log, which would make it again.
    if (!existsSync(this.home)) {
      this.buffer.clear();
      return;
    }
    for (const { path, error } of this.buffer.flush())
      appendLog(this.home, 'warn', 'warm look: a file could not be saved', { path, error });
    void this.buffer.startJobs();
  }

  private check(): void {
    if (this.leaving) return;
    // Retired by a hook that got no answer in time, or SHIM_HOME deleted.
    if (readWarmLookOwner(this.dir) !== process.pid) return this.leave(false);
    if (this.inFlight === 0 && Date.now() - this.lastCall > this.options.idleMs)
      return this.leave();
    this.readAhead.sweep(this.options.idleMs);
    // Looked after between calls, not while they come: replacing a file costs a call's time.
    if (Date.now() - this.lastCall < QUIET_MS) return;
    freeAbandonedSlots(this.dir);
    if (this.answered !== this.answeredWritten) {
      const stats: WarmLookStats = {
        pid: process.pid,
        answered: this.answered,
        startedAt: new Date(this.startedAt).toISOString(),
      };
      try {
        writeFileSafely(statsFile(this.dir), JSON.stringify(stats));
        this.answeredWritten = this.answered;
      } catch {
        // Moved aside this instant: the next look says it.
      }
    }
  }

  leave(moveAside = true): void {
    if (this.leaving) return;
    this.leaving = true;
    if (moveAside) {
      const closing = `${this.dir}.closing-${process.pid}`;
      try {
        renameSync(this.dir, closing);
        this.closing = closing;
      } catch {
        // Retired or removed meanwhile.
      }
    }
    if (existsSync(this.home))
      appendLog(this.home, 'info', 'warm look: leaving', { dir: this.dir });
    // Callers that opened a pipe before it moved still write into it: answered for a while.
    setTimeout(() => {
      this.graceOver = true;
      this.finishIfIdle();
    }, GRACE_MS);
  }

  private finishIfIdle(): void {
    if (!this.graceOver || this.inFlight > 0 || this.finished) return;
    this.finished = true;
    this.readAhead.close();
    this.save();
    for (const slot of this.slots) closeSlot(slot);
    for (const path of [this.closing, ...retiredCopies(this.dir)]) {
      if (path) rmSync(path, { recursive: true, force: true });
    }
    this.done();
  }
}

/**
 * The agent whose hook asks: the one its request names (Codex's, Gemini's), else the process's
 * own. Null for an agent this build does not know (the hook then answers itself).
 */
async function askingAgent(request: WarmRequest, served: Served): Promise<Agent | null> {
  if (request.agent === undefined || request.agent === served.agent.id) return served.agent;
  return isAgentId(request.agent) ? served.agents.agent(request.agent) : null;
}

/**
 * The hook's answer, as its own process would have given it: the quick answer where one needs no
 * look (quick-run.ts), else the full look with the payload and config the quick one read. A
 * project whose config says `warmLook: false` is answered by its hooks themselves.
 */
async function lookFor(
  request: WarmRequest,
  served: Served,
): Promise<{ answer: WarmAnswer; transcriptPath: string | null }> {
  const { id, event, input, env } = request;
  const { agent, agents } = served;
  const quick = await answerQuickly(agent, event, input, env);
  if (quick.out !== null)
    return { answer: { id, out: quick.out }, transcriptPath: quick.transcriptPath ?? null };
  if (!quick.handover)
    return {
      answer: { id, out: await runHook({ agent, agents, event, input, env }) },
      transcriptPath: null,
    };
  const { payload, config } = quick.handover;
  if (!config.warmLook) return { answer: { id, out: '', lookHere: true }, transcriptPath: null };
  // The hook's own directory stands in where the payload names none (process.cwd() in a hook).
  const out = await runHook({
    agent,
    agents,
    event,
    input,
    env,
    handover: {
      payload: { ...payload, cwd: payload.cwd ?? request.cwd },
      config,
      parentPid: request.parentPid,
    },
  });
  return { answer: { id, out }, transcriptPath: payload.transcriptPath };
}

/**
 * `shim background warm-look`, started by a hook that found no warm process (start.ts). Runs
 * from dist/hook.cjs, the look's own code, which it keeps compiled and warm.
 */
/** The agent whose hooks the process answers, and every agent (a session that moved between them). */
export type Served = { agent: Agent; agents: Agents };

export async function runWarmLook(served: Served, loadBundle?: BundleLoader): Promise<void> {
  if (loadBundle) useBundleLoader(loadBundle);
  const home = getShimHome(process.env);
  const dir = currentWarmLookDir(home);
  if (!dir) {
    process.stderr.write(
      'shim background warm-look: runs from the built bundle on Linux or macOS only\n',
    );
    process.exitCode = 2;
    return;
  }
  const idle = Number(process.env.SHIM_WARM_LOOK_IDLE_MS);
  // A fault outside a look (each look's own are caught and logged by runHook): said in the log,
  // then the process ends; its callers see their pipes close and look themselves.
  process.on('uncaughtException', (error) => {
    appendLog(home, 'error', 'warm look: stopped by an error', {
      error: error.stack ?? String(error),
    });
    process.exit(1);
  });
  try {
    await serveWarmLooks(dir, home, { idleMs: idle > 0 ? idle : IDLE_MS, served });
  } catch (error) {
    appendLog(home, 'error', 'warm look: could not serve (the hooks look in their own process)', {
      error: String(error),
    });
    process.exitCode = 1;
  }
  // Nothing else is left to wait for: the pipes are closed, the timers cleared.
  process.exit();
}
