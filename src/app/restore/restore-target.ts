/**
 * The agent a restore goes into, as a value for the one restore renderer
 * (core/resume/restore-target.ts): read from the plain fields of the agent handed in
 * (src/agents/agent.ts), never chosen here.
 * @module
 */
import type { Agent } from '../../agents/agent.ts';
import type { RestoreTarget } from '../../core/resume/restore-target.ts';

/** The parts of an agent a restore needs. */
export type RestoreTargetSource = Pick<Agent, 'id' | 'name'> & {
  hooks: Pick<Agent['hooks'], 'textLimit'>;
  capabilities: Pick<Agent['capabilities'], 'taskTools'>;
  instructions: Agent['instructions'];
};

export function restoreTargetOf(agent: RestoreTargetSource): RestoreTarget {
  return {
    id: agent.id,
    name: agent.name,
    textLimit: agent.hooks.textLimit,
    taskTools: agent.capabilities.taskTools,
    instructionFiles: agent.instructions.names,
  };
}
