/**
 * Now: every running session as a gauge — its context against the compaction threshold with the
 * L1–L3 bands, the forecast's range, the crash risk, the newest checkpoint's age, the issue —
 * kept current by the server's stream. A session about to compact is drawn first, in the
 * strongest colour and with words that say so, so it stands out without reading a number.
 * @module
 */
import type { LiveSession } from '../../app/dashboard/live-sessions.ts';
import { agentName } from '../../core/agent-id.ts';
import { embedded, getJson } from './data.ts';
import { ago, h, present, shortId, tokens } from './dom.ts';

type LiveList = { sessions: LiveSession[]; windowMinutes: number };

const RISK_WORDS: Record<LiveSession['risk'], string> = {
  safe: 'low crash risk',
  warning: 'crash risk: warning',
  danger: 'crash risk: danger',
};

function forecastText(s: LiveSession): string {
  if (!s.autoCompact) return 'auto-compact off';
  if (s.turns === null) return 'no forecast yet';
  const low = s.turnsLow ?? s.turns;
  const high = s.turnsHigh ?? s.turns;
  const range = low === high ? `~${low}` : `~${low}–${high}`;
  return `${range} response${high === 1 ? '' : 's'} to compaction`;
}

function urgency(s: LiveSession): 'calm' | 'watch' | 'near' | 'imminent' {
  if (s.level === 'L3') return 'imminent';
  if (s.level === 'L2') return 'near';
  if (s.level === 'L1' || s.risk !== 'safe') return 'watch';
  return 'calm';
}

const URGENCY_WORDS = {
  calm: null,
  watch: 'filling',
  near: 'compaction near',
  imminent: 'compacting soon',
} as const;

/** The bar: bands from each level's start to the threshold, the context as a fill over them. */
function gauge(s: LiveSession): HTMLElement {
  const clamp = (x: number) => Math.max(0, Math.min(100, x));
  // Through the style object: the page's CSP allows no style attributes.
  const band = (from: number, to: number, level: string) => {
    const el = h('span', { class: `band ${level}` });
    el.style.left = `${clamp(from)}%`;
    el.style.width = `${clamp(to) - clamp(from)}%`;
    return el;
  };
  const fill = h('span', { class: 'fill' });
  fill.style.width = `${clamp(s.percent)}%`;
  return h(
    'div',
    {
      class: 'gauge',
      role: 'meter',
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': Math.round(clamp(s.percent)),
      'aria-label': `context ${Math.round(s.percent)}% of the compaction threshold`,
    },
    band(s.levels.L1, s.levels.L2, 'l1'),
    band(s.levels.L2, s.levels.L3, 'l2'),
    band(s.levels.L3, 100, 'l3'),
    fill,
  );
}

function card(s: LiveSession, now: number): HTMLElement {
  const level = urgency(s);
  const words = URGENCY_WORDS[level];
  return h(
    'li',
    {
      class: `live-card ${level}`,
      'data-session': s.id,
      'data-percent': Math.round(s.percent),
      'data-level': s.level,
    },
    h(
      'div',
      { class: 'live-head' },
      h(
        'a',
        { class: 'live-title', href: `#/session/${encodeURIComponent(s.id)}` },
        s.goal ?? `Session ${shortId(s.id)}`,
      ),
      words ? h('span', { class: `badge ${level}` }, words) : null,
    ),
    h(
      'p',
      { class: 'live-meta' },
      ...present(
        h('span', {}, s.project ?? 'unknown project'),
        s.issue ? h('span', { class: 'issue' }, s.issue) : null,
        h(
          'span',
          { 'data-agent': s.agent },
          `${agentName(s.agent)} · ${s.model ?? 'model unknown'}`,
        ),
      ),
    ),
    h(
      'div',
      { class: 'live-figures' },
      h('span', { class: 'percent', 'data-col': 'percent' }, `${Math.round(s.percent)}%`),
      h(
        'span',
        { class: 'tokens', 'data-tokens': s.contextTokens },
        `${tokens(s.contextTokens)} of ${tokens(s.compactThreshold)} tokens · ${s.level}`,
      ),
    ),
    gauge(s),
    h(
      'ul',
      { class: 'live-facts' },
      h('li', { 'data-col': 'forecast' }, forecastText(s)),
      h('li', { class: `risk ${s.risk}` }, RISK_WORDS[s.risk]),
      h(
        'li',
        { 'data-col': 'checkpoint' },
        s.lastCheckpointAt
          ? `checkpoint ${ago(Date.parse(s.lastCheckpointAt), now)}`
          : 'no checkpoint yet',
      ),
      s.compactions > 0
        ? h('li', {}, `${s.compactions} compaction${s.compactions === 1 ? '' : 's'}`)
        : null,
    ),
  );
}

function order(list: HTMLElement, sessions: Map<string, LiveSession>, now: number): void {
  const sorted = [...sessions.values()].sort(
    (a, b) => b.percent - a.percent || a.id.localeCompare(b.id),
  );
  list.replaceChildren(...sorted.map((s) => card(s, now)));
}

export async function renderLive(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const initial = await getJson<LiveList>('/api/live');
  const sessions = new Map(initial.sessions.map((s) => [s.id, s]));
  const list = h('ul', { class: 'live-list', 'data-view': 'live', 'aria-label': 'Running now' });
  const count = h('p', { class: 'muted', 'aria-live': 'polite' });
  const empty = h(
    'p',
    { class: 'empty' },
    `No session is running now (none wrote in the last ${initial.windowMinutes} minutes). `,
    h('a', { href: '#/sessions' }, 'Every session'),
  );
  const redraw = () => {
    const now = Date.now();
    order(list, sessions, now);
    const n = sessions.size;
    count.textContent = `${n} session${n === 1 ? '' : 's'} running · nearest to compaction first`;
    empty.hidden = n > 0;
    list.hidden = n === 0;
  };
  root.replaceChildren(h('h1', {}, 'Now'), count, empty, list);
  redraw();
  performance.mark('live-rendered');
  root.setAttribute('data-ready', 'live');
  if (embedded) return;
  const source = new EventSource('/api/live/events');
  signal.addEventListener('abort', () => source.close());
  source.addEventListener('session', (message) => {
    const s = JSON.parse((message as MessageEvent<string>).data) as LiveSession;
    sessions.set(s.id, s);
    redraw();
  });
  source.addEventListener('gone', (message) => {
    const { id } = JSON.parse((message as MessageEvent<string>).data) as { id: string };
    sessions.delete(id);
    redraw();
  });
  // Ages ("checkpoint 3 min ago") move on while nothing else does.
  const timer = setInterval(redraw, 30_000);
  signal.addEventListener('abort', () => clearInterval(timer));
}
