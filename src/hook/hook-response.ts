/**
 * Whether the folded transcript already holds the response a hook event is about. Claude Code
 * runs a tool as soon as its block has streamed and writes the response's transcript entry only
 * once the response has ended, asynchronously: PostToolUse (and, on a slow write, Stop) can run
 * before that entry is on disk, and a level judged then rests on the response before it —
 * before a compaction boundary, even (docs/claude-code.md, "The transcript lags the hooks").
 * @module
 */
import type { SessionState } from '../core/session.ts';
import type { HookPayload } from '../agents/agent.ts';

/**
 * true: the newest response on disk is the one the event is about; false: it is not on disk
 * yet; null: the event does not say which response it is about (a subagent's tool call, an
 * older CLI without `tool_use_id`), so the newest one on disk stands.
 */
export function holdsHookResponse(state: SessionState, payload: HookPayload): boolean | null {
  const raw = payload.raw;
  // What is known of the write order is Claude Code's; another agent's event named as shim's
  // (Gemini's AfterTool as PostToolUse) is not judged by it.
  if (raw.hook_event_name !== payload.event) return null;
  switch (payload.event) {
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const id = raw.tool_use_id;
      // A subagent's call belongs to its own transcript, not to the main chain folded here.
      if (typeof id !== 'string' || id === '' || typeof raw.agent_id === 'string') return null;
      return state.current?.toolUseIds.includes(id) ?? false;
    }
    case 'Stop':
      return endedTurnOnDisk(state);
    default:
      return null;
  }
}

/**
 * At Stop the newest response is the one that ended the turn: it asks for no tool and came after
 * the last input (a prompt or a tool result). One that asks for a tool, or predates the last
 * input, means the turn's last response is still being written.
 */
function endedTurnOnDisk(state: SessionState): boolean | null {
  const current = state.current;
  // No response since a compaction (or none at all): nothing stale can be judged.
  if (!current) return null;
  if (current.toolUseIds.length > 0) return false;
  if (current.at === null || state.lastInputAt === null) return true;
  return current.at >= state.lastInputAt;
}
