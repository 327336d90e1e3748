/**
 * Sessions: every project and session, newest first, with a project filter and the checkpoint
 * search of `shim search`.
 * @module
 */
import type { SessionList } from '../../app/dashboard/session-list.ts';
import { agentLabel } from '../../core/agent-id.ts';
import { getJson } from './data.ts';
import { h, present, shortId, tokens, when } from './dom.ts';

export async function renderSessions(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const project = params.get('project') ?? '';
  const query = params.get('q') ?? '';
  const api = new URLSearchParams();
  if (project) api.set('project', project);
  if (query) api.set('q', query);
  const list = await getJson<SessionList>(`/api/sessions${api.size ? `?${api}` : ''}`);

  const go = (next: { project?: string; q?: string }) => {
    const p = new URLSearchParams();
    const nextProject = next.project ?? project;
    const nextQuery = next.q ?? query;
    if (nextProject) p.set('project', nextProject);
    if (nextQuery) p.set('q', nextQuery);
    location.hash = `#/sessions${p.size ? `?${p}` : ''}`;
  };
  const search = h('input', {
    type: 'search',
    name: 'q',
    placeholder: 'Search checkpoints (words, "phrases")',
    value: query,
    'aria-label': 'Search checkpoints',
  });
  const form = h(
    'form',
    {
      class: 'filters',
      onsubmit: (event: Event) => {
        event.preventDefault();
        go({ q: search.value.trim() });
      },
    },
    h(
      'select',
      {
        'aria-label': 'Project',
        onchange: (event: Event) => go({ project: (event.target as HTMLSelectElement).value }),
      },
      h('option', { value: '' }, 'All projects'),
      ...list.projects.map((p) => h('option', { value: p, selected: p === project }, p)),
    ),
    search,
    h('button', { type: 'submit' }, 'Search'),
  );

  const rows = list.sessions.map((s) =>
    h(
      'tr',
      { 'data-session': s.id },
      h('td', {}, h('a', { href: `#/session/${encodeURIComponent(s.id)}` }, shortId(s.id))),
      h(
        'td',
        { class: 'title' },
        s.title ??
          h('span', { class: 'muted' }, s.hasTranscript ? '(no request)' : '(transcript not read)'),
        list.snippets[s.id] ? h('div', { class: 'snippet' }, list.snippets[s.id]) : null,
      ),
      h('td', { class: 'project' }, s.project ?? '–'),
      h('td', {}, when(s.lastActivityAt)),
      h('td', {}, s.model ?? '–'),
      h(
        'td',
        { 'data-agent': s.agent },
        `${agentLabel(s.agent)}${s.cliVersion ? ` ${s.cliVersion}` : ''}`,
      ),
      h('td', { class: 'num' }, tokens(s.peakContext)),
      h('td', { class: 'num', 'data-col': 'compactions' }, s.compactions ?? '–'),
      h('td', { class: 'num', 'data-col': 'checkpoints' }, s.checkpoints),
      h('td', { class: 'num' }, s.restores),
      h('td', { class: `ended ${s.ended}`, 'data-col': 'ending' }, s.ending),
    ),
  );
  root.replaceChildren(
    ...present(
      h('h1', {}, 'Sessions'),
      form,
      h(
        'p',
        { class: 'muted' },
        `${list.total} session${list.total === 1 ? '' : 's'}${list.total > list.sessions.length ? `, newest ${list.sessions.length} shown` : ''}`,
      ),
      list.sessions.length === 0
        ? h(
            'p',
            { class: 'empty' },
            query
              ? 'No checkpoint matches that search.'
              : 'No sessions yet: run Claude Code with shim installed.',
          )
        : h(
            'table',
            { class: 'sessions', 'data-view': 'sessions' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...[
                  'Session',
                  'First request',
                  'Project',
                  'Last activity',
                  'Model',
                  'Agent',
                  'Peak',
                  'Compactions',
                  'Checkpoints',
                  'Restores',
                  'Ended',
                ].map((t) => h('th', {}, t)),
              ),
            ),
            h('tbody', {}, ...rows),
          ),
    ),
  );
  performance.mark('sessions-rendered');
  root.setAttribute('data-ready', 'sessions');
}
