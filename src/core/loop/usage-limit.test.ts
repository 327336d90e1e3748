import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatDuration,
  isLimitMessage,
  parseLimitReset,
  planLimitWait,
  RESET_GRACE_MS,
} from './usage-limit.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Wednesday 2025-01-15 12:00 UTC. */
const NOW = Date.UTC(2025, 0, 15, 12, 0);

describe('parseLimitReset', () => {
  test('reads epoch seconds after the bar in "usage limit reached|…"', () => {
    assert.equal(parseLimitReset('Claude AI usage limit reached|1738425600', NOW), 1738425600_000);
    assert.equal(
      parseLimitReset('Claude AI usage limit reached|1738425600123', NOW),
      1738425600123,
    );
  });

  test('"resets 3pm" is today at 15:00 in the given zone', () => {
    assert.equal(
      parseLimitReset("You've hit your limit · resets 3pm", NOW),
      Date.UTC(2025, 0, 15, 15),
    );
    assert.equal(
      parseLimitReset('5-hour limit reached ∙ resets 3 pm', NOW),
      Date.UTC(2025, 0, 15, 15),
    );
    assert.equal(parseLimitReset('resets 3 p.m.', NOW), Date.UTC(2025, 0, 15, 15));
  });

  test('ignores the zone name and uses the given offset', () => {
    // Berlin in winter is UTC+1: 15:30 there is 14:30 UTC.
    assert.equal(
      parseLimitReset('limit reached · resets 3:30pm (Europe/Berlin)', NOW, 60),
      Date.UTC(2025, 0, 15, 14, 30),
    );
    // New York (UTC−5): 11pm there is 04:00 UTC the next day.
    assert.equal(
      parseLimitReset('resets 11pm (America/New_York)', NOW, -300),
      Date.UTC(2025, 0, 16, 4),
    );
  });

  test('"resets at 15:30" reads a 24-hour clock', () => {
    assert.equal(
      parseLimitReset('Your limit will reset at 15:30', NOW),
      Date.UTC(2025, 0, 15, 15, 30),
    );
    assert.equal(parseLimitReset('resets at 0:05', NOW), Date.UTC(2025, 0, 16, 0, 5));
  });

  test('a time already past today means tomorrow', () => {
    assert.equal(parseLimitReset('resets 9am', NOW), Date.UTC(2025, 0, 16, 9));
  });

  test('the local date decides "today", across UTC midnight', () => {
    // 23:30 UTC is already 01:30 on the 16th at UTC+2; 3am there is 01:00 UTC on the 16th.
    assert.equal(
      parseLimitReset('resets 3am', Date.UTC(2025, 0, 15, 23, 30), 120),
      Date.UTC(2025, 0, 16, 1),
    );
  });

  test('a time that passed moments ago is this reset, not tomorrow', () => {
    const justAfter = Date.UTC(2025, 0, 15, 15, 4);
    assert.equal(parseLimitReset('resets 3pm', justAfter), Date.UTC(2025, 0, 15, 15));
    const outsideGrace = Date.UTC(2025, 0, 15, 15) + RESET_GRACE_MS + 1;
    assert.equal(parseLimitReset('resets 3pm', outsideGrace), Date.UTC(2025, 0, 16, 15));
  });

  test('12am is midnight and 12pm is noon', () => {
    assert.equal(parseLimitReset('resets 12am', NOW), Date.UTC(2025, 0, 16, 0));
    assert.equal(parseLimitReset('resets 12pm', NOW - HOUR), Date.UTC(2025, 0, 15, 12));
  });

  test('"resets Aug 8" is its midnight, "resets Aug 8, 3pm" its afternoon', () => {
    assert.equal(parseLimitReset('resets Aug 8', NOW), Date.UTC(2025, 7, 8));
    assert.equal(parseLimitReset('resets Aug 8, 3pm', NOW), Date.UTC(2025, 7, 8, 15));
    assert.equal(
      parseLimitReset('resets August 8th at 3:30pm', NOW, 60),
      Date.UTC(2025, 7, 8, 14, 30),
    );
    assert.equal(
      parseLimitReset('weekly limit reached · resets on Jan 16', NOW),
      Date.UTC(2025, 0, 16),
    );
  });

  test('a date already past this year means next year', () => {
    assert.equal(parseLimitReset('resets Jan 10', NOW), Date.UTC(2026, 0, 10));
  });

  test('a year after the day is not read as an hour', () => {
    assert.equal(parseLimitReset('resets Aug 8, 2025', NOW), Date.UTC(2025, 7, 8));
  });

  test('relative waits: minutes, hours, seconds and combinations', () => {
    assert.equal(parseLimitReset('Please try again in 5 minutes.', NOW), NOW + 5 * MIN);
    assert.equal(parseLimitReset('limit resets in 2 hours', NOW), NOW + 2 * HOUR);
    assert.equal(parseLimitReset('retry after 30 seconds', NOW), NOW + 30_000);
    assert.equal(parseLimitReset('try again in 1h 30m', NOW), NOW + 90 * MIN);
    assert.equal(parseLimitReset('try again in 1 hour and 15 minutes', NOW), NOW + 75 * MIN);
    assert.equal(parseLimitReset('HTTP 429\nRetry-After: 120', NOW), NOW + 120_000);
  });

  test('the epoch form wins over the others', () => {
    assert.equal(
      parseLimitReset('usage limit reached|1738425600 (try again in 5 minutes)', NOW),
      1738425600_000,
    );
  });

  test('invalid times and dates are not read', () => {
    for (const text of [
      'resets 13pm',
      'resets 24:00',
      'resets 3:75pm',
      'resets Feb 30',
      'resets 3',
      'resets 3 months from now',
      'error in 5 files',
    ]) {
      assert.equal(parseLimitReset(text, NOW), null, text);
    }
  });

  test('no reset named: null', () => {
    assert.equal(parseLimitReset('Claude AI usage limit reached', NOW), null);
    assert.equal(parseLimitReset('', NOW), null);
  });

  test('garbage never throws: a broken now is null, a broken offset reads as UTC', () => {
    assert.equal(parseLimitReset(null as never, NOW), null);
    assert.equal(parseLimitReset('resets 3pm', Number.NaN), null);
    assert.equal(parseLimitReset('resets 3pm', '1' as never), null);
    assert.equal(parseLimitReset('resets 3pm', NOW, Number.NaN), Date.UTC(2025, 0, 15, 15));
    assert.equal(parseLimitReset('resets 3pm', NOW, 100_000), Date.UTC(2025, 0, 15, 15));
    assert.equal(parseLimitReset('resets 3pm '.repeat(100_000), NOW), Date.UTC(2025, 0, 15, 15));
  });
});

