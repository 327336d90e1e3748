/**
 * The handoff written when the context reaches L2 (a handoff document, seed CHK-003) or L3 (one
 * with maximum preservation, CHK-005), next to the checkpoint the level triggered. Part of the
 * heavy hook bundle: it opens the store.
 * @module
 */
import { withStore } from '../app/open-store.ts';
import { writeHandoff } from '../app/write-handoff.ts';
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import { appendLog } from '../store/home/log.ts';
import type { ProjectFilesSetting } from '../app/project-files.ts';

export async function writeLevelHandoff(
  home: string,
  checkpoint: Checkpoint,
  level: 'L2' | 'L3',
  now: number,
  projectFiles: ProjectFilesSetting,
): Promise<string | null> {
  try {
    return await withStore(
      home,
      async (store) =>
        (
          await writeHandoff(store, home, {
            checkpoint,
            kind: `level_${level}`,
            detection: null,
            now,
            projectFiles,
          })
        ).path,
    );
  } catch (error) {
    appendLog(home, 'error', `${level} handoff not written`, { error: String(error) });
    return null;
  }
}
