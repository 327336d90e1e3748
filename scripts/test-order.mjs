// In which order and in which batches scripts/test.mjs runs a group's files. Node's test runner
// starts a group's files N at a time, in the order of their paths (it sorts them: each file goes
// to it through a link named by its rank, scripts/compile-tests.mjs `ordered`): the longest files
// go first, so that the group does not end with one long file running alone (by name, the e2e
// group's two slowest files came last, and the inner loop's warm-look files). The CPU-bound groups are cut into batches of about equal time, each
// one run of its own, so that a lane done with its own groups takes a share of the other lane's
// work rather than waiting for it.
//
// A file's time is its wall time in the latest run that ran it: scripts/test-times.json (in the
// repository: CI's clean clone starts from it), then what this checkout's own runs measured
// (node_modules/.cache/shim-tests/times.json, written after each run). A file neither knows
// counts as its group's median.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SHARED = ['scripts', 'test-times.json'];
const LOCAL = ['node_modules', '.cache', 'shim-tests', 'times.json'];

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

/** Each known file's wall time (ms): the repository's figures, this checkout's newer ones. */
export function readTimes(root) {
  return { ...readJson(join(root, ...SHARED)), ...readJson(join(root, ...LOCAL)) };
}

/**
 * Adds a run's file times (file → ms) to this checkout's own; with `shared`, to the
 * repository's scripts/test-times.json too (`node scripts/test.mjs --save-times`).
 */
export function saveTimes(root, measured, { shared = false } = {}) {
  const rounded = Object.fromEntries(
    Object.entries(measured)
      .filter(([, ms]) => Number.isFinite(ms))
      .map(([file, ms]) => [file, Math.round(ms)]),
  );
  const targets = [join(root, ...LOCAL), ...(shared ? [join(root, ...SHARED)] : [])];
  for (const path of targets) {
    const merged = { ...readJson(path), ...rounded };
    const sorted = Object.fromEntries(
      Object.keys(merged)
        .sort()
        .map((k) => [k, merged[k]]),
    );
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}

/** The files' times as weights: a file without one counts as the median of those with one. */
export function weigh(files, times) {
  const known = files
    .map((f) => times[f])
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1000;
  return new Map(files.map((f) => [f, Number.isFinite(times[f]) ? times[f] : median]));
}

/**
 * The files in `count` batches of about equal weight (the heaviest file into the lightest batch,
 * in turn), each batch longest first; `count` 1 is the files longest first. Ties keep the files'
 * given (alphabetical) order, so a run's order does not change between two runs with equal times.
 */
export function batch(files, times, count = 1) {
  const weight = weigh(files, times);
  const order = files
    .map((file, index) => ({ file, index }))
    .sort((a, b) => weight.get(b.file) - weight.get(a.file) || a.index - b.index)
    .map(({ file }) => file);
  const n = Math.max(1, Math.min(count, order.length));
  const batches = Array.from({ length: n }, () => ({ files: [], weight: 0 }));
  for (const file of order) {
    const lightest = batches.reduce((min, b) => (b.weight < min.weight ? b : min));
    lightest.files.push(file);
    lightest.weight += weight.get(file);
  }
  return batches.map((b) => b.files);
}