describe('isLimitMessage', () => {
  test('recognizes usage- and rate-limit wording', () => {
    for (const text of [
      'Claude AI usage limit reached|1738425600',
      "You've hit your limit · resets 3pm (Europe/Berlin)",
      '5-hour limit reached ∙ resets 3pm',
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}}',
      'Rate limit exceeded, please slow down',
      'You are being rate limited',
      '429 Too Many Requests',
      'Session limit reached',
      "You're out of extra usage",
    ]) {
      assert.equal(isLimitMessage(text), true, text);
    }
  });

  test('a timeout is not a limit (frankbria #183)', () => {
    for (const text of [
      'Command timed out after 600s',
      'claude exited with code 124',
      'exit status 124',
      'Error: connect ETIMEDOUT 1.2.3.4:443',
      'Request timeout; rate limit exceeded?',
      'timeout: sending signal TERM to command claude',
    ]) {
      assert.equal(isLimitMessage(text), false, text);
    }
  });

  test('explicit usage-limit wording wins even next to a timeout', () => {
    assert.equal(isLimitMessage('Claude AI usage limit reached|1738425600\ntimed out'), true);
  });

  test('mentions that are not limits', () => {
    for (const text of [
      'I added rate limiting to the API handler.',
      'see line 429 of parser.ts',
      'Context limit reached',
      'Output token limit reached',
      'Prompt is too long',
      '',
    ]) {
      assert.equal(isLimitMessage(text), false, text);
    }
    assert.equal(isLimitMessage(null as never), false);
    assert.equal(isLimitMessage(429 as never), false);
  });
});

