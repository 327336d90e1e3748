import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessCrashRisk, DEFAULT_RISK_THRESHOLDS, type RiskInput } from './risk.ts';

const HOUR = 3_600_000;

/** A quiet, young session: nothing in it is anywhere near a threshold. */
const CALM: RiskInput = {
  compactUsage: 0.2,
  turnsToCompact: null,
  messageCount: 10,
  sessionDurationMs: 10 * 60_000,
  toolCallCount: 5,
  toolCallsSinceCheckpoint: 5,
  toolFailureRate: 0,
  consecutiveToolFailures: 0,
  contextLimitHit: false,
};

function assess(changes: Partial<RiskInput>) {
  return assessCrashRisk({ ...CALM, ...changes });
}

describe('assessCrashRisk: context usage', () => {
  test('a calm session is safe and names no factors', () => {
    assert.deepEqual(assess({}), { risk: 'safe', riskFactors: [] });
  });

  test('a session at 96% of its threshold is in danger', () => {
    assert.deepEqual(assess({ compactUsage: 0.96 }), {
      risk: 'danger',
      riskFactors: ['context at 96% of the auto-compact threshold (danger ≥ 95%)'],
    });
  });

  test('a session at exactly the danger usage is in danger', () => {
    assert.equal(
      assess({ compactUsage: DEFAULT_RISK_THRESHOLDS.danger.compactUsage }).risk,
      'danger',
    );
  });

  test('context usage is decisive on its own, without other signals to count', () => {
    assert.equal(assess({ compactUsage: 0.99, messageCount: 1, toolCallCount: 0 }).risk, 'danger');
  });

  test('a session at 94% of its threshold is a warning', () => {
    assert.deepEqual(assess({ compactUsage: 0.94 }), {
      risk: 'warning',
      riskFactors: ['context at 94% of the auto-compact threshold (warning ≥ 70%)'],
    });
  });

  test('a session at exactly 70% is a warning, and at 69% it is safe', () => {
    assert.equal(assess({ compactUsage: 0.7 }).risk, 'warning');
    assert.deepEqual(assess({ compactUsage: 0.69 }), { risk: 'safe', riskFactors: [] });
  });

  test('a "Prompt is too long" failure puts the session in danger', () => {
    assert.deepEqual(assess({ contextLimitHit: true }), {
      risk: 'danger',
      riskFactors: ['the context limit was hit ("Prompt is too long")'],
    });
  });
});

describe('assessCrashRisk: forecast', () => {
  test('ten responses to compaction at 93% usage is danger', () => {
    assert.deepEqual(assess({ compactUsage: 0.93, turnsToCompact: 10 }), {
      risk: 'danger',
      riskFactors: [
        'context at 93% of the auto-compact threshold (warning ≥ 70%)',
        'auto-compaction forecast in 10 responses (danger ≤ 10)',
      ],
    });
  });

  test('eight responses to compaction at 90% usage is only a warning', () => {
    assert.equal(assess({ compactUsage: 0.9, turnsToCompact: 8 }).risk, 'warning');
  });

  test('one response to compaction is written in the singular', () => {
    assert.deepEqual(assess({ compactUsage: 0.93, turnsToCompact: 1 }).riskFactors, [
      'context at 93% of the auto-compact threshold (warning ≥ 70%)',
      'auto-compaction forecast in 1 response (danger ≤ 10)',
    ]);
    assert.deepEqual(assess({ compactUsage: 0.6, turnsToCompact: 1 }).riskFactors, [
      'auto-compaction forecast in 1 response (warning ≤ 20)',
    ]);
  });

  test('eleven responses to compaction at 93% usage is only a warning', () => {
    assert.equal(assess({ compactUsage: 0.93, turnsToCompact: 11 }).risk, 'warning');
  });

  test('most likely futures compacting within ten responses is danger from 90% usage', () => {
    assert.deepEqual(
      assess({ compactUsage: 0.9, turnsToCompact: 14, compactSoonProbability: 0.75 }),
      {
        risk: 'danger',
        riskFactors: [
          'context at 90% of the auto-compact threshold (warning ≥ 70%)',
          'auto-compaction forecast in 14 responses (warning ≤ 20)',
          '75% of likely futures compact within 10 responses (danger ≥ 70%)',
        ],
      },
    );
    assert.equal(
      assess({ compactUsage: 0.85, turnsToCompact: 14, compactSoonProbability: 0.75 }).risk,
      'warning',
    );
  });

  test('some likely futures compacting soon is a warning from 70% usage', () => {
    assert.deepEqual(assess({ compactUsage: 0.69, compactSoonProbability: 0.4 }).risk, 'safe');
    assert.deepEqual(assess({ compactUsage: 0.7, compactSoonProbability: 0.4 }).riskFactors, [
      'context at 70% of the auto-compact threshold (warning ≥ 70%)',
    ]);
    assert.deepEqual(
      assessCrashRisk(
        { ...CALM, compactUsage: 0.75, compactSoonProbability: 0.4 },
        {
          ...DEFAULT_RISK_THRESHOLDS,
          warning: { ...DEFAULT_RISK_THRESHOLDS.warning, compactUsage: 0.8 },
        },
      ),
      {
        risk: 'warning',
        riskFactors: ['40% of likely futures compact within 10 responses (warning ≥ 30%)'],
      },
    );
  });

  test('a danger forecast below 90% usage only counts as a warning', () => {
    assert.deepEqual(assess({ compactUsage: 0.6, turnsToCompact: 2 }), {
      risk: 'warning',
      riskFactors: ['auto-compaction forecast in 2 responses (warning ≤ 20)'],
    });
  });

  test('a forecast of twenty responses from 50% usage on is a warning', () => {
    assert.equal(assess({ compactUsage: 0.5, turnsToCompact: 20 }).risk, 'warning');
  });

  test('a forecast of twenty-one responses is safe', () => {
    assert.deepEqual(assess({ compactUsage: 0.6, turnsToCompact: 21 }), {
      risk: 'safe',
      riskFactors: [],
    });
  });

  test('below 50% usage even an imminent forecast is ignored', () => {
    assert.deepEqual(assess({ compactUsage: 0.49, turnsToCompact: 0 }), {
      risk: 'safe',
      riskFactors: [],
    });
  });

  test('no forecast adds nothing', () => {
    assert.deepEqual(assess({ compactUsage: 0.6, turnsToCompact: null }), {
      risk: 'safe',
      riskFactors: [],
    });
  });
});

