// node scripts/ci-report.mjs <dir>: .ci/run's last lines. <dir>/parts holds one line per part it
// ran ("<name> <wall ms> <cpu ms or ->"), <dir>/tests.json what scripts/test.mjs wrote of its
// groups (SHIM_TEST_SUMMARY). Prints each part's wall and CPU time (user + system), each test
// group's under the test part, the total, and last the suite's `N passed, N failed` line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const read = (name) => {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch {
    return null;
  }
};
const seconds = (ms) =>
  ms === null || ms === undefined || Number.isNaN(ms) ? '–' : `${(ms / 1000).toFixed(1)} s`;

const parts = (read('parts') ?? '')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [name, wall, cpu] = line.split(' ');
    return { name, wallMs: Number(wall), cpuMs: cpu === '-' ? null : Number(cpu) };
  });
const tests = JSON.parse(read('tests.json') ?? 'null');

const rows = [];
for (const part of parts) {
  rows.push([part.name, seconds(part.wallMs), seconds(part.cpuMs)]);
  if (part.name === 'test' && tests) {
    if (tests.installMs) rows.push(['  agent CLIs (install)', seconds(tests.installMs), '–']);
    for (const group of tests.groups)
      rows.push([
        `  ${group.name} (${group.files} files)`,
        seconds(group.wallMs),
        seconds(group.cpuMs),
      ]);
  }
}
const total = parts.reduce((n, p) => n + p.wallMs, 0);
const cpu = parts.every((p) => p.cpuMs !== null) ? parts.reduce((n, p) => n + p.cpuMs, 0) : null;
rows.push(['total', seconds(total), seconds(cpu)]);

const width = Math.max(...rows.map((r) => r[0].length));
process.stdout.write(`\n== times (wall, cpu = user + system); the test groups' lanes overlap\n`);
for (const [name, wall, cpuTime] of rows)
  process.stdout.write(`${name.padEnd(width)}  ${wall.padStart(9)}  ${cpuTime.padStart(9)}\n`);
if (tests) process.stdout.write(`${tests.passed} passed, ${tests.failed} failed\n`);
else process.stdout.write('the tests did not run to the end: no summary\n');