describe('planLimitWait', () => {
  test('with a future reset: waits until the reset plus a 30-second margin', () => {
    const plan = planLimitWait({ resetsAt: NOW + HOUR, attempt: 0, now: NOW });
    assert.equal(plan.action, 'wait');
    assert.equal(plan.action === 'wait' && plan.until, NOW + HOUR + 30_000);
    assert.match(plan.reason, /resets at 2025-01-15 13:00 UTC/);
    assert.match(plan.reason, /Waiting 1h 01m/);
  });

  test('a custom margin, including none', () => {
    const plan = planLimitWait({ resetsAt: NOW + HOUR, attempt: 0, now: NOW, marginMs: 0 });
    assert.equal(plan.action === 'wait' && plan.until, NOW + HOUR);
  });

  test('gives up when the reset is further away than 12 hours, saying when and how to resume', () => {
    const plan = planLimitWait({ resetsAt: NOW + 13 * HOUR, attempt: 0, now: NOW });
    assert.equal(plan.action, 'give_up');
    assert.match(plan.reason, /resets at 2025-01-16 01:00 UTC \(in 13h 00m\)/);
    assert.match(plan.reason, /`shim loop --resume`/);
  });

  test('the 12-hour bound includes the margin', () => {
    const at = (resetsAt: number) => planLimitWait({ resetsAt, attempt: 0, now: NOW }).action;
    assert.equal(at(NOW + 12 * HOUR - 30_000), 'wait');
    assert.equal(at(NOW + 12 * HOUR - 29_999), 'give_up');
  });

  test('no reset time: exponential backoff from 1 minute, capped at 30 minutes', () => {
    const until = (attempt: number): number | null => {
      const plan = planLimitWait({ resetsAt: null, attempt, now: NOW });
      return plan.action === 'wait' ? plan.until - NOW : null;
    };
    assert.equal(until(0), MIN);
    assert.equal(until(1), 2 * MIN);
    assert.equal(until(4), 16 * MIN);
    assert.equal(until(5), 30 * MIN);
    assert.equal(until(20), 30 * MIN);
    const plan = planLimitWait({ resetsAt: null, attempt: 1, now: NOW });
    assert.match(plan.reason, /no reset time was given\. Retry 2 in 2m/);
  });

  test('a reset time in the past falls back to the backoff', () => {
    const plan = planLimitWait({ resetsAt: NOW - MIN, attempt: 2, now: NOW });
    assert.equal(plan.action === 'wait' && plan.until, NOW + 4 * MIN);
    assert.match(plan.reason, /has passed/);
    const exactlyNow = planLimitWait({ resetsAt: NOW, attempt: 0, now: NOW });
    assert.equal(exactlyNow.action === 'wait' && exactlyNow.until, NOW + MIN);
  });

  test('never retries forever: gives up once the backoff has added up to 12 hours', () => {
    // 1+2+4+8+16 minutes, then 30 minutes a try: 691 minutes after try 27, 721 after try 28.
    assert.equal(planLimitWait({ resetsAt: null, attempt: 26, now: NOW }).action, 'wait');
    const plan = planLimitWait({ resetsAt: null, attempt: 27, now: NOW });
    assert.equal(plan.action, 'give_up');
    assert.match(plan.reason, /Still limited after 28 tries/);
    assert.match(plan.reason, /`shim loop --resume`/);
    assert.equal(planLimitWait({ resetsAt: null, attempt: 1e12, now: NOW }).action, 'give_up');
  });

  test('gives up when one backoff step alone is longer than the longest wait', () => {
    const plan = planLimitWait({
      resetsAt: null,
      attempt: 4,
      now: NOW,
      fallbackMs: HOUR,
      maxBackoffMs: 24 * HOUR,
    });
    assert.equal(plan.action, 'give_up');
  });

  test('custom limits are honoured', () => {
    const plan = planLimitWait({
      resetsAt: null,
      attempt: 3,
      now: NOW,
      fallbackMs: 1000,
      maxBackoffMs: 5000,
    });
    assert.equal(plan.action === 'wait' && plan.until, NOW + 5000);
    const short = planLimitWait({
      resetsAt: NOW + 2 * HOUR,
      attempt: 0,
      now: NOW,
      maxWaitMs: HOUR,
    });
    assert.equal(short.action, 'give_up');
  });

  test('broken numbers fall back to the defaults; a broken now or input gives up', () => {
    const plan = planLimitWait({
      resetsAt: Number.NaN,
      attempt: -3,
      now: NOW,
      fallbackMs: -1,
      maxBackoffMs: Number.NaN,
      maxWaitMs: 0,
      marginMs: -5,
    });
    assert.equal(plan.action === 'wait' && plan.until, NOW + MIN);
    const margin = planLimitWait({ resetsAt: NOW + MIN, attempt: 0, now: NOW, marginMs: Infinity });
    assert.equal(margin.action === 'wait' && margin.until, NOW + MIN + 30_000);
    assert.equal(planLimitWait({ resetsAt: null, attempt: 0, now: Number.NaN }).action, 'give_up');
    assert.equal(planLimitWait(null as never).action, 'give_up');
    const fraction = planLimitWait({ resetsAt: null, attempt: 2.7, now: NOW });
    assert.equal(fraction.action === 'wait' && fraction.until, NOW + 4 * MIN);
  });
});

describe('formatDuration', () => {
  test('seconds, minutes, then hours and minutes', () => {
    assert.equal(formatDuration(45_000), '45s');
    assert.equal(formatDuration(12 * MIN), '12m');
    assert.equal(formatDuration(4 * HOUR + 5 * MIN), '4h 05m');
    assert.equal(formatDuration(-1), '0s');
    assert.equal(formatDuration(Number.NaN), '0s');
  });
});
