/**
 * A loop supervisor's event log, appended to until the process is killed: the child process of
 * loop-event-log.test.ts's kill -9 test (started compiled: test/helpers/script-process.ts).
 *
 *   node <compiled> <SHIM_HOME> <runId>
 *
 * Opens the run's log as the supervisor does (src/loop/run-journal.ts: with the store's loop
 * repository, so every append is indexed too), prints `ready <lastSeq>`, then appends events of
 * varied sizes for ever, printing each one's seq once append() has returned (the acknowledgement).
 * Lines go to fd 1 whole and synchronously (writeStdout): what the parent has read was printed after
 * the append.
 */
import { writeStdout } from '../../capture/stdout.ts';
import { openDatabase } from '../sqlite/database.ts';
import { RunEventLog } from './loop-event-log.ts';
import { LoopRepository } from './loop-repository.ts';

const print = (text: string) => writeStdout(`${text}\n`);

const [home, runId] = process.argv.slice(-2) as [string, string];
const log = RunEventLog.open(home, runId, new LoopRepository(openDatabase(home)));
print(`ready ${log.lastSeq}`);
for (let i = 0; ; i++) {
  const event = log.append(
    i % 3 ? 'loop.tool_call' : 'loop.context_usage',
    { i, pad: 'x'.repeat((i * 7919) % 3000) },
    { iteration: 1 + (i >> 6) },
  );
  print(String(event.seq));
}
