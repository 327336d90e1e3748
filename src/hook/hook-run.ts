/**
 * What every hook handler is given. Kept apart from the entry file (run.ts), which loads the
 * handlers lazily, so that handlers and entry do not import each other.
 * @module
 */
import type { SessionState } from '../core/session.ts';
import type { ShimConfig } from '../store/config/config.ts';
import type { Env } from '../store/home/home.ts';
import type { Agent, Agents, HookOutput, HookPayload, QuickAgent } from '../agents/agent.ts';
import type { TeamPullStarted } from '../app/team/pull-at-start.ts';

export type HookRun = {
  payload: HookPayload;
  env: Env;
  home: string;
  now: number;
  /** Loaded leniently: a bad file leaves the defaults and a problem to report. */
  config: ShimConfig;
  /** dist/hook-quick.cjs already found no quick answer for this call (do not ask again). */
  quickAsked?: boolean;
  /**
   * The hook process's parent, when the look runs in another process (the warm look): who the
   * agent is is told from it (capture/agent-process.ts).
   */
  parentPid?: number;
  /** The agent that ran the hook: its entry handed it in (`shim hook --agent <id>`). */
  agent: Agent;
  /** Every agent, for a session that moved between them (a restore from another agent's log). */
  agents: Agents;
  /**
   * The session as this event already read it (the Gemini hook's compression check), with the
   * byte offset it was folded to: the handler's look starts from it instead of reading again.
   */
  read?: { state: SessionState; offset: number | null };
  /**
   * SessionStart: the team store's pull, started by the runner before it loaded the handler
   * (null: none is due); the handler waits for it (app/team/pull-at-start.ts).
   */
  teamPull?: TeamPullStarted | null;
};

/**
 * What dist/hook-quick.cjs read before handing a call over: the full hook reads it once. The
 * warm look (warm-look/serve.ts) adds the asking hook's parent.
 */
export type QuickHandover = { payload: HookPayload; config: ShimConfig; parentPid?: number };

/** A hook call as the answer without a look sees it. */
export type QuickRun = Pick<HookRun, 'payload' | 'env' | 'home' | 'now' | 'config'> & {
  agent: QuickAgent;
};

export type HookHandler = (run: HookRun) => Promise<HookOutput>;
