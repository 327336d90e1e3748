/** Copies of settings files taken before shim changes them: SHIM_HOME/backups/settings-<time>.json. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir } from '../../store/home.ts';

/** Writes `bytes` to a new backup file (owner-only, never over another one) and returns its path. */
export function writeBackup(home: string, bytes: Buffer, now: Date): string {
  const dir = ensureDir(home, 'backups');
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 1; ; n++) {
    const path = join(dir, `settings-${stamp}${n === 1 ? '' : `-${n}`}.json`);
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return path;
  }
}
