/**
 * A session's timeline: context per response against the compaction threshold, the L1–L3 bands
 * under it, compactions and checkpoints where they happened, the forecast's range past the
 * newest response, and the tool calls and failures beneath. Markers are page elements (buttons
 * and rules over the chart) so they can be hovered, clicked and read.
 * @module
 */
import uPlot from 'uplot';
import type { SessionTimeline, TimelinePoint } from '../../app/dashboard/session-timeline.ts';
import type { SessionLineage } from '../../app/dashboard/lineage-view.ts';
import { getJson } from './data.ts';
import { h, plural, present, shortId, tokens, when } from './dom.ts';
import { renderLineage } from './lineage-view.ts';

const BAND_COLORS = ['rgba(234,179,8,0.12)', 'rgba(249,115,22,0.15)', 'rgba(239,68,68,0.18)'];

/** The page's theme colours (light or dark), for what the canvas draws itself. */
function themeColors() {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: read('--fg', '#0f172a'),
    muted: read('--muted', '#475569'),
    line: read('--line', '#e2e8f0'),
    accent: read('--accent', '#2563eb'),
    bad: read('--bad', '#dc2626'),
  };
}

function axis(label: string, size?: number): uPlot.Axis {
  const c = themeColors();
  return {
    label,
    stroke: c.muted,
    grid: { stroke: c.line, width: 1 },
    ticks: { stroke: c.line, width: 1 },
    ...(size ? { size } : {}),
  };
}

const responseValues = (_u: uPlot, vals: number[]) =>
  vals.map((v) => (Number.isInteger(v) ? String(Number(v) + 1) : ''));

function describe(p: TimelinePoint, index: number): string {
  return `response ${index + 1} (line ${p.line}) · ${tokens(p.context)} of ${tokens(p.threshold)} (${p.percent.toFixed(0)}%, ${p.level}) · ${when(p.at)} · ${p.tools} tool call${p.tools === 1 ? '' : 's'}${p.failures ? `, ${p.failures} failed` : ''}`;
}

function contextChart(
  t: SessionTimeline,
  width: number,
  info: HTMLElement,
  onDraw: (u: uPlot) => void,
): uPlot {
  const n = t.points.length;
  const reach = t.forecast?.high ?? t.forecast?.turns ?? 0;
  const xs = t.points.map((_, i) => i);
  const last = t.points[n - 1];
  const colors = themeColors();
  const bands = (u: uPlot) => {
    if (!last) return;
    const { ctx, bbox } = u;
    const levels = [t.levels.L1, t.levels.L2, t.levels.L3, 100];
    ctx.save();
    for (let i = 0; i < 3; i++) {
      const top = u.valToPos((last.threshold * levels[i + 1]!) / 100, 'y', true);
      const bottom = u.valToPos((last.threshold * levels[i]!) / 100, 'y', true);
      ctx.fillStyle = BAND_COLORS[i]!;
      ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
    }
    const f = t.forecast;
    if (f && f.low !== null && f.high !== null) {
      const x0 = u.valToPos(n - 1 + f.low, 'x', true);
      const x1 = u.valToPos(n - 1 + f.high, 'x', true);
      ctx.fillStyle = 'rgba(59,130,246,0.15)';
      ctx.fillRect(x0, bbox.top, Math.max(2, x1 - x0), bbox.height);
    }
    ctx.restore();
  };
  return new uPlot(
    {
      width,
      // The same on both charts, so a response is at the same x in each.
      padding: [12, 28, 0, 0],
      height: 320,
      scales: {
        x: { time: false, range: [0, Math.max(1, n - 1 + reach)] },
        y: { range: (_u, _min, max) => [0, Math.max(max, last?.threshold ?? max) * 1.05] },
      },
      series: [
        { label: 'Response', value: (_u, v) => (v === null ? '–' : `#${v + 1}`) },
        {
          label: 'Context',
          stroke: colors.accent,
          width: 2,
          points: { show: n <= 40 },
          value: (_u, v) => (v === null ? '–' : `${tokens(v)} tokens`),
        },
        {
          label: 'Compaction threshold',
          stroke: colors.bad,
          width: 1,
          dash: [6, 4],
          points: { show: false },
          value: (_u, v) => (v === null ? '–' : `${tokens(v)} tokens`),
        },
      ],
      axes: [
        { ...axis('Response'), values: responseValues },
        {
          ...axis('Context (tokens)', 72),
          values: (_u, vals) => vals.map((v) => tokens(Number(v))),
        },
      ],
      // The hover line above the charts says each response's values: the legend only names.
      legend: { live: false },
      cursor: { sync: { key: 'shim-timeline' } },
      hooks: {
        drawClear: [bands],
        draw: [onDraw],
        setCursor: [
          (u) => {
            const i = u.cursor.idx;
            const p = i === null || i === undefined ? null : t.points[i];
            info.textContent = p
              ? describe(p, i!)
              : 'Hover the chart for a response; click a checkpoint to open it.';
          },
        ],
      },
    },
    [xs, t.points.map((p) => p.context), t.points.map((p) => p.threshold)],
    (self, init) => {
      info.before(self.root);
      init();
    },
  );
}