describe('assessCrashRisk: secondary signals follow the seed counting rule', () => {
  test('one signal in the danger zone alone is a warning', () => {
    assert.deepEqual(assess({ messageCount: 500 }), {
      risk: 'warning',
      riskFactors: ['500 messages (≥ 500)'],
    });
  });

  test('two signals in the danger zone are a warning while the context is far from full', () => {
    assert.deepEqual(assess({ messageCount: 600, sessionDurationMs: 6 * HOUR }), {
      risk: 'warning',
      riskFactors: ['600 messages (≥ 500)', 'session running 6h (≥ 6h)'],
    });
  });

  test('three signals in the warning zone are a warning', () => {
    assert.deepEqual(
      assess({ messageCount: 300, sessionDurationMs: 3.5 * HOUR, toolCallsSinceCheckpoint: 25 }),
      {
        risk: 'warning',
        riskFactors: [
          '300 messages (≥ 300)',
          'session running 3.5h (≥ 3h)',
          '25 tool calls since the last checkpoint (≥ 25)',
        ],
      },
    );
  });

  test('two signals in the warning zone stay safe but are still named', () => {
    assert.deepEqual(assess({ messageCount: 300, toolCallsSinceCheckpoint: 30 }), {
      risk: 'safe',
      riskFactors: ['300 messages (≥ 300)', '30 tool calls since the last checkpoint (≥ 25)'],
    });
  });

  test('one danger and one warning signal make a warning', () => {
    assert.equal(assess({ messageCount: 500, toolCallsSinceCheckpoint: 30 }).risk, 'warning');
  });

  test('each secondary signal is named with its value and the limit it crossed', () => {
    assert.deepEqual(
      assess({
        messageCount: 501,
        sessionDurationMs: 7 * HOUR,
        toolCallCount: 60,
        toolCallsSinceCheckpoint: 50,
        toolFailureRate: 0.3,
        consecutiveToolFailures: 5,
      }).riskFactors,
      [
        '501 messages (≥ 500)',
        'session running 7h (≥ 6h)',
        '50 tool calls since the last checkpoint (≥ 50)',
        'tool failure rate 30% (≥ 30%)',
        '5 tool failures in a row (≥ 5)',
      ],
    );
  });

  test('a high failure rate over ten calls counts', () => {
    assert.deepEqual(
      assess({ toolCallCount: 10, toolFailureRate: 0.3, consecutiveToolFailures: 5 }),
      {
        risk: 'warning',
        riskFactors: ['tool failure rate 30% (≥ 30%)', '5 tool failures in a row (≥ 5)'],
      },
    );
  });

  test('the failure rate is ignored under ten tool calls', () => {
    assert.deepEqual(
      assess({ toolCallCount: 9, toolFailureRate: 0.5, consecutiveToolFailures: 5 }),
      { risk: 'warning', riskFactors: ['5 tool failures in a row (≥ 5)'] },
    );
  });

  test('secondary signals never lower a danger from context usage', () => {
    assert.equal(assess({ compactUsage: 0.96, messageCount: 300 }).risk, 'danger');
  });

  test('secondary signals raise a context warning to danger from 90% usage', () => {
    const below = assess({ compactUsage: 0.8, messageCount: 500, consecutiveToolFailures: 6 });
    assert.equal(below.risk, 'warning');
    const result = assess({ compactUsage: 0.9, messageCount: 500, consecutiveToolFailures: 6 });
    assert.equal(result.risk, 'danger');
    assert.deepEqual(result.riskFactors, [
      'context at 90% of the auto-compact threshold (warning ≥ 70%)',
      '500 messages (≥ 500)',
      '6 tool failures in a row (≥ 5)',
    ]);
  });
});

describe('assessCrashRisk: custom thresholds', () => {
  test('thresholds passed in replace the defaults', () => {
    const thresholds = {
      warning: { ...DEFAULT_RISK_THRESHOLDS.warning, compactUsage: 0.1 },
      danger: { ...DEFAULT_RISK_THRESHOLDS.danger, compactUsage: 0.2 },
    };
    assert.deepEqual(assessCrashRisk({ ...CALM, compactUsage: 0.2 }, thresholds), {
      risk: 'danger',
      riskFactors: ['context at 20% of the auto-compact threshold (danger ≥ 20%)'],
    });
  });
});
