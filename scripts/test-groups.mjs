// The suite's groups, by folder: a new test file belongs to the group of the folder it sits in,
// with nothing to register. A group says what its files wait on and how many of them run side by
// side: files that mostly wait (a real agent CLI, a PostgreSQL server, a browser) run several at
// once, each with its own ports, homes and temp dirs; files that keep a core busy run one at a
// time, beside the waiting ones rather than crowding them (README, "Development").
//
// `lane`: two lanes run at once, each taking the groups of its kind in this order, then helping
// the other lane with what is left of its groups. With no waiting group to run beside them (the
// inner loop), the CPU-bound groups run one after another, each as many files at once as there
// are cores.
// `batches`: how many runs of about equal time a group's files are cut into when two lanes run,
// so that a lane done with its own groups can take some of them (scripts/test-order.mjs).
// `quick`: part of `npm run test:quick`, the inner loop (no real CLI, no server, no browser).
// `needs`: what the runner installs or checks before the group runs.
// `share`: its files may share test processes, several files one after another in one
// (scripts/test-share.mjs: a file that changes the process runs alone).

/** @typedef {{ name: string, folder: string, what: string, lane: 'cpu' | 'wait', concurrency: number, batches: number, quick: boolean, share: boolean, needs: string[] }} Group */

/**
 * @type {Group[]} First match wins: the deeper folders before the catch-alls. A lane takes its
 * groups in this order: the costliest CPU-bound group first, so the lane that finishes its
 * waiting groups takes the cheaper one.
 */
export const GROUPS = [
  {
    name: 'e2e',
    folder: 'test/e2e',
    what: 'the real Claude Code, Codex and Gemini CLIs against local mock APIs',
    lane: 'wait',
    concurrency: 3,
    batches: 1,
    quick: false,
    share: false,
    needs: ['agent-clis'],
  },
  {
    name: 'team',
    folder: 'test/team',
    what: 'the team store against a real PostgreSQL server',
    lane: 'wait',
    concurrency: 3,
    batches: 1,
    quick: false,
    share: false,
    needs: ['postgresql'],
  },
  {
    name: 'browser',
    folder: 'test/ui',
    what: 'the dashboard in a real Chromium',
    lane: 'wait',
    concurrency: 2,
    batches: 1,
    quick: false,
    share: false,
    needs: ['chromium'],
  },
  {
    name: 'integration',
    folder: 'test',
    what: 'the built shim binary as a user runs it',
    lane: 'cpu',
    // Its files mostly wait on the shim processes they start, each in its own temp dirs and
    // SHIM_HOME: four side by side (2 cores, idle, 2026-11-29: the group's files add up to ~4× its
    // CPU in wall time; the suite took 579 s at two, 471 s at four, the inner loop 190 → 155 s).
    concurrency: 4,
    batches: 3,
    quick: true,
    share: false,
    needs: [],
  },
  {
    name: 'unit',
    folder: 'src',
    what: 'tests beside the code',
    lane: 'cpu',
    concurrency: 1,
    batches: 3,
    quick: true,
    // Most are small (the process's start cost as much as their tests): many to a process.
    share: true,
    needs: [],
  },
];

/** The group of a test file (a path relative to the project, `/`-separated). */
export function groupOf(file) {
  const path = file.split('\\').join('/');
  const group = GROUPS.find((g) => path === g.folder || path.startsWith(`${g.folder}/`));
  if (!group) throw new Error(`${file}: not under src/ or test/, so in no test group`);
  return group;
}
