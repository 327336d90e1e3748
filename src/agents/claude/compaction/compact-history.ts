/**
 * The user's own evidence of where Claude Code auto-compacts: every main-chain auto
 * `compact_boundary` in their transcripts, with the CLI version and model it happened under.
 *
 * Scanning looks for the boundary marker in raw bytes and parses only matching lines, and a
 * cache under SHIM_HOME remembers how far each file was scanned, so later calls read only
 * appended bytes.
 * @module
 */
import { closeSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { classifyCompaction } from '../../../core/context/compaction-kind.ts';
import type { CompactSample } from '../../../core/context/threshold.ts';
import { getContextTokens, readEntry, type TranscriptEntry } from '../entry.ts';
import { ensureDir, type Env } from '../../../store/home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../../../store/home/json-file.ts';
import { listAllTranscripts } from '../sessions.ts';
import { openLogFile } from '../../../transcript/open-log.ts';

/** 2: samples carry the last response's context and the compaction's kind. */
const CACHE_VERSION = 2;
const MARKER = Buffer.from('"subtype":"compact_boundary"');
const ASSISTANT_KEY = Buffer.from('"type":"assistant"');
const USER_KEY = Buffer.from('"type":"user"');
const CHUNK = 4 * 1024 * 1024;
/** How far back from a boundary to look for the last response. */
const LOOKBACK = 512 * 1024;
const MAX_SAMPLES = 500;

type FileProgress = { size: number; offset: number };

export type HistorySample = CompactSample & { at: string | null; file: string };

type HistoryCache = {
  v: typeof CACHE_VERSION;
  scannedAt: number;
  files: Record<string, FileProgress>;
  samples: HistorySample[];
};

export type HistoryOptions = {
  env?: Env;
  /** Re-scan only when the cache is older than this (ms). */
  maxAgeMs?: number;
  /** Stop after reading this many bytes; the rest is scanned next time. */
  byteBudget?: number;
  now?: number;
};

function getCachePath(home: string): string {
  return join(home, 'cache', 'compact-history.json');
}

function readCache(home: string): HistoryCache {
  const value = readJsonFile(getCachePath(home)) as Partial<HistoryCache> | null;
  if (
    value &&
    value.v === CACHE_VERSION &&
    Array.isArray(value.samples) &&
    typeof value.files === 'object'
  ) {
    return value as HistoryCache;
  }
  return { v: CACHE_VERSION, scannedAt: 0, files: {}, samples: [] };
}

type BeforeBoundary = {
  model: string | null;
  lastContextTokens: number | null;
  inputSince: boolean;
  toolsPending: boolean;
  at: number | null;
};

/**
 * Walks back from a boundary to the last main-chain response: its model and context, and
 * whether a prompt or tool result came after it (a compaction with none was an idle one).
 */
function readBeforeBoundary(chunk: Buffer, end: number): BeforeBoundary {
  const floor = Math.max(0, end - LOOKBACK);
  const found: BeforeBoundary = {
    model: null,
    lastContextTokens: null,
    inputSince: false,
    toolsPending: false,
    at: null,
  };
  let lineEnd = end - 1;
  while (lineEnd > floor) {
    const lineStart = chunk.lastIndexOf(0x0a, lineEnd - 1) + 1;
    const line = chunk.subarray(lineStart, lineEnd);
    const within = (key: Buffer) => line.indexOf(key) !== -1;
    if (within(ASSISTANT_KEY) || within(USER_KEY)) {
      let entry: TranscriptEntry | null;
      try {
        entry = readEntry(JSON.parse(line.toString('utf8')));
      } catch {
        entry = null;
      }
      if (entry && !entry.sidechain) {
        if (entry.kind === 'user' && !entry.isCompactSummary && !entry.isMeta) {
          found.inputSince = true;
        } else if (entry.kind === 'assistant' && !entry.synthetic && entry.usage) {
          found.model = entry.model || null;
          found.lastContextTokens = getContextTokens(entry.usage);
          found.toolsPending = !found.inputSince && entry.toolUses.length > 0;
          found.at = entry.at;
          return found;
        }
      }
    }
    if (lineStart === 0) break;
    lineEnd = lineStart - 1;
  }
  return found;
}

/** Parses the boundary line around `markerAt` into a sample, if it is a main-chain auto one. */
function readSample(chunk: Buffer, markerAt: number, file: string): HistorySample | null {
  const lineStart = chunk.lastIndexOf(0x0a, markerAt) + 1;
  const lineEnd = chunk.indexOf(0x0a, markerAt);
  if (lineEnd === -1) return null;
  try {
    const entry = readEntry(JSON.parse(chunk.toString('utf8', lineStart, lineEnd)));
    if (entry.kind !== 'compact' || entry.sidechain || entry.trigger !== 'auto') return null;
    if (entry.preTokens === null) return null;
    const before = readBeforeBoundary(chunk, lineStart);
    const gapMs =
      entry.at !== null && before.at !== null ? Math.max(0, entry.at - before.at) : null;
    const kind = classifyCompaction({
      trigger: entry.trigger,
      preTokens: entry.preTokens,
      lastContextTokens: before.lastContextTokens,
      inputSince: before.inputSince,
      toolsPending: before.toolsPending,
      gapMs,
      idleMarker: entry.idle,
    });
    return {
      cliVersion: entry.cliVersion,
      model: before.model,
      preTokens: entry.preTokens,
      lastContextTokens: before.lastContextTokens,
      kind,
      at: entry.at === null ? null : new Date(entry.at).toISOString(),
      file,
    };
  } catch {
    return null;
  }
}

/** Scans `file` from `from` to `size`; returns the samples and how far it got (whole lines). */
function scanFile(
  file: string,
  from: number,
  size: number,
  budget: { bytes: number },
): { samples: HistorySample[]; offset: number } {
  const samples: HistorySample[] = [];
  let fd: number;
  try {
    fd = openLogFile(file);
  } catch {
    return { samples, offset: from };
  }
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size - from)));
    let offset = from;
    while (offset < size && budget.bytes > 0) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - offset), offset);
      if (n <= 0) break;
      const chunk = buffer.subarray(0, n);
      // Only whole lines count; a boundary cut by the chunk edge is found next round.
      const lastNewline = chunk.lastIndexOf(0x0a);
      if (lastNewline === -1) break;
      const complete = chunk.subarray(0, lastNewline + 1);
      for (let at = complete.indexOf(MARKER); at !== -1; at = complete.indexOf(MARKER, at + 1)) {
        const sample = readSample(complete, at, file);
        if (sample) samples.push(sample);
      }
      offset += complete.length;
      budget.bytes -= complete.length;
    }
    return { samples, offset };
  } finally {
    closeSync(fd);
  }
}

