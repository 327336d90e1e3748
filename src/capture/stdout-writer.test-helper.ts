/**
 * stdout.test.ts's writer through a real pipe (started compiled: test/helpers/script-process.ts):
 * 1 MB and a newline by writeStdout, faster than the reader drains it.
 */
import { writeStdout } from './stdout.ts';

writeStdout(`${'x'.repeat(1024 * 1024)}\n`);
