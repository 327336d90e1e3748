/**
 * One loop run: its iterations on a time axis (shaded by the context each reached), the context
 * readings over time against the run's restart threshold, its restarts and why, costs, and its
 * events — streamed live while it runs, the summary redrawn when an iteration starts or ends.
 * @module
 */
import uPlot from 'uplot';
import type { LoopRunDetail } from '../../app/dashboard/loop-view.ts';
import { embedded, getJson } from './data.ts';
import { h, present, shortId, tokens, when } from './dom.ts';

type LoopEvent = LoopRunDetail['events'][number];

const RESTARTS = new Set([
  'loop.context_exhaustion_restart',
  'loop.stuck_restart',
  'loop.crash_restart',
]);
/** Events after which the run's record changed: the summary is fetched again. */
const CHANGES =
  /iteration_(started|finished)|restart|completed|stopped|budget_exceeded|usage_limit/;

function eventRow(e: LoopEvent): HTMLElement {
  const detail = Object.entries(e.data)
    .filter(([, v]) => v !== null && typeof v !== 'object')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  return h(
    'li',
    { 'data-seq': e.seq },
    h('span', { class: 'at' }, when(e.at).slice(11)),
    ' ',
    h('span', { class: 'name' }, e.name),
    e.iteration !== null ? ` #${e.iteration}` : '',
    ' ',
    h('span', { class: 'muted' }, detail.slice(0, 200)),
  );
}

const reasonOf = (e: LoopEvent) =>
  [e.data.reason, e.data.why, e.data.percent !== undefined ? `${String(e.data.percent)}%` : null]
    .filter((x) => typeof x === 'string' || typeof x === 'number')
    .join(', ') || e.name.replace(/^loop\./, '').replace(/_/g, ' ');

/** Iterations as bars on a time axis; the bar's shade is the context it reached. */
function iterationAxis(detail: LoopRunDetail, restarts: LoopEvent[]): HTMLElement {
  const its = detail.iterations;
  const start = Date.parse(its[0]?.startedAt ?? detail.run.createdAt);
  const end = Math.max(
    start + 1,
    ...its.map((i) => Date.parse(i.endedAt ?? i.startedAt)),
    Date.parse(detail.run.updatedAt),
  );
  const at = (iso: string) => `${((Date.parse(iso) - start) / (end - start)) * 100}%`;
  const axis = h('div', { class: 'iterations' });
  for (const it of its) {
    const to = it.endedAt ?? detail.run.updatedAt;
    const bar = h(
      'div',
      {
        class: `iteration ${it.mode}`,
        'data-iteration': it.number,
        title: `#${it.number} ${it.mode} · ${it.outcome ?? 'running'} · peak ${tokens(it.peakContextTokens)}${it.peakPercent !== null ? ` (${it.peakPercent.toFixed(0)}%)` : ''} · ${it.toolCalls} tool calls · $${(it.costUsd ?? 0).toFixed(2)}`,
      },
      h('span', {}, `#${it.number}`),
    );
    bar.style.left = at(it.startedAt);
    bar.style.width = `${Math.max(0.5, ((Date.parse(to) - Date.parse(it.startedAt)) / (end - start)) * 100)}%`;
    bar.style.setProperty('--peak', String(Math.min(1, (it.peakPercent ?? 0) / 100)));
    axis.append(bar);
  }
  for (const r of restarts) {
    const tick = h('div', { class: 'restart', title: `restart: ${reasonOf(r)}` });
    tick.style.left = at(r.at);
    axis.append(tick);
  }
  return axis;
}

/** Context readings over time, against the percent the run restarts at. */
/** Draws the chart into `target`; returns how to add a reading that arrives later. */
function contextChart(
  events: LoopEvent[],
  width: number,
  target: HTMLElement,
): (reading: LoopEvent) => void {
  const readings = events.filter((e) => e.name === 'loop.context_usage');
  const series = (list: LoopEvent[]): uPlot.AlignedData => [
    list.map((e) => Date.parse(e.at) / 1000),
    list.map((e) => Number(e.data.percent ?? NaN)),
    list.map((e) => Number(e.data.thresholdPercent ?? NaN)),
  ];
  const chart = new uPlot(
    {
      width,
      height: 180,
      padding: [12, 28, 0, 0],
      scales: { y: { range: [0, 100] } },
      series: [
        {},
        { label: 'context %', stroke: '#2563eb', width: 2, points: { show: true, size: 4 } },
        { label: 'restart at', stroke: '#dc2626', dash: [6, 4], points: { show: false } },
      ],
      axes: [{}, { label: 'context %', size: 64 }],
    },
    series(readings),
    target,
  );
  target.setAttribute('data-readings', String(readings.length));
  return (reading) => {
    readings.push(reading);
    chart.setData(series(readings));
    target.setAttribute('data-readings', String(readings.length));
  };
}