function toolChart(t: SessionTimeline, width: number, before: HTMLElement): uPlot {
  const bars = uPlot.paths.bars!({ size: [0.8, 12] });
  return new uPlot(
    {
      width,
      // The same on both charts, so a response is at the same x in each.
      padding: [12, 28, 0, 0],
      height: 150,
      scales: {
        x: {
          time: false,
          range: [
            0,
            Math.max(1, t.points.length - 1 + (t.forecast?.high ?? t.forecast?.turns ?? 0)),
          ],
        },
      },
      // The hover line above the charts says each response's values: the legend only names.
      legend: { show: true, live: false },
      series: [
        { label: 'Response', value: (_u, v) => (v === null ? '–' : `#${v + 1}`) },
        {
          label: 'Tool calls',
          fill: 'rgba(100,116,139,0.55)',
          stroke: 'rgba(100,116,139,0.9)',
          paths: bars,
          points: { show: false },
        },
        {
          label: 'Failed',
          fill: 'rgba(220,38,38,0.8)',
          stroke: '#dc2626',
          paths: bars,
          points: { show: false },
        },
      ],
      axes: [
        { ...axis('Response'), values: responseValues },
        {
          ...axis('Tool calls', 72),
          values: (_u, vals) => vals.map((v) => (Number.isInteger(v) ? String(v) : '')),
        },
      ],
      cursor: { sync: { key: 'shim-timeline' } },
    },
    [t.points.map((_, i) => i), t.points.map((p) => p.tools), t.points.map((p) => p.failures)],
    (self, init) => {
      before.after(self.root);
      init();
    },
  );
}

/**
 * Rules for compactions and links for checkpoints over the plot, placed again at every draw (the
 * scales are known only once the chart has drawn, and change with its size).
 */
