/**
 * Usage and rate limits for `shim loop`: recognize a limit message, read when the limit resets,
 * and plan the wait, so the loop sleeps until the reset instead of exiting or spinning
 * (umputun/ralphex#157, snarktank/ralph#82, Yeachan-Heo/oh-my-claudecode#777). A timeout is
 * not a limit (frankbria/ralph-claude-code#183).
 *
 * Pure: `now` and the local time-zone offset come from the caller.
 * @module
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A clock time that has just passed ("resets 3pm" read at 3:04pm) names this reset, not the
 * one tomorrow: the message was written before the reset. Within this grace the past time is
 * returned, and {@link planLimitWait} falls back to a short backoff.
 */
export const RESET_GRACE_MS = 10 * MINUTE;

export const DEFAULT_LIMIT_FALLBACK_MS = MINUTE;
export const DEFAULT_LIMIT_MAX_BACKOFF_MS = 30 * MINUTE;
export const DEFAULT_LIMIT_MAX_WAIT_MS = 12 * HOUR;
export const DEFAULT_LIMIT_MARGIN_MS = 30_000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** Hours and minutes from "3", "3:30", "15:30" plus an optional am/pm; null when invalid. */
function clock(
  hourText: string | undefined,
  minuteText: string | undefined,
  meridiem: string | undefined,
): { hour: number; minute: number } | null {
  if (hourText === undefined) return null;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || minute > 59) return null;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    const pm = meridiem.toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour > 23) return null;
  return { hour, minute };
}

/** Epoch ms of a wall-clock time in the zone `offset` minutes east of UTC. */
const wallToEpoch = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  offset: number,
): number => Date.UTC(year, month, day, hour, minute) - offset * MINUTE;

const MERIDIEM = String.raw`(?:\s*([ap])\.?\s?m\b\.?)`;
/** "resets", "reset at", "will reset at", "resets on". */
const RESETS = String.raw`\bresets?\s+(?:(?:at|on)\s+)?`;

const EPOCH_RE = /limit reached[^|\n]{0,40}\|\s*(\d{9,13})\b/i;
const DATE_RE = new RegExp(
  String.raw`${RESETS}(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b` +
    String.raw`(?:,?\s*(?:at\s+)?(\d{1,2})(?::(\d{2}))?${MERIDIEM}?(?![\d:]))?`,
  'i',
);
const TIME_RE = new RegExp(
  String.raw`${RESETS}(\d{1,2})(?:(?::(\d{2}))${MERIDIEM}?|${MERIDIEM})(?![\d:])`,
  'i',
);
const DURATION_UNIT = String.raw`(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b`;
const RELATIVE_RE = new RegExp(
  String.raw`\b(?:in|after)\s+((?:\d+(?:\.\d+)?\s*${DURATION_UNIT}(?:\s*(?:,|and)?\s*)?)+)`,
  'i',
);
const RETRY_AFTER_RE = /\bretry-after:\s*(\d+)\b/i;

function unitMs(unit: string): number {
  const u = unit.toLowerCase();
  if (u.startsWith('h')) return HOUR;
  if (u.startsWith('m')) return MINUTE;
  return 1000;
}

/**
 * Epoch ms of the reset a limit message names, or null. Understands, in this order:
 * `…limit reached|1738425600` (epoch seconds, or ms with 13 digits); `resets Aug 8` and
 * `resets Aug 8, 3pm`; `resets 3pm`, `resets 3:30pm (Europe/Berlin)`, `resets at 15:30`;
 * `try again in 5 minutes`, `in 2 hours`, `retry after 30 seconds`, `in 1h 30m`,
 * `Retry-After: 30`. Zone names are ignored: clock times are read in the zone
 * `timeZoneOffsetMinutes` east of UTC, as the next such time after `now` (or one that passed
 * less than {@link RESET_GRACE_MS} ago). A date without a time means its midnight.
 */
