/**
 * The rare, heavy half of the hooks: the events that open the store, build checkpoints or
 * render restores. Bundled separately (dist/hook-heavy.cjs) so the per-tool-call hooks do not
 * parse it.
 * @module
 */
import { redactValueSync } from '../redact/redact.ts';
import { useLogRedaction } from '../store/home/log.ts';

export { checkpointNow } from './checkpoint-now.ts';
export { handlePostCompact } from './handlers/post-compact.ts';
export { handlePreCompact } from './handlers/pre-compact.ts';
export { handleSessionEnd } from './handlers/session-end.ts';
export { handleSessionStart } from './handlers/session-start.ts';
export { handleStopFailure } from './handlers/stop-failure.ts';
export { writeLevelHandoff } from './level-handoff.ts';
export { warnAboutPlan, warnAboutTasks } from '../app/tasks/plan-warning.ts';
export { restoreBeforeCompaction } from './compaction-restore.ts';

// The log's entries pass the redactor this bundle carries (store/log.ts).
useLogRedaction(redactValueSync);
