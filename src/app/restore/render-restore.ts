/**
 * Every restore's text, through the one renderer (core/resume/resume-prompt.ts): the hooks' restores
 * (session start, after a compaction, before Gemini compresses, the relay, a usage-limit handoff),
 * `shim resume --print --for`, the loop's switch of agent, `shim show`, the dashboard and the MCP
 * tool. The agent it goes into comes as a value (restore-target.ts); the checkpoint from whatever
 * agent and store the work came from.
 *
 * What it prints goes into the next session's first request: it passes the redactor as printed,
 * whatever was stored (a copy pulled or stored before a value was known to be a secret), with what
 * the home's sessions learned since when the caller holds it (`known`).
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../../core/resume/resume.ts';
import { renderRestore, type RestoreRequest } from '../../core/resume/resume-prompt.ts';
import { redactTextSync, SecretMemory } from '../../redact/redact.ts';
import { restoreTargetOf, type RestoreTargetSource } from './restore-target.ts';

export type RestoreOptions = Pick<RestoreRequest, 'compactSummary' | 'afterClear' | 'maxChars'> & {
  /** The saved lines of what the home's sessions learned are secrets (store `learned`). */
  known?: readonly string[];
};

/** The restore of `checkpoint` for the agent it goes into (the agent value handed in). */
export function renderRestoreFor(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  target: RestoreTargetSource,
  options: RestoreOptions = {},
): string {
  const { known, ...rest } = options;
  const text = renderRestore({ checkpoint, detection, target: restoreTargetOf(target), ...rest });
  return redactTextSync(text, SecretMemory.from(known)).text;
}