export function parseLimitReset(
  text: string,
  now: number,
  timeZoneOffsetMinutes = 0,
): number | null {
  if (typeof text !== 'string' || !isFiniteNumber(now)) return null;
  const offset =
    isFiniteNumber(timeZoneOffsetMinutes) && Math.abs(timeZoneOffsetMinutes) <= 18 * 60
      ? timeZoneOffsetMinutes
      : 0;
  const input = text.slice(0, 20_000);
  const local = new Date(now + offset * MINUTE);
  const year = local.getUTCFullYear();

  const epoch = EPOCH_RE.exec(input);
  if (epoch?.[1]) {
    const value = Number(epoch[1]);
    return epoch[1].length >= 12 ? value : value * 1000;
  }

  const date = DATE_RE.exec(input);
  if (date?.[1] && date[2]) {
    const month = MONTHS.indexOf(date[1].toLowerCase());
    const day = Number(date[2]);
    const time = date[3] === undefined ? { hour: 0, minute: 0 } : clock(date[3], date[4], date[5]);
    if (month >= 0 && time && day >= 1 && day <= 31) {
      for (const y of [year, year + 1]) {
        const at = wallToEpoch(y, month, day, time.hour, time.minute, offset);
        if (new Date(at + offset * MINUTE).getUTCDate() !== day) continue; // Feb 30
        if (at >= now - RESET_GRACE_MS) return at;
      }
    }
  }

  const time = TIME_RE.exec(input);
  if (time) {
    const parsed = clock(time[1], time[2], time[3] ?? time[4]);
    if (parsed) {
      const today = wallToEpoch(
        year,
        local.getUTCMonth(),
        local.getUTCDate(),
        parsed.hour,
        parsed.minute,
        offset,
      );
      return today >= now - RESET_GRACE_MS ? today : today + DAY;
    }
  }

  const relative = RELATIVE_RE.exec(input);
  if (relative?.[1]) {
    let total = 0;
    const part = new RegExp(String.raw`(\d+(?:\.\d+)?)\s*${DURATION_UNIT}`, 'gi');
    for (const match of relative[1].matchAll(part)) {
      total += Number(match[1]) * unitMs(match[2] ?? 's');
    }
    if (Number.isFinite(total) && total >= 0) return now + total;
  }

  const retryAfter = RETRY_AFTER_RE.exec(input);
  if (retryAfter?.[1]) return now + Number(retryAfter[1]) * 1000;
  return null;
}

const TIMEOUT_RE =
  /\btimed?[\s-]?out\b|\btimeout\b|\bETIMEDOUT\b|\bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?\s*:?\s*124\b|\bdeadline exceeded\b/i;
const STRONG_LIMIT_RE =
  /\busage limit\b|\bhit your (?:usage |session |weekly )?limit\b|\blimit reached\s*\|\s*\d{9,13}|\b(?:5|five)[\s-]hour limit\b/i;
const WEAK_LIMIT_RE = new RegExp(
  [
    String.raw`\brate[\s_-]?limit(?:ed\b|_error|\s+(?:exceeded|reached|hit|error))`,
    String.raw`\b(?:hit|reached|exceeded)\s+(?:the\s+|a\s+|your\s+)?rate[\s_-]?limit`,
    String.raw`(?<!context\s)(?<!token\s)(?<!tokens\s)\blimit\s+(?:reached|exceeded)\b`,
    String.raw`\b(?:status|error|http|code)\b[^\n]{0,20}\b429\b`,
    String.raw`\b429\b[^\n]{0,10}too many requests`,
    String.raw`\btoo many requests\b`,
    String.raw`\bout of (?:extra )?usage\b`,
  ].join('|'),
  'i',
);

/**
 * Usage- or rate-limit wording: "usage limit", "hit your limit", "rate limit exceeded",
 * "limit reached", HTTP 429, "too many requests". A timeout ("timed out", exit 124) is not a
 * limit unless the text also carries the explicit usage-limit wording; "context limit
 * reached" is not a usage limit. Pass the error output, not the agent's prose: an agent
 * writing about rate limiting in the code it builds is not being limited.
 */
export function isLimitMessage(text: string): boolean {
  if (typeof text !== 'string' || text === '') return false;
  const input = text.slice(0, 20_000);
  if (STRONG_LIMIT_RE.test(input)) return true;
  if (TIMEOUT_RE.test(input)) return false;
  return WEAK_LIMIT_RE.test(input);
}

