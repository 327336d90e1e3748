import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeTypicalCheckpoint } from '../checkpoint/checkpoint-fixture.test-helper.ts';
import {
  DEFAULT_RESUME_MAX_AGE_MS,
  DEFAULT_RESUME_TIMEOUT_MS,
  detectResume,
  formatDuration,
  getCheckpointContextPercent,
  toResumeCheckpointInfo,
  type ResumeCheckpointInfo,
  type ResumeDetection,
  type ResumeEvidence,
} from './resume.ts';
import { isOpenTaskStatus } from '../checkpoint/checkpoint.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const CREATED = Date.parse('2026-02-12T04:10:00.000Z');

const CHECKPOINT: ResumeCheckpointInfo = {
  id: 'cp-4',
  sessionId: 'session-1',
  agent: 'claude',
  checkpointNumber: 4,
  createdAt: new Date(CREATED).toISOString(),
  triggeredBy: 'tool_call_interval',
  crashRisk: 'warning',
  contextPercent: 80,
  restoredAt: null,
  openTasks: 3,
};

/** The previous session: checkpointed, active 5 s later, looked at 4 minutes after that. */
function evidence(
  changes: Partial<ResumeEvidence> = {},
  checkpoint: Partial<ResumeCheckpointInfo> = {},
): ResumeEvidence {
  return {
    checkpoint: { ...CHECKPOINT, ...checkpoint },
    sessionEnded: null,
    compactedAfter: false,
    lastActivityAt: new Date(CREATED + 5_000).toISOString(),
    promptTooLong: false,
    now: CREATED + 5_000 + 4 * MIN,
    ...changes,
  };
}

function ended(reason: string, at = CREATED + 10_000) {
  return { sessionEnded: { at: new Date(at).toISOString(), reason } };
}

/** Every verdict the suite produces, checked for the shared invariants at the end. */
const seen: ResumeDetection[] = [];
function detect(e: ResumeEvidence, options?: Parameters<typeof detectResume>[1]) {
  const d = detectResume(e, options);
  seen.push(d);
  return d;
}

describe('detectResume: nothing to resume', () => {
  test('no checkpoint: no resume, certain, reason unknown', () => {
    const d = detect(evidence({ checkpoint: null }));
    assert.equal(d.shouldResume, false);
    assert.equal(d.lastCheckpointId, null);
    assert.equal(d.interruptionReason, 'unknown');
    assert.equal(d.confidence, 1);
    assert.match(d.explanation, /No checkpoint/);
  });

  test('a checkpoint already restored is not restored again, though the reason is still classified', () => {
    const d = detect(evidence({ promptTooLong: true }, { restoredAt: '2026-02-12T04:20:00.000Z' }));
    assert.equal(d.shouldResume, false);
    assert.equal(d.interruptionReason, 'crash');
    assert.equal(d.lastCheckpointId, 'cp-4');
    assert.match(d.explanation, /already restored at 2026-02-12T04:20:00.000Z/);
  });

  test('a checkpoint older than 7 days is not resumed, even after a crash', () => {
    const d = detect(evidence({ promptTooLong: true, now: CREATED + 8 * DAY }));
    assert.equal(d.shouldResume, false);
    assert.equal(d.interruptionReason, 'crash');
    assert.match(d.explanation, /8 days old \(limit 7 days\)/);
  });

  test('exactly 7 days old is still young enough; maxAgeMs moves the limit', () => {
    const e = evidence({ promptTooLong: true, now: CREATED + DEFAULT_RESUME_MAX_AGE_MS });
    assert.equal(detect(e).shouldResume, true);
    assert.equal(detect(e, { maxAgeMs: DAY }).shouldResume, false);
  });
});

describe('detectResume: compaction', () => {
  test('a compaction after the checkpoint resumes with high confidence', () => {
    const d = detect(evidence({ compactedAfter: true }));
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'compaction');
    assert.ok(d.confidence >= 0.9);
    assert.match(d.explanation, /compacted/);
  });

  test('it wins over prompt-too-long and danger: the session carried on after them', () => {
    const d = detect(
      evidence({ compactedAfter: true, promptTooLong: true }, { crashRisk: 'danger' }),
    );
    assert.equal(d.interruptionReason, 'compaction');
  });

  test('not while its agent still runs: it carries on by itself, a new session beside it is parallel work', () => {
    const d = detect(evidence({ compactedAfter: true, agentAlive: true }));
    assert.equal(d.shouldResume, false);
    assert.match(d.explanation, /still running/);
    assert.equal(detect(evidence({ compactedAfter: true, agentAlive: false })).shouldResume, true);
  });

  test('a compaction followed by a clean end is judged as a manual exit', () => {
    const d = detect(evidence({ compactedAfter: true, ...ended('logout') }, { openTasks: 0 }));
    assert.equal(d.interruptionReason, 'manual_exit');
    assert.equal(d.shouldResume, false);
  });
});