function summary(detail: LoopRunDetail, events: LoopEvent[]): HTMLElement {
  const { run } = detail;
  const restarts = events.filter((e) => RESTARTS.has(e.name));
  return h(
    'section',
    { class: 'loop-summary' },
    h(
      'p',
      { class: 'meta' },
      h('span', { class: `status ${run.liveStatus}` }, run.liveStatus),
      ` · ${run.iteration} iterations · ${run.restarts} restarts · $${run.costUsd.toFixed(2)} · started ${when(run.createdAt)}${run.stopReason ? ` · ${run.stopReason}` : ''}`,
    ),
    h('h2', {}, 'Iterations'),
    iterationAxis(detail, restarts),
    h(
      'table',
      { class: 'iteration-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            '#',
            'Mode',
            'Outcome',
            'Peak context',
            'Tool calls',
            'Cost',
            'Session',
            'Checkpoint',
          ].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        ...detail.iterations.map((it) =>
          h(
            'tr',
            { 'data-iteration': it.number },
            h('td', {}, it.number),
            h('td', {}, it.mode),
            h('td', {}, it.outcome ?? 'running'),
            h(
              'td',
              { class: 'num' },
              `${tokens(it.peakContextTokens)}${it.peakPercent !== null ? ` (${it.peakPercent.toFixed(0)}%)` : ''}`,
            ),
            h('td', { class: 'num' }, it.toolCalls),
            h('td', { class: 'num' }, `$${(it.costUsd ?? 0).toFixed(2)}`),
            h(
              'td',
              {},
              it.sessionId
                ? h(
                    'a',
                    { href: `#/session/${encodeURIComponent(it.sessionId)}` },
                    shortId(it.sessionId),
                  )
                : '–',
            ),
            h(
              'td',
              {},
              it.checkpointId
                ? h(
                    'a',
                    { href: `#/checkpoint/${encodeURIComponent(it.checkpointId)}` },
                    shortId(it.checkpointId),
                  )
                : '–',
            ),
          ),
        ),
      ),
    ),
    h('h2', {}, 'Restarts'),
    restarts.length === 0
      ? h('p', { class: 'muted' }, 'None.')
      : h(
          'ul',
          { class: 'restarts' },
          ...restarts.map((r) =>
            h(
              'li',
              {},
              `${when(r.at).slice(11)} after iteration #${r.iteration ?? '?'}: ${reasonOf(r)}`,
            ),
          ),
        ),
  );
}

export async function renderLoop(
  root: HTMLElement,
  runId: string,
  signal: AbortSignal,
): Promise<void> {
  const path = `/api/loops/${encodeURIComponent(runId)}`;
  const detail = await getJson<LoopRunDetail>(path);
  const seen = [...detail.events];
  const events = h('ol', { class: 'events' }, ...seen.map(eventRow));
  let current = summary(detail, seen);
  const chart = h('div', { class: 'loop-context' });
  root.replaceChildren(
    ...present(
      h('p', {}, h('a', { href: '#/loops' }, '← Loop runs')),
      h('h1', {}, `Loop ${shortId(detail.run.runId)}`),
      h('p', { class: 'title' }, detail.run.goal),
      current,
      h('h2', {}, 'Context'),
      chart,
      h('h2', {}, 'Events'),
      events,
    ),
  );
  const addReading = contextChart(seen, Math.max(480, chart.clientWidth || 960), chart);
  root.setAttribute('data-ready', 'loop');
  if (embedded) return;

  let pending: ReturnType<typeof setTimeout> | null = null;
  const refresh = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      void getJson<LoopRunDetail>(path).then((next) => {
        if (signal.aborted) return;
        const replaced = summary(next, seen);
        current.replaceWith(replaced);
        current = replaced;
      });
    }, 250);
  };
  const source = new EventSource(`${path}/events?after=${seen.at(-1)?.seq ?? 0}`);
  signal.addEventListener('abort', () => source.close());
  source.addEventListener('loop-event', (message) => {
    const event = JSON.parse((message as MessageEvent<string>).data) as LoopEvent;
    seen.push(event);
    events.append(eventRow(event));
    if (event.name === 'loop.context_usage') addReading(event);
    if (CHANGES.test(event.name)) refresh();
  });
  source.addEventListener('end', () => {
    source.close();
    refresh();
  });
}
