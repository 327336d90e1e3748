/**
 * A restore as a hook injects it: rendered for the agent the hook serves (its name, task tools,
 * instruction files) and within what that agent takes from one hook (`hooks.textLimit`), with
 * every value a session of this home learned is a secret replaced as it is printed (the next
 * session's first request carries it).
 * @module
 */
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import type { ResumeDetection } from '../core/resume/resume.ts';
import type { Store } from '../app/open-store.ts';
import { renderRestoreFor, type RestoreOptions } from '../app/restore/render-restore.ts';
import type { HookRun } from './hook-run.ts';

export function renderForHook(
  run: Pick<HookRun, 'agent'>,
  store: Pick<Store, 'learned'>,
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options: Omit<RestoreOptions, 'maxChars' | 'known'> = {},
): string {
  return renderRestoreFor(checkpoint, detection, run.agent, {
    ...options,
    known: store.learned.all().lines,
  });
}
