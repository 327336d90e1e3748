import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeLimitStop, findLimitLine, readLimitStop } from './limit-stop.ts';

const NOW = Date.parse('2026-11-25T10:00:00Z');

test('the reset Claude Code named is kept in its words and as a time', () => {
  const stop = readLimitStop(
    "API Error: Request rejected (429) · You've hit your limit · resets 3pm (UTC)",
    NOW,
  );
  assert.equal(stop.resetText, 'resets 3pm (UTC)');
  assert.equal(stop.resetsAt, Date.parse('2026-11-25T15:00:00Z'));
  const line = describeLimitStop(stop);
  assert.match(
    line,
    /^> Stopped at a usage limit \("API Error.*"\); Claude Code said it resets 3pm \(UTC\) \(2026-11-25T15:00:00.000Z\)\.$/,
  );
  assert.equal(findLimitLine(`${line}\n\n# Handoff`), line.slice(2));
});

test('a limit without a reset says so; a document without the line has none', () => {
  const stop = readLimitStop('API Error: Request rejected (429) · rate limit exceeded', NOW);
  assert.equal(stop.resetText, null);
  assert.match(describeLimitStop(stop), /did not say when it resets\.$/);
  assert.equal(findLimitLine('# Handoff\n> Stopped at a usage limit'), null);
});
