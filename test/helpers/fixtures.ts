/**
 * Real transcripts and other repositories' data for tests and the bench. They are not part of
 * the project: they are read from `../shared/fixtures` next to the checkout, or from the
 * directory in `SHIM_FIXTURES_DIR`. When that is missing, one line says so and the listings are
 * empty (tests that loop over them run none; `.ci/run` refuses to run without them).
 *
 * Layout read: `real-transcripts/*.jsonl` (plain or `.jsonl.gz`), `training-transcripts/
 * *.jsonl.gz`, `agents/{codex,gemini}/*.json[l].gz` (other agents' real logs),
 * `secrets/gitleaks-samples.json`. Copies (decompressed or compressed) are made once
 * per process in a temp dir.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/** Root of the shared fixtures: `$SHIM_FIXTURES_DIR`, else `../shared/fixtures` beside the repo. */
export const SHARED_FIXTURES_DIR =
  process.env.SHIM_FIXTURES_DIR ||
  join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures');

export const FIXTURE_DIR = join(SHARED_FIXTURES_DIR, 'real-transcripts');
export const TRAINING_DIR = join(SHARED_FIXTURES_DIR, 'training-transcripts');
export const SECRETS_DIR = join(SHARED_FIXTURES_DIR, 'secrets');
export const AGENT_FIXTURES_DIR = join(SHARED_FIXTURES_DIR, 'agents');

let told = false;

/**
 * False when `dir` exists; otherwise the reason (also printed once per process), usable as
 * node:test's `skip` option.
 */
export function sharedFixturesMissing(dir = FIXTURE_DIR): string | false {
  if (existsSync(dir)) return false;
  const reason = `shared fixtures not found at ${dir}: tests reading them are skipped (set SHIM_FIXTURES_DIR)`;
  if (!told) {
    told = true;
    process.stderr.write(`${reason}\n`);
  }
  return reason;
}

/** Skip reason for tests that need the real transcripts, or false when they are present. */
export const FIXTURES_MISSING = sharedFixturesMissing();

let extracted: string | null = null;

function scratch(): string {
  if (extracted === null) {
    const dir = mkdtempSync(join(tmpdir(), 'shim-fixtures-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    extracted = dir;
  }
  return extracted;
}

/** The fixture's bytes, decompressed, whichever form the shared directory holds it in. */
function readFixture(dir: string, name: string): Buffer {
  const plain = join(dir, name);
  if (existsSync(plain)) return readFileSync(plain);
  const gz = `${plain}.gz`;
  if (existsSync(gz)) return gunzipSync(readFileSync(gz));
  throw new Error(
    `fixture ${name} not found in ${dir} (set SHIM_FIXTURES_DIR to the shared fixtures)`,
  );
}

function listIn(dir: string): string[] {
  if (sharedFixturesMissing(dir)) return [];
  return [
    ...new Set(
      readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl') || f.endsWith('.jsonl.gz'))
        .map((f) => f.replace(/\.gz$/, '')),
    ),
  ].sort();
}

/** Names of the real transcripts without `.gz`, e.g. `spotter-short-v2.1.38.jsonl`. */
export function listFixtures(): string[] {
  return listIn(FIXTURE_DIR);
}

/** Path of a decompressed copy of the fixture, e.g. fixturePath('spotter-short-v2.1.38.jsonl'). */
export function fixturePath(name: string): string {
  const target = join(scratch(), name);
  if (!existsSync(target)) writeFileSync(target, readFixture(FIXTURE_DIR, name));
  return target;
}

/** Path of a gzip-compressed copy of the fixture (`<name>.gz`), for readers of `.jsonl.gz`. */
export function gzFixturePath(name: string): string {
  const target = join(scratch(), `${name}.gz`);
  if (!existsSync(target)) writeFileSync(target, gzipSync(readFixture(FIXTURE_DIR, name)));
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

/** Training fixture names without `.gz`; `pos-*` have auto compactions, `neg-*` have none. */
export function listTrainingFixtures(): string[] {
  return listIn(TRAINING_DIR);
}

/** Path of a decompressed copy of a training fixture, e.g. trainingFixturePath('pos-13340918e71b-0.jsonl'). */
export function trainingFixturePath(name: string): string {
  const target = join(scratch(), `training-${name}`);
  if (!existsSync(target)) writeFileSync(target, readFixture(TRAINING_DIR, name));
  return target;
}

/** Path of a gzip-compressed training fixture (the shared copy when it is stored compressed). */
export function gzTrainingFixturePath(name: string): string {
  const shared = join(TRAINING_DIR, `${name}.gz`);
  if (existsSync(shared)) return shared;
  const target = join(scratch(), `training-${name}.gz`);
  if (!existsSync(target)) writeFileSync(target, gzipSync(readFixture(TRAINING_DIR, name)));
  return target;
}

/** Real session logs of another agent (`codex`, `gemini`), names without `.gz`. */
export function listAgentFixtures(agent: 'codex' | 'gemini'): string[] {
  const dir = join(AGENT_FIXTURES_DIR, agent);
  if (sharedFixturesMissing(dir)) return [];
  return [
    ...new Set(
      readdirSync(dir)
        .filter((f) => /\.jsonl?(\.gz)?$/.test(f))
        .map((f) => f.replace(/\.gz$/, '')),
    ),
  ].sort();
}

/** Path of a decompressed copy of another agent's log, e.g. agentFixturePath('codex', 'x.jsonl'). */
export function agentFixturePath(agent: 'codex' | 'gemini', name: string): string {
  const target = join(scratch(), `${agent}-${name}`);
  if (!existsSync(target))
    writeFileSync(target, readFixture(join(AGENT_FIXTURES_DIR, agent), name));
  return target;
}