/**
 * The auto-compaction samples in the user's transcripts, refreshed from the files when the
 * cache is older than `maxAgeMs`.
 */
export function loadCompactHistory(home: string, options: HistoryOptions = {}): HistorySample[] {
  const now = options.now ?? Date.now();
  const cache = readCache(home);
  if (now - cache.scannedAt < (options.maxAgeMs ?? 10 * 60 * 1000)) return cache.samples;
  const budget = { bytes: options.byteBudget ?? 512 * 1024 * 1024 };
  const files: Record<string, FileProgress> = {};
  let samples = cache.samples;
  for (const transcript of listAllTranscripts(options.env)) {
    let size: number;
    try {
      size = statSync(transcript.path).size;
    } catch {
      continue;
    }
    const known = cache.files[transcript.path];
    // A shrunk file was replaced: its old samples stay (they happened), the scan restarts.
    const from = known && known.size <= size && known.offset <= size ? known.offset : 0;
    if (from >= size || budget.bytes <= 0) {
      files[transcript.path] = { size, offset: known?.offset ?? 0 };
      continue;
    }
    const scanned = scanFile(transcript.path, from, size, budget);
    if (from === 0) samples = samples.filter((s) => s.file !== transcript.path);
    samples = [...samples, ...scanned.samples];
    files[transcript.path] = { size, offset: scanned.offset };
  }
  samples = samples.slice(-MAX_SAMPLES);
  try {
    ensureDir(home, 'cache');
    writeJsonFileAtomic(getCachePath(home), { v: CACHE_VERSION, scannedAt: now, files, samples });
  } catch {
    // a read-only SHIM_HOME still gets the answer, just without the cache
  }
  return samples;
}
