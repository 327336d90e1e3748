/** Real transcript fixtures (gzipped in the repo), decompressed once per process into a temp dir. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'transcripts');

let extracted: string | null = null;

/** Names of the fixtures without `.gz`, e.g. `spotter-short-v2.1.38.jsonl`. */
export function listFixtures(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.jsonl.gz'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Path of a decompressed copy of the fixture, e.g. fixturePath('spotter-short-v2.1.38.jsonl'). */
export function fixturePath(name: string): string {
  if (extracted === null) {
    const dir = mkdtempSync(join(tmpdir(), 'shim-fixtures-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    extracted = dir;
  }
  const target = join(extracted as string, name);
  try {
    readFileSync(target, { flag: 'r' });
  } catch {
    writeFileSync(target, gunzipSync(readFileSync(join(FIXTURE_DIR, `${name}.gz`))));
  }
  return target;
}

/** Fixtures whose main chain has at least one auto compaction. */
export const AUTO_COMPACT_FIXTURES = [
  'entire-2372de7ea2ff-auto-compact-155k-todowrite-v2.1.5.jsonl',
  'entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl',
  'entire-b02936744f3b-2x-auto-compact-api-errors-v2.1.5.jsonl',
  'entire-ed51f6581660-auto-compact-v2.1.42.jsonl',
  'spotter-4d5611e5-auto-compact-v2.1.39.jsonl',
];

/** A scratch directory for one test. */
export function makeTempDir(prefix = 'shim-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** 47 more real sessions (see test/fixtures/training-transcripts/SOURCES.md) for leave-one-out evaluation. */
export const TRAINING_DIR = join(import.meta.dirname, '..', 'fixtures', 'training-transcripts');

/** Training fixture names without `.gz`; `pos-*` have auto compactions, `neg-*` have none. */
export function listTrainingFixtures(): string[] {
  return readdirSync(TRAINING_DIR)
    .filter((f) => f.endsWith('.jsonl.gz'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Path of a decompressed copy of a training fixture, e.g. trainingFixturePath('pos-13340918e71b-0.jsonl'). */
export function trainingFixturePath(name: string): string {
  fixturePath(listFixtures()[0] as string); // makes the shared temp dir
  const target = join(extracted as string, `training-${name}`);
  try {
    readFileSync(target, { flag: 'r' });
  } catch {
    writeFileSync(target, gunzipSync(readFileSync(join(TRAINING_DIR, `${name}.gz`))));
  }
  return target;
}
