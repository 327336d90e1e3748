/**
 * The agent a restore goes into, as the one restore renderer (resume-prompt.ts) needs it: plain
 * fields of that agent's adapter (src/agents/agent.ts), handed in as a value, so the renderer
 * never asks which agent it is.
 * @module
 */
import type { AgentId } from '../agent-id.ts';

export type RestoreTarget = {
  id: AgentId;
  /** "Codex CLI": how the restore names it (its adapter's `name`). */
  name: string;
  /** The longest text it takes from one hook uncut (`hooks.textLimit`): the restore's hard limit. */
  textLimit: number;
  /** The tools that set its task list (`capabilities.taskTools`): named for rebuilding the list. */
  taskTools: readonly string[];
  /** The files it reads as standing instructions (`instructions.names`). */
  instructionFiles: readonly string[];
};
