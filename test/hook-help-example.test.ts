/**
 * `shim hook --help`'s example, run as printed (issue 42 item 8): it must not change the user's
 * real state — run in a real project it recorded its shell's environment over the session's, so
 * `status` showed another window.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isProcessAlive } from '../src/capture/process-tree.ts';
import { BIN, runShim } from './helpers/cli.ts';
import { makeTempDir } from './helpers/fixtures.ts';
import { waitForWarmLook, warmLookPid } from './helpers/warm-look.ts';

/** Every file under `dir`, relative. */
function filesUnder(dir: string, at = ''): string[] {
  if (!existsSync(join(dir, at))) return [];
  return readdirSync(join(dir, at), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(at, e.name)) : [join(at, e.name)],
  );
}

/** Ends the warm look serving `home`, if one does, and waits until it is gone. */
async function endWarmLook(home: string): Promise<void> {
  const pid = warmLookPid(home);
  if (pid === null) return;
  process.kill(pid);
  while (isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 25));
}

test("shim hook --help's example touches nothing under the user's SHIM_HOME", async () => {
  const home = makeTempDir();
  const help = runShim(home, ['hook', '--help']);
  assert.equal(help.status, 0, help.stderr);
  const example = help.stdout
    .split('\n')
    .map((line) => line.trim().replace(/^Try it: /, ''))
    .find((line) => line.startsWith('echo ') && line.includes('shim hook'));
  assert.ok(example, help.stdout);
  // `shim` on PATH as the user has it; a throwaway folder lands in a temp dir of the test's.
  const bin = makeTempDir();
  const tmp = makeTempDir();
  writeFileSync(join(bin, 'shim'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'shim'), 0o755);
  try {
    execFileSync('/bin/sh', ['-c', example], {
      env: { ...process.env, SHIM_HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH}` },
    });
    assert.deepEqual(filesUnder(home), [], 'the real SHIM_HOME is left as it was');
    // Its transcript is a placeholder: no warm process is started for calls that will not come.
    const [throwaway] = readdirSync(tmp);
    assert.ok(throwaway, 'the example ran in a throwaway SHIM_HOME');
    assert.equal(existsSync(join(tmp, throwaway, 'run')), false, 'no warm look for a placeholder');
  } finally {
    // Where the example ran in the real home (the defect), its warm look is ended too.
    if (existsSync(join(home, 'run'))) {
      await waitForWarmLook(home).catch(() => null);
      await endWarmLook(home);
    }
  }
});