function markerLayer(t: SessionTimeline): { layer: HTMLElement; place: (u: uPlot) => void } {
  const layer = h('div', { class: 'markers' });
  // y: the context the marker sits on (a checkpoint or restore on the line); null for rules.
  const placed: Array<{ el: HTMLElement; x: number; y: number | null }> = [];
  for (const c of t.compactions) {
    const el = h(
      'div',
      {
        class: `marker-compaction ${c.trigger}`,
        'data-after': c.after,
        'data-kind': c.kind,
        title: `${c.trigger} compaction (${c.kind}) after response ${c.after + 1}: ${tokens(c.preTokens)} → ${tokens(c.postTokens)}`,
      },
      h(
        'span',
        {},
        `${c.trigger === 'auto' ? '⟲' : '✂'} ${tokens(c.preTokens)}→${tokens(c.postTokens)}`,
      ),
    );
    placed.push({ el, x: c.after + 0.5, y: null });
  }
  for (const c of t.checkpoints) {
    if (c.at === null) continue;
    const el = h(
      'a',
      {
        class: 'marker-checkpoint',
        href: `#/checkpoint/${encodeURIComponent(c.id)}`,
        'data-at': c.at,
        'data-trigger': c.trigger,
        title: `checkpoint #${c.number} (${c.trigger}) at response ${c.at + 1}, ${when(c.createdAt)}`,
        'aria-label': `checkpoint #${c.number}, ${c.trigger}`,
      },
      '◆',
    );
    placed.push({ el, x: c.at, y: t.points[c.at]?.context ?? null });
  }
  // A restore into this session happened before its first response.
  for (const r of t.restores.filter((x) => x.intoSession === t.sessionId)) {
    const el = h(
      'a',
      {
        class: 'marker-restore',
        href: `#/checkpoint/${encodeURIComponent(r.checkpointId)}`,
        title: `restored from checkpoint ${shortId(r.checkpointId)}${r.fromSession ? ` of session ${shortId(r.fromSession)}` : ''} (${r.reason}, ${when(r.restoredAt)})`,
        'aria-label': 'restored from a checkpoint',
      },
      '↺',
    );
    placed.push({ el, x: 0, y: t.points[0]?.context ?? null });
  }
  layer.append(...placed.map((p) => p.el));
  return {
    layer,
    place: (u) => {
      if (layer.parentElement !== u.over) u.over.append(layer);
      for (const p of placed) {
        const left = u.valToPos(p.x, 'x');
        p.el.style.left = `${left}px`;
        if (p.y !== null) p.el.style.top = `${u.valToPos(p.y, 'y')}px`;
        // A label near the right edge is drawn on the rule's left.
        p.el.classList.toggle('flip', left > u.over.clientWidth * 0.8);
      }
      clearLabels(placed.map((p) => p.el));
    },
  };
}

const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * A compaction's label sits at the top of the plot, where the context peaks — where the
 * checkpoint taken just before the compaction is drawn too. A label that covers a marker moves
 * down below it (each move clears one marker; a few at one response are few moves).
 */
function clearLabels(markers: readonly HTMLElement[]): void {
  const points = markers.filter((m) => !m.classList.contains('marker-compaction'));
  for (const rule of markers) {
    const label = rule.classList.contains('marker-compaction') ? rule.querySelector('span') : null;
    if (label === null) continue;
    label.style.top = '';
    for (let moves = 0; moves <= points.length; moves++) {
      const box = label.getBoundingClientRect();
      const hit = points.find((m) => overlaps(box, m.getBoundingClientRect()));
      if (hit === undefined) break;
      label.style.top = `${hit.getBoundingClientRect().bottom - rule.getBoundingClientRect().top + 2}px`;
    }
  }
}

let resizing: ResizeObserver | null = null;

