/**
 * Copies of the files shim changes, taken first: SHIM_HOME/backups/<file>-<time>.json, named
 * after the file (`settings-…` for settings.json, `claude-…` for ~/.claude.json, `mcp-…`).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ensureDir } from '../../../store/home/home.ts';

/** Writes `bytes` to a new backup file (owner-only, never over another one) and returns its path. */
export function writeBackup(home: string, bytes: Buffer, now: Date, original: string): string {
  const dir = ensureDir(home, 'backups');
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const name =
    basename(original)
      .replace(/^\./, '')
      .replace(/\.json$/, '')
      .replace(/[^\w-]/g, '_') || 'settings';
  for (let n = 1; ; n++) {
    const path = join(dir, `${name}-${stamp}${n === 1 ? '' : `-${n}`}.json`);
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
