/**
 * Loaded into every test file's process by scripts/test.mjs (`--import`).
 *
 * A test file exits as soon as its last test is done. A timer, server, socket or child process a
 * test leaves behind keeps the file's process alive (the runner waits for it) and the whole suite
 * with it: a mock's 120 s answer timer once cost three e2e files ~115 s each. Once the file's
 * tests and its `after` hooks have all finished, a process still alive SHIM_TEST_EXIT_GRACE_MS
 * later (default 20 s) names what holds it and exits 1, so the file fails instead of idling. The
 * grace starts when the last hook ends, however long the hooks took (stopping a PostgreSQL server
 * under load may take a while): no file fails for being slow, only for lingering.
 *
 * And it says what it cost: with SHIM_TEST_CPU_LOG set, the process appends one line at exit,
 * `<file>\t<cpu ms>`, the user + system time of itself and of every child it waited for (the
 * shim processes, CLIs and servers its tests ran; Linux only), so a run can name its costliest
 * files. A process several files share (scripts/test-share.mjs) names them all when it is held,
 * and each of its files logs its own time.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { sourceOf } from '../../scripts/compile-tests.mjs';

const GRACE_MS = Number(process.env.SHIM_TEST_EXIT_GRACE_MS ?? 20_000);
// Always present in a runner's child and never what holds it.
const NOT_HOLDING = new Set(['PipeWrap', 'TTYWrap']);

function holders(): string {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo())
    if (!NOT_HOLDING.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind)).join(', ') || 'nothing';
}

/** utime + stime + cutime + cstime of this process, in ms (clock ticks of 10 ms); null off Linux. */
function cpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "(comm) " the state is field 3: utime 14, stime 15, cutime 16, cstime 17.
    const ticks = [14, 15, 16, 17].reduce((sum, field) => sum + Number(fields[field - 3]), 0);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

type Hook = (...args: unknown[]) => unknown;
type AfterFn = (fn?: Hook, options?: object) => void;

/**
 * Counts the `after` hooks running: node:test's `after` is wrapped (and its ES-module export
 * synced, so `import { after } from 'node:test'` gets the wrapper) so each hook says when it
 * starts and ends, whether it returns a promise or calls `done`.
 */
function trackAfterHooks(): {
  original: AfterFn;
  idleSince: () => number | null;
  testsEnded: () => void;
} {
  const nodeTest = createRequire(import.meta.url)('node:test') as { after: AfterFn };
  const original = nodeTest.after;
  let running = 0;
  let lastEnded = Date.now();
  const ended = () => {
    running--;
    lastEnded = Date.now();
  };
  nodeTest.after = (fn, options) => {
    if (typeof fn !== 'function') return original(fn, options);
    const tracked: Hook =
      fn.length >= 2
        ? (function (this: unknown, context: unknown, done: (error?: unknown) => void) {
            running++;
            fn.call(this, context, (error?: unknown) => {
              ended();
              done(error);
            });
          } as Hook)
        : async function (this: unknown, ...args: unknown[]) {
            running++;
            try {
              return await fn.apply(this, args);
            } finally {
              ended();
            }
          };
    return original(tracked, options);
  };
  syncBuiltinESMExports();
  return {
    original,
    idleSince: () => (running > 0 ? null : lastEnded),
    // The grace never counts from before the tests ended (a file with no after hook of its own).
    testsEnded: () => {
      lastEnded = Math.max(lastEnded, Date.now());
    },
  };
}

// Only in the runner's children (the runner itself loads this too, and runs no tests).
if (process.env.NODE_TEST_CONTEXT) {
  // A compiled test file (scripts/compile-tests.mjs) is named by its source.
  const file = process.argv[1] ? sourceOf(process.argv[1]) : 'this test file';
  // The files of a shared process (scripts/test-share.mjs), set by its entry once loaded: each
  // logs its own CPU time, and what holds the process is told with their names.
  const sharedFiles = () =>
    (globalThis as Record<symbol, string[] | undefined>)[Symbol.for('shim.test.sharedFiles')];
  const log = process.env.SHIM_TEST_CPU_LOG;
  if (log)
    process.once('exit', () => {
      const ms = cpuMs();
      if (ms !== null && !sharedFiles()) appendFileSync(log, `${file}\t${ms}\n`);
    });
  if (Number.isFinite(GRACE_MS) && GRACE_MS > 0) {
    const hooks = trackAfterHooks();
    // Registered first, so it runs before the file's own root-level `after` hooks: from then on
    // it looks once a second (never holding the process) for the hooks to be over and the grace
    // to have passed since the last one ended.
    hooks.original(() => {
      hooks.testsEnded();
      const watch = setInterval(
        () => {
          const idleSince = hooks.idleSince();
          if (idleSince === null || Date.now() - idleSince < GRACE_MS) return;
          clearInterval(watch);
          const shared = sharedFiles();
          process.stderr.write(
            `${shared ? `the process shared by ${shared.join(', ')}` : file}: its tests and hooks finished ${((Date.now() - idleSince) / 1000).toFixed(1)} s ago and its process is still held by ${holders()}. ` +
              'End what the tests start (mocks, servers, timers, CLIs) in t.after() or the test itself (see test/helpers/answer-holds.ts).\n',
          );
          process.exit(1);
        },
        Math.min(1_000, GRACE_MS),
      );
      watch.unref();
    });
  }
}
