import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAccuracy, summarizeForecast } from '../core/evaluate.ts';
import { fixturePath, listFixtures } from '../../test/helpers/fixtures.ts';
import { evaluateReplays } from './evaluate-replays.ts';
import { replayTranscript, type ReplayEvent } from './replay.ts';

const replayAll = () => evaluateReplays(listFixtures().map(fixturePath));

describe('prediction quality on the real fixtures', () => {
  test('danger is raised within 10 responses of auto-compaction with over 90% accuracy', async () => {
    const { risk } = await replayAll();
    const rates = getAccuracy(risk);
    assert.ok(risk.scored > 600, `${risk.scored} responses scored`);
    assert.ok(rates.accuracy > 0.9, `accuracy ${rates.accuracy}`);
    assert.ok(rates.recall >= 0.85, `recall ${rates.recall}`);
    assert.ok(rates.precision >= 0.7, `precision ${rates.precision}`);
  });

  test('the turns-to-compact forecast is off by under 3 responses on average', async () => {
    const { forecast } = await replayAll();
    const summary = summarizeForecast(forecast);
    assert.equal(summary.samples, 59);
    assert.ok(summary.meanAbsoluteError! < 3, `MAE ${summary.meanAbsoluteError}`);
  });

  test('turn events carry only what was known at their own line', async () => {
    const events: ReplayEvent[] = [];
    const path = fixturePath('entire-9b04c3d92e38-auto-compact-167k-taskcreate-v2.1.39.jsonl');
    await replayTranscript(path, { env: {}, history: [], onEvent: (e) => events.push(e) });
    const compactAt = events.findIndex((e) => e.kind === 'compact');
    const before = events.slice(0, compactAt).filter((e) => e.kind === 'turn');
    // The compaction's own preTokens must not leak into the threshold of the turns before it.
    for (const t of before) assert.equal(t.compactThreshold, 167000);
  });
});