export type LimitWaitInput = {
  /** Epoch ms of the reset, from {@link parseLimitReset}; null when unknown. */
  resetsAt: number | null;
  /** Limit hits in a row before this one: 0 for the first. */
  attempt: number;
  now: number;
  /** First backoff step when the reset time is unknown. Default 1 minute. */
  fallbackMs?: number;
  /** Longest single backoff step. Default 30 minutes. */
  maxBackoffMs?: number;
  /** Longest the loop waits before giving up. Default 12 hours. */
  maxWaitMs?: number;
  /** Added to a known reset time. Default 30 seconds. */
  marginMs?: number;
};

export type LimitWait =
  { action: 'wait'; until: number; reason: string } | { action: 'give_up'; reason: string };

const positive = (value: unknown, fallback: number): number =>
  isFiniteNumber(value) && value > 0 ? value : fallback;

/** "4h 05m", "12m", "45s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(isFiniteNumber(ms) ? ms / 1000 : 0));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const formatTime = (ms: number): string => {
  const date = new Date(ms);
  return Number.isNaN(date.getTime())
    ? 'an unknown time'
    : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

/**
 * Wait until a known future reset (plus a margin); otherwise back off exponentially,
 * `fallbackMs × 2^attempt` capped at `maxBackoffMs`. Gives up when the wait would pass
 * `maxWaitMs`, and, with no reset time, when the backoff steps so far add up to more than
 * `maxWaitMs`, so a limit that never says when it ends cannot keep the loop retrying forever.
 * Broken numbers fall back to the defaults; a broken `now` gives up.
 */
export function planLimitWait(input: LimitWaitInput): LimitWait {
  const record: Partial<Record<keyof LimitWaitInput, unknown>> =
    input !== null && typeof input === 'object' ? input : {};
  const now = record.now;
  if (!isFiniteNumber(now)) {
    return {
      action: 'give_up',
      reason:
        'Hit a usage limit, and the current time is unknown, so the loop cannot plan a wait. Once the limit resets, run `shim loop --resume`.',
    };
  }
  const fallbackMs = positive(record.fallbackMs, DEFAULT_LIMIT_FALLBACK_MS);
  const maxBackoffMs = positive(record.maxBackoffMs, DEFAULT_LIMIT_MAX_BACKOFF_MS);
  const maxWaitMs = positive(record.maxWaitMs, DEFAULT_LIMIT_MAX_WAIT_MS);
  const marginMs =
    isFiniteNumber(record.marginMs) && record.marginMs >= 0
      ? record.marginMs
      : DEFAULT_LIMIT_MARGIN_MS;
  const attempt =
    isFiniteNumber(record.attempt) && record.attempt > 0 ? Math.floor(record.attempt) : 0;
  const resetsAt = isFiniteNumber(record.resetsAt) ? record.resetsAt : null;

  if (resetsAt !== null && resetsAt > now) {
    const until = resetsAt + marginMs;
    const wait = until - now;
    if (wait > maxWaitMs) {
      return {
        action: 'give_up',
        reason: `The usage limit resets at ${formatTime(resetsAt)} (in ${formatDuration(resetsAt - now)}), longer than the ${formatDuration(maxWaitMs)} the loop waits. After it resets, run \`shim loop --resume\`.`,
      };
    }
    return {
      action: 'wait',
      until,
      reason: `Usage limit reached; it resets at ${formatTime(resetsAt)}. Waiting ${formatDuration(wait)}.`,
    };
  }

  const step = (n: number): number => Math.min(maxBackoffMs, fallbackMs * 2 ** Math.min(n, 60));
  const delay = step(attempt);
  const waited = backoffTotal(attempt, step);
  const why =
    resetsAt === null
      ? 'no reset time was given'
      : `the reset time it named (${formatTime(resetsAt)}) has passed`;
  if (delay > maxWaitMs || waited > maxWaitMs) {
    return {
      action: 'give_up',
      reason: `Still limited after ${attempt + 1} tries over about ${formatDuration(waited)}, and ${why}. Once the limit has reset, run \`shim loop --resume\`.`,
    };
  }
  return {
    action: 'wait',
    until: now + delay,
    reason: `Usage limit reached and ${why}. Retry ${attempt + 1} in ${formatDuration(delay)}.`,
  };
}

/** Sum of the backoff steps 0…attempt; steps stop changing after 64, so the rest is a product. */
function backoffTotal(attempt: number, step: (n: number) => number): number {
  const last = Math.min(attempt, 64);
  let total = 0;
  for (let n = 0; n <= last; n++) total += step(n);
  return total + (attempt - last) * step(64);
}
