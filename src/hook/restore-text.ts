/**
 * A restore as a hook injects it: rendered for the agent the hook serves (its name, task tools,
 * instruction files) and within what that agent takes from one hook (`hooks.textLimit`).
 * @module
 */
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../core/resume/resume.ts';
import { renderRestoreFor, type RestoreOptions } from '../app/restore/render-restore.ts';
import type { HookRun } from './hook-run.ts';

export function renderForHook(
  run: Pick<HookRun, 'agent'>,
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options: Omit<RestoreOptions, 'maxChars'> = {},
): string {
  return renderRestoreFor(checkpoint, detection, run.agent, options);
}
