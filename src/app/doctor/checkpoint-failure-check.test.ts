import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeTempDir } from '../../../test/helpers/fixtures.ts';
import { recordCheckpointFailure } from '../../store/cache/checkpoint-failures.ts';
import {
  claimPendingCheckpoint,
  failPendingCheckpoint,
  listPendingCheckpoints,
  MAX_ATTEMPTS,
  writePendingCheckpoint,
} from '../../store/checkpoints/pending-checkpoints.ts';
import { checkpointFailureCheck } from './checkpoint-failure-check.ts';

const NOW = new Date('2026-11-26T04:00:00.000Z');

describe('doctor: checkpoint failures', () => {
  test('none: ok', () => {
    assert.equal(checkpointFailureCheck(makeTempDir('shim-doctor-cf-'), NOW).status, 'ok');
  });

  test("a session's failed checkpoint today makes shim unhealthy", () => {
    const home = makeTempDir('shim-doctor-cf-');
    recordCheckpointFailure(home, {
      sessionId: 'abc12345-0000',
      at: '2026-11-26T03:00:00.000Z',
      trigger: 'pre_compact',
      message: 'disk full',
    });
    const result = checkpointFailureCheck(home, NOW);
    assert.equal(result.status, 'fail');
    assert.match(result.detail, /1 session with failed checkpoints/);
  });

  test('a failure over a day old is listed, not unhealthy, with how to clear it', () => {
    const home = makeTempDir('shim-doctor-cf-');
    recordCheckpointFailure(home, {
      sessionId: 'old12345-0000',
      at: '2026-11-24T03:00:00.000Z',
      trigger: 'user_requested',
      message: 'disk full',
    });
    const result = checkpointFailureCheck(home, NOW);
    assert.equal(result.status, 'warn');
    assert.equal(result.essential, false);
    assert.match(result.detail, /over a day ago, none since/);
    assert.match(result.fix ?? '', /shim doctor --clear-failures/);
  });

  test('a risky command’s checkpoint set aside after its last attempt is said, with what to do', () => {
    const home = makeTempDir('shim-doctor-cf-');
    writePendingCheckpoint(home, {
      v: 1,
      id: 'aside-1',
      sessionId: 's',
      transcriptPath: '/gone.jsonl',
      transcriptBytes: 1,
      cwd: '/',
      at: 1,
      trigger: 'risky_operation',
      reason: 'before rm -rf',
      git: null,
      attempts: MAX_ATTEMPTS - 1,
    });
    const claimed = claimPendingCheckpoint(home, listPendingCheckpoints(home).waiting[0]!)!;
    assert.equal(failPendingCheckpoint(home, claimed), true);
    const result = checkpointFailureCheck(home, new Date());
    assert.equal(result.status, 'warn');
    assert.match(result.detail, /1 checkpoint promised before a risky command could not be built/);
    assert.match(
      result.fix ?? '',
      /to try again: mv '[^']*pending\/failed'\/\*\.json '[^']*pending'\//,
    );
    assert.equal(result.essential, true, 'set aside today: unhealthy');
  });
});
