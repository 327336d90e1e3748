/**
 * Loop runs: the list (`shim loop list`) and a run's iterations on a time axis with the context
 * each reached, its restarts and costs, and its events — streamed live while it runs.
 * @module
 */
import type { LoopRunDetail } from '../../app/dashboard/loop-view.ts';
import type { LoopRunView } from '../../app/loop-runs.ts';
import { embedded, getJson } from './data.ts';
import { h, present, shortId, tokens, when } from './dom.ts';

type LoopEvent = LoopRunDetail['events'][number];

export async function renderLoops(root: HTMLElement): Promise<void> {
  const { runs } = await getJson<{ runs: LoopRunView[] }>('/api/loops');
  root.replaceChildren(
    ...present(
      h('h1', {}, 'Loop runs'),
      runs.length === 0
        ? h('p', { class: 'empty' }, 'No loop runs yet: shim loop --goal "…" starts one.')
        : h(
            'table',
            { class: 'loops' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...[
                  'Run',
                  'Goal',
                  'Status',
                  'Iterations',
                  'Restarts',
                  'Cost',
                  'Started',
                  'Project',
                ].map((t) => h('th', {}, t)),
              ),
            ),
            h(
              'tbody',
              {},
              ...runs.map((r) =>
                h(
                  'tr',
                  { 'data-run': r.runId },
                  h(
                    'td',
                    {},
                    h('a', { href: `#/loop/${encodeURIComponent(r.runId)}` }, shortId(r.runId)),
                  ),
                  h('td', { class: 'title' }, r.goal),
                  h('td', { class: `status ${r.liveStatus}` }, r.liveStatus),
                  h('td', { class: 'num' }, r.iteration),
                  h('td', { class: 'num' }, r.restarts),
                  h('td', { class: 'num' }, `$${r.costUsd.toFixed(2)}`),
                  h('td', {}, when(r.createdAt)),
                  h('td', { class: 'project' }, r.cwd),
                ),
              ),
            ),
          ),
    ),
  );
  root.setAttribute('data-ready', 'loops');
}

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

/** Iterations as bars on a time axis; the bar's shade is the context it reached. */
function iterationAxis(detail: LoopRunDetail): HTMLElement {
  const its = detail.iterations;
  const start = Date.parse(its[0]?.startedAt ?? detail.run.createdAt);
  const end = Math.max(
    start + 1,
    ...its.map((i) => Date.parse(i.endedAt ?? i.startedAt)),
    Date.parse(detail.run.updatedAt),
  );
  const axis = h('div', { class: 'iterations' });
  for (const it of its) {
    const from = Date.parse(it.startedAt);
    const to = Date.parse(it.endedAt ?? detail.run.updatedAt);
    const bar = h(
      'div',
      {
        class: `iteration ${it.mode}`,
        'data-iteration': it.number,
        title: `#${it.number} ${it.mode} · ${it.outcome ?? 'running'} · peak ${tokens(it.peakContextTokens)}${it.peakPercent !== null ? ` (${it.peakPercent.toFixed(0)}%)` : ''} · ${it.toolCalls} tool calls · $${(it.costUsd ?? 0).toFixed(2)}`,
      },
      h('span', {}, `#${it.number}`),
    );
    bar.style.left = `${((from - start) / (end - start)) * 100}%`;
    bar.style.width = `${Math.max(0.5, ((to - from) / (end - start)) * 100)}%`;
    bar.style.setProperty('--peak', String(Math.min(1, (it.peakPercent ?? 0) / 100)));
    axis.append(bar);
  }
  return axis;
}

export async function renderLoop(
  root: HTMLElement,
  runId: string,
  signal: AbortSignal,
): Promise<void> {
  const detail = await getJson<LoopRunDetail>(`/api/loops/${encodeURIComponent(runId)}`);
  const { run } = detail;
  const events = h('ol', { class: 'events' }, ...detail.events.map(eventRow));
  const status = h('span', { class: `status ${run.liveStatus}` }, run.liveStatus);
  root.replaceChildren(
    ...present(
      h('p', {}, h('a', { href: '#/loops' }, '← Loop runs')),
      h('h1', {}, `Loop ${shortId(run.runId)}`),
      h('p', { class: 'title' }, run.goal),
      h(
        'p',
        { class: 'meta' },
        status,
        ` · ${run.iteration} iterations · ${run.restarts} restarts · $${run.costUsd.toFixed(2)} · started ${when(run.createdAt)}${run.stopReason ? ` · ${run.stopReason}` : ''}`,
      ),
      h('h2', {}, 'Iterations'),
      iterationAxis(detail),
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
              {},
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
      h('h2', {}, 'Events'),
      events,
    ),
  );
  root.setAttribute('data-ready', 'loop');
  if (embedded) return;
  const last = detail.events.at(-1)?.seq ?? 0;
  const source = new EventSource(
    `/api/loops/${encodeURIComponent(run.runId)}/events?after=${last}`,
  );
  signal.addEventListener('abort', () => source.close());
  source.addEventListener('loop-event', (message) => {
    const event = JSON.parse((message as MessageEvent<string>).data) as LoopEvent;
    events.append(eventRow(event));
  });
  source.addEventListener('end', (message) => {
    const { status: s } = JSON.parse((message as MessageEvent<string>).data) as { status: string };
    status.textContent = s;
    status.className = `status ${s}`;
    source.close();
  });
}
