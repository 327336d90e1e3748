/**
 * The compaction threshold `shim loop` judges an iteration by (iteration-monitor.ts): the rule
 * of the agent running now, for the model and CLI version its stream names, resolved as the
 * hooks resolve it; the documented 200k default when the agent has none or it fails.
 * @module
 */
import type { AgentId } from '../core/agent-id.ts';
import { createSessionState } from '../core/session.ts';
import type { ThresholdRequest, ThresholdRules } from '../agents/agent.ts';
import type { ThresholdInfo } from './iteration-monitor.ts';

/** The documented default for a 200k window, when the threshold cannot be resolved. */
export const FALLBACK_THRESHOLD: ThresholdInfo = {
  compactThreshold: 167_000,
  windowTokens: 200_000,
  detail: 'default (could not resolve)',
};

/** The agent's threshold for `model` / `cliVersion`; null when it has no rule or it fails. */
export function agentThreshold(
  of: { agent: AgentId; rules: ThresholdRules | null } | null,
  model: string | null,
  cliVersion: string | null,
  context: Pick<ThresholdRequest, 'env' | 'home' | 'now' | 'history'>,
): ThresholdInfo | null {
  if (!of?.rules) return null;
  const { agent, rules } = of;
  try {
    const session = createSessionState(agent);
    session.model = model;
    session.cliVersion = cliVersion;
    const threshold = rules
      .prepare(session, { ...context, inside: null, reportedWindow: null })
      .threshold(session);
    return {
      compactThreshold: threshold.compactThreshold,
      windowTokens: threshold.windowTokens,
      detail: threshold.detail,
    };
  } catch {
    return null; // fail safe: the default
  }
}
