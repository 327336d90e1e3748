/**
 * Loop runs: the list, as `shim loop list` shows it (one run: loop-run-view.ts).
 * @module
 */
import type { LoopRunView } from '../../app/loop-runs.ts';
import { getJson } from './data.ts';
import { h, present, shortId, when } from './dom.ts';

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
