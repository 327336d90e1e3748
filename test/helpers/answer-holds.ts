/**
 * The waits a local mock server puts before an answer (`delayMs`: a kill test keeps the CLI
 * mid-request). A wait ends at its time, when the client hangs up (the CLI it held was killed) or
 * when the mock closes, whichever comes first: no timer outlives what a test runs, so a test file's
 * process exits as soon as its last test is done.
 *
 *   const holds = createAnswerHolds();
 *   await holds.wait(step.delayMs, res);     // in the request handler
 *   if (res.destroyed) return;               // the client left: nothing to answer
 *   holds.endAll();                          // in close()
 */
import type { ServerResponse } from 'node:http';

export type AnswerHolds = {
  /** Resolves after `ms`, once `res`'s client hangs up, or at endAll(), whichever is first. */
  wait(ms: number, res?: ServerResponse): Promise<void>;
  /** Ends every wait now (the mock is closing). */
  endAll(): void;
  /** How many waits are running. */
  readonly pending: number;
};

export function createAnswerHolds(): AnswerHolds {
  const ends = new Set<() => void>();
  return {
    wait: (ms, res) =>
      new Promise<void>((resolve) => {
        const end = (): void => {
          clearTimeout(timer);
          ends.delete(end);
          res?.off('close', end);
          resolve();
        };
        const timer = setTimeout(end, ms);
        ends.add(end);
        // A response's 'close' before it finished means the client's connection is gone.
        res?.once('close', end);
      }),
    endAll: () => {
      for (const end of [...ends]) end();
    },
    get pending() {
      return ends.size;
    },
  };
}
