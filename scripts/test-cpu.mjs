// node scripts/test-cpu.mjs <out-file> <command> [args…]: runs the command with this process's
// stdio, exits with its status, and writes to <out-file> the CPU milliseconds (user + system) of
// everything it waited for: the command and the descendants each waited for in turn (Linux
// /proc/self/stat; elsewhere nothing is written). scripts/test.mjs times each test group with it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, command, ...args] = process.argv.slice(2);
const result = spawnSync(command, args, { stdio: 'inherit' });
try {
  // Fields after "(comm) ": state is field 3, cutime 16 and cstime 17, in clock ticks (USER_HZ,
  // 100 on Linux).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  if (Number.isFinite(ticks)) writeFileSync(out, String(ticks * 10));
} catch {
  // not Linux: no CPU figure
}
if (result.error) process.stderr.write(`${command}: ${result.error.message}\n`);
process.exit(result.status ?? 1);