export async function renderTimeline(root: HTMLElement, sessionId: string): Promise<void> {
  const path = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const [t, lineage] = await Promise.all([
    getJson<SessionTimeline>(`${path}/timeline`),
    // An export made before lineage existed has none: the page goes on without it.
    getJson<SessionLineage>(`${path}/lineage`).catch(() => null),
  ]);
  const info = h(
    'p',
    { class: 'hover-info' },
    'Hover the chart for a response; click a checkpoint to open it.',
  );
  const chart = h('section', { class: 'chart' }, info);
  const f = t.forecast;
  const restoredInto = t.restores.filter((r) => r.intoSession === t.sessionId);
  const restoredFrom = t.restores.filter(
    (r) => r.fromSession === t.sessionId && r.intoSession !== t.sessionId,
  );
  root.replaceChildren(
    ...present(
      h('p', {}, h('a', { href: '#/sessions' }, '← Sessions')),
      h('h1', {}, `Session ${shortId(t.sessionId)}`),
      h(
        'p',
        { class: 'meta' },
        `${t.project ?? 'unknown project'} · ${t.model ?? 'model unknown'} · Claude Code ${t.cliVersion ?? '?'} · ${plural(t.points.length, 'response')} · ${plural(t.compactions.length, 'compaction')} · ${plural(t.checkpoints.length, 'checkpoint')}`,
      ),
      lineage ? renderLineage(lineage) : null,
      f && f.turns !== null
        ? h(
            'p',
            { class: 'forecast' },
            `Forecast from the newest response: compaction in ~${plural(f.turns, 'response')} (80%: ${f.low ?? '?'}–${f.high ?? '?'}), shaded past the end.`,
          )
        : null,
      ...restoredInto.map((r) =>
        h(
          'p',
          { class: 'restore' },
          'Restored from ',
          h(
            'a',
            { href: `#/checkpoint/${encodeURIComponent(r.checkpointId)}` },
            `checkpoint ${shortId(r.checkpointId)}`,
          ),
          r.fromSession ? ` of session ${shortId(r.fromSession)}` : '',
          ` (${r.reason}, ${when(r.restoredAt)})`,
        ),
      ),
      chart,
    ),
  );
  if (t.points.length === 0) {
    chart.replaceChildren(h('p', { class: 'empty' }, 'This transcript has no responses yet.'));
  } else {
    const width = Math.max(320, chart.clientWidth || root.clientWidth || 960);
    const markers = markerLayer(t);
    const plots = [contextChart(t, width, info, markers.place), toolChart(t, width, info)];
    // From half a laptop's screen to a wide monitor: the charts follow the page's width.
    resizing?.disconnect();
    resizing = new ResizeObserver(() => {
      const next = Math.max(320, chart.clientWidth);
      for (const plot of plots)
        if (plot.root.isConnected && Math.abs(plot.width - next) > 4)
          plot.setSize({ width: next, height: plot.height });
    });
    resizing.observe(chart);
  }
  root.append(
    ...present(
      h('h2', {}, 'Compactions'),
      t.compactions.length === 0
        ? h('p', { class: 'muted' }, 'None.')
        : h(
            'table',
            { class: 'compactions' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['After response', 'Trigger', 'Kind', 'Before', 'After'].map((x) =>
                  h('th', {}, x),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              ...t.compactions.map((c) =>
                h(
                  'tr',
                  { 'data-after': c.after },
                  h('td', {}, c.after + 1),
                  h('td', {}, c.trigger),
                  h('td', {}, c.kind),
                  h('td', { class: 'num' }, tokens(c.preTokens)),
                  h('td', { class: 'num' }, tokens(c.postTokens)),
                ),
              ),
            ),
          ),
      h('h2', {}, 'Checkpoints'),
      t.checkpoints.length === 0
        ? h('p', { class: 'muted' }, 'None: shim took no checkpoint of this session.')
        : h(
            'table',
            { class: 'checkpoints' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['#', 'Trigger', 'At response', 'Taken', 'Restored'].map((x) => h('th', {}, x)),
              ),
            ),
            h(
              'tbody',
              {},
              ...t.checkpoints.map((c) =>
                h(
                  'tr',
                  { 'data-checkpoint': c.id },
                  h(
                    'td',
                    {},
                    h('a', { href: `#/checkpoint/${encodeURIComponent(c.id)}` }, `#${c.number}`),
                  ),
                  h('td', {}, c.trigger),
                  h('td', {}, c.at === null ? '–' : c.at + 1),
                  h('td', {}, when(c.createdAt)),
                  h('td', {}, c.restoredAt ? when(c.restoredAt) : '–'),
                ),
              ),
            ),
          ),
      restoredFrom.length
        ? h(
            'p',
            { class: 'restore' },
            `Its checkpoints were restored into ${restoredFrom.length} later session${restoredFrom.length === 1 ? '' : 's'}: `,
            ...restoredFrom.map((r) =>
              h(
                'a',
                { href: `#/session/${encodeURIComponent(r.intoSession)}` },
                `${shortId(r.intoSession)} `,
              ),
            ),
          )
        : null,
    ),
  );
  performance.mark('timeline-rendered');
  root.setAttribute('data-ready', 'timeline');
}
