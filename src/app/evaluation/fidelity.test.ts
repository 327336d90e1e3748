import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fixturePath,
  listFixtures,
  listTrainingFixtures,
  gzTrainingFixturePath,
} from '../../../test/helpers/fixtures.ts';
import { HOOK_TEXT_LIMIT } from '../../agents/claude/hook-output.ts';
import {
  FIDELITY_PARTS,
  formatShare,
  measureRestoreFidelity,
  summarizeFidelity,
  type FidelityPoint,
} from './fidelity.ts';

const paths = [
  ...listFixtures().map((n) => fixturePath(n)),
  ...listTrainingFixtures().map((n) => gzTrainingFixturePath(n)),
];

test('the restore carries ≥ 99% of every part at every auto compaction and mid-session cut of the real sessions, at least as much as Claude Code’s summary', async () => {
  const points: Array<FidelityPoint & { source: string }> = [];
  for (const path of paths) {
    for (const p of await measureRestoreFidelity(path, { maxChars: HOOK_TEXT_LIMIT })) {
      points.push({ ...p, source: path.split('/').pop()! });
    }
  }
  const summary = summarizeFidelity(points);
  const compactions = points.filter((p) => p.kind === 'compaction');
  assert.ok(compactions.length >= 30, `${compactions.length} compactions scored`);
  assert.ok(
    compactions.some((p) => (p.compaction ?? 0) >= 2),
    'second compactions are scored',
  );
  for (const part of FIDELITY_PARTS) {
    const t = summary.shim[part];
    assert.ok(
      t.found >= 0.99 * t.total,
      `${part}: ${formatShare(t)}\n${summary.missing.join('\n')}`,
    );
    assert.ok(summary.shimAtClaude[part].found >= summary.claude[part].found, part);
  }
  // At each compaction on its own, nothing of the first and the newest request is lost.
  for (const p of compactions) {
    assert.equal(p.shim.firstRequest.found, p.shim.firstRequest.total, `${p.source}:${p.line}`);
    assert.equal(p.shim.lastRequest.found, p.shim.lastRequest.total, `${p.source}:${p.line}`);
  }
  assert.ok(summary.medianChars <= 12_000, `median ${summary.medianChars} characters`);
  assert.ok(summary.maxChars <= HOOK_TEXT_LIMIT, `max ${summary.maxChars} characters`);
});