describe('detectResume: crash', () => {
  test('"Prompt is too long" without a clean end is a crash', () => {
    const d = detect(evidence({ promptTooLong: true }));
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'crash');
    assert.equal(d.confidence, 0.9);
    assert.match(d.explanation, /Prompt is too long/);
  });

  test('"Prompt is too long" stays a crash when the user then closed the session', () => {
    const d = detect(
      evidence({ promptTooLong: true, ...ended('prompt_input_exit') }, { openTasks: 0 }),
    );
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'crash');
    assert.match(d.explanation, /closed \(prompt_input_exit\)/);
  });

  test('danger risk at the checkpoint and no clean end is a crash', () => {
    const d = detect(evidence({}, { crashRisk: 'danger', contextPercent: 90 }));
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'crash');
    assert.equal(d.confidence, 0.8);
  });

  test('95% of the context at the checkpoint is a crash even at warning risk; 94.9% is not', () => {
    assert.equal(detect(evidence({}, { contextPercent: 95 })).interruptionReason, 'crash');
    assert.equal(detect(evidence({}, { contextPercent: 94.9 })).interruptionReason, 'unknown');
  });

  test('danger risk with a clean end is a manual exit, not a crash', () => {
    const d = detect(
      evidence(ended('prompt_input_exit'), { crashRisk: 'danger', contextPercent: 97 }),
    );
    assert.equal(d.interruptionReason, 'manual_exit');
  });

  test('a crash is resumed even when every task was done: the context is still worth having', () => {
    const d = detect(evidence({ promptTooLong: true }, { openTasks: 0 }));
    assert.equal(d.shouldResume, true);
  });
});

describe('detectResume: timeout', () => {
  test('no clean end and quiet for more than 30 minutes is a timeout', () => {
    const d = detect(evidence({ now: CREATED + 5_000 + 31 * MIN }));
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'timeout');
    assert.equal(d.confidence, 0.7);
    assert.match(d.explanation, /quiet for 31 minutes \(more than 30 minutes\)/);
  });

  test('exactly the timeout is not yet a timeout', () => {
    const d = detect(evidence({ now: CREATED + 5_000 + DEFAULT_RESUME_TIMEOUT_MS }));
    assert.equal(d.interruptionReason, 'unknown');
  });

  test('timeoutMs moves the limit', () => {
    const d = detect(evidence(), { timeoutMs: 2 * MIN });
    assert.equal(d.interruptionReason, 'timeout');
  });

  test('without any recorded activity the quiet time counts from the checkpoint', () => {
    const d = detect(evidence({ lastActivityAt: null, now: CREATED + 2 * HOUR }));
    assert.equal(d.interruptionReason, 'timeout');
    assert.equal(d.timeSinceInterruption, 2 * HOUR);
  });
});

describe('detectResume: manual exit', () => {
  for (const reason of ['prompt_input_exit', 'logout', 'other']) {
    test(`a clean end (${reason}) with open tasks resumes with low confidence`, () => {
      const d = detect(evidence(ended(reason)));
      assert.equal(d.shouldResume, true);
      assert.equal(d.interruptionReason, 'manual_exit');
      assert.equal(d.confidence, 0.5);
      assert.match(d.explanation, new RegExp(`\\(${reason}\\) with 3 tasks still open`));
    });
  }

  test('/clear (reason clear) is a wish for a fresh context: lower confidence still', () => {
    const d = detect(evidence(ended('clear')));
    assert.equal(d.shouldResume, true);
    assert.equal(d.confidence, 0.35);
  });

  test('a clean end with no open tasks is not resumed', () => {
    const d = detect(evidence(ended('prompt_input_exit'), { openTasks: 0 }));
    assert.equal(d.shouldResume, false);
    assert.equal(d.interruptionReason, 'manual_exit');
    assert.match(d.explanation, /nothing to resume/);
  });

  test('a manual exit resumes with less confidence than a crash or a timeout', () => {
    const manual = detect(evidence(ended('logout'))).confidence;
    const crash = detect(evidence({ promptTooLong: true })).confidence;
    const timeout = detect(evidence({ now: CREATED + 2 * HOUR })).confidence;
    assert.ok(manual < timeout && timeout < crash);
  });

  test('the interruption time is the clean end', () => {
    const d = detect(evidence({ ...ended('logout', CREATED + MIN), now: CREATED + 11 * MIN }));
    assert.equal(d.timeSinceInterruption, 10 * MIN);
  });
});

describe('detectResume: no clean end, recently active, low risk', () => {
  test('with open tasks: resumed with low confidence (it may still be running)', () => {
    const d = detect(evidence());
    assert.equal(d.shouldResume, true);
    assert.equal(d.interruptionReason, 'unknown');
    assert.ok(d.confidence < 0.5);
    assert.match(d.explanation, /may still be running/);
  });

  test('without open tasks: not resumed', () => {
    const d = detect(evidence({}, { openTasks: 0 }));
    assert.equal(d.shouldResume, false);
    assert.equal(d.interruptionReason, 'unknown');
  });
});

