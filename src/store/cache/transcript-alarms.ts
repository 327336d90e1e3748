/**
 * Sessions whose transcript Claude Code stopped writing (core/policy/transcript-watch.ts), one small
 * file each under SHIM_HOME/cache/transcript-alarms/, so the hook that noticed can say it once and
 * `shim doctor` can repeat it without opening the database.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptAlarm } from '../../core/policy/transcript-watch.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';

export type TranscriptAlarmRecord = {
  sessionId: string;
  transcriptPath: string;
  cwd: string | null;
  alarm: TranscriptAlarm;
  toolCalls: number;
  at: string;
};

const DIR = ['cache', 'transcript-alarms'] as const;

export function recordTranscriptAlarm(home: string, record: TranscriptAlarmRecord): void {
  const dir = ensureDir(home, ...DIR);
  writeJsonFileAtomic(join(dir, `${safeFileName(record.sessionId)}.json`), record);
}

/** Alarms raised since `sinceMs`, newest first. */
export function listTranscriptAlarms(home: string, sinceMs: number): TranscriptAlarmRecord[] {
  const dir = join(home, ...DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: TranscriptAlarmRecord[] = [];
  for (const name of names) {
    try {
      if (statSync(join(dir, name)).mtimeMs < sinceMs) continue;
    } catch {
      continue;
    }
    const value = readJsonFile(join(dir, name)) as TranscriptAlarmRecord | null;
    if (value && typeof value.sessionId === 'string') out.push(value);
  }
  return out.sort((a, b) => b.at.localeCompare(a.at));
}
