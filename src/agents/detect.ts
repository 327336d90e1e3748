/**
 * Which agent wrote a session log, from its file name alone (cheap enough for a hook): Codex
 * names rollouts `rollout-<time>-<thread id>.jsonl[.zst]`, Gemini CLI keeps chats as
 * `…/chats/session-<time>-<id>.json[l]`; everything else is a Claude Code transcript. Content
 * sniffing (`AgentAdapter.sessions.sniff`) decides where a name says nothing.
 * @module
 */
import type { AgentId } from '../core/agent-id.ts';

export function agentOfLogPath(path: string): AgentId {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.gz$/, '');
  if (/^rollout-.+\.jsonl(?:\.zst)?$/.test(name)) return 'codex';
  if (/\/chats\/(?:[^/]+\/)?session-[^/]+\.jsonl?(?:\.gz)?$/.test(path)) return 'gemini';
  return 'claude';
}