describe("detectResume: the session's own agent", () => {
  test("a Codex or Gemini session is said to be theirs, never Claude Code's", () => {
    for (const [agent, name] of [
      ['codex', 'Codex CLI'],
      ['gemini', 'Gemini CLI'],
    ] as const) {
      for (const changes of [
        { agentAlive: false },
        { agentAlive: true },
        { compactedAfter: true },
      ] satisfies Partial<ResumeEvidence>[]) {
        const d = detect(evidence(changes, { agent }));
        assert.match(d.explanation, new RegExp(name), d.explanation);
        assert.doesNotMatch(d.explanation, /Claude/, d.explanation);
      }
    }
    assert.match(
      detect(evidence({ agentAlive: false })).explanation,
      /Claude Code process is gone/,
    );
  });
});

describe('detectResume: time and confidence', () => {
  test('timeSinceInterruption runs from the last activity', () => {
    assert.equal(detect(evidence()).timeSinceInterruption, 4 * MIN);
  });

  test('a checkpoint rebuilt from the log after the stop: the time runs from the log, not from it', () => {
    const rebuiltAt = CREATED + 5_000 + 4 * MIN;
    const d = detect(
      evidence(
        { agentAlive: false, now: rebuiltAt + 1_000 },
        { triggeredBy: 'crash_recovery', createdAt: new Date(rebuiltAt).toISOString() },
      ),
    );
    assert.equal(d.timeSinceInterruption, 4 * MIN + 1_000);
    // Any other checkpoint's time is the session's own.
    const own = detect(
      evidence({ now: rebuiltAt + 1_000 }, { createdAt: new Date(rebuiltAt).toISOString() }),
    );
    assert.equal(own.timeSinceInterruption, 1_000);
  });

  test('activity recorded in the future (clock skew) counts as now, never negative', () => {
    const d = detect(evidence({ lastActivityAt: new Date(CREATED + DAY).toISOString() }));
    assert.equal(d.timeSinceInterruption, 0);
  });

  test('unparseable timestamps do not throw', () => {
    const d = detect(
      evidence({ lastActivityAt: 'yesterday', promptTooLong: true }, { createdAt: 'not a date' }),
    );
    assert.equal(d.shouldResume, true);
    assert.equal(d.timeSinceInterruption, 0);
  });

  test('a resume verdict loses confidence as the checkpoint ages', () => {
    const fresh = detect(evidence({ promptTooLong: true })).confidence;
    const old = detect(evidence({ promptTooLong: true, now: CREATED + 6 * DAY })).confidence;
    assert.ok(old < fresh, `${old} < ${fresh}`);
    assert.ok(old >= fresh * 0.7);
  });

  test('every verdict above has a confidence in 0..1 and a one-sentence explanation', () => {
    assert.ok(seen.length >= 25);
    for (const d of seen) {
      assert.ok(d.confidence >= 0 && d.confidence <= 1, String(d.confidence));
      assert.ok(d.timeSinceInterruption >= 0);
      assert.match(d.explanation, /^[A-Z"].*\.$/);
      assert.doesNotMatch(d.explanation, /\n|\.\s+[A-Z]/, d.explanation);
    }
  });
});

describe('toResumeCheckpointInfo', () => {
  test('summarises a stored checkpoint for the detector: open tasks, risk, context percent', () => {
    const c = makeTypicalCheckpoint();
    assert.deepEqual(toResumeCheckpointInfo(c, null), {
      id: c.id,
      sessionId: c.sessionId,
      agent: 'claude',
      checkpointNumber: 4,
      createdAt: c.createdAt,
      triggeredBy: 'warning_zone',
      crashRisk: 'warning',
      contextPercent: 86,
      restoredAt: null,
      openTasks: 3,
    });
  });

  test('context percent falls back to the signals without a compact threshold', () => {
    const c = makeTypicalCheckpoint();
    c.source = { ...c.source, compactThreshold: 0 };
    assert.equal(getCheckpointContextPercent(c), 86);
  });

  test('completed, deleted and cancelled tasks are closed; anything else is open', () => {
    for (const s of ['completed', 'deleted', 'cancelled', 'Done'])
      assert.equal(isOpenTaskStatus(s), false);
    for (const s of ['pending', 'in_progress', 'blocked']) assert.equal(isOpenTaskStatus(s), true);
  });
});

describe('formatDuration', () => {
  test('picks the coarsest sensible unit', () => {
    assert.equal(formatDuration(1_000), '1 second');
    assert.equal(formatDuration(45_000), '45 seconds');
    assert.equal(formatDuration(4 * MIN), '4 minutes');
    assert.equal(formatDuration(3 * HOUR), '3 hours');
    assert.equal(formatDuration(30 * HOUR), '30 hours');
    assert.equal(formatDuration(7 * DAY), '7 days');
    assert.equal(formatDuration(-5), '0 seconds');
  });
});
