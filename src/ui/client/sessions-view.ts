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

  // Each header and its cells name their column alike, so a narrow screen hides both together.
  type Row = SessionList['sessions'][number];
  const columns: Array<{ col: string; title: string; cell: (s: Row) => HTMLElement }> = [
    {
      col: 'session',
      title: 'Session',
      cell: (s) =>
        h('td', {}, h('a', { href: `#/session/${encodeURIComponent(s.id)}` }, shortId(s.id))),
    },
    {
      col: 'title',
      title: 'First request',
      cell: (s) =>
        h(
          'td',
          { class: 'title' },
          s.title ??
            h(
              'span',
              { class: 'muted' },
              s.hasTranscript ? '(no request)' : '(transcript not read)',
            ),
          list.snippets[s.id] ? h('div', { class: 'snippet' }, list.snippets[s.id]) : null,
        ),
    },
    {
      col: 'project',
      title: 'Project',
      cell: (s) => h('td', { class: 'project' }, s.project ?? '–'),
    },
    {
      col: 'last-activity',
      title: 'Last activity',
      cell: (s) => h('td', {}, when(s.lastActivityAt)),
    },
    { col: 'model', title: 'Model', cell: (s) => h('td', {}, s.model ?? '–') },
    {
      col: 'agent',
      title: 'Agent',
      cell: (s) =>
        h(
          'td',
          { 'data-agent': s.agent },
          `${agentLabel(s.agent)}${s.cliVersion ? ` ${s.cliVersion}` : ''}`,
        ),
    },
    { col: 'peak', title: 'Peak', cell: (s) => h('td', { class: 'num' }, tokens(s.peakContext)) },
    {
      col: 'compactions',
      title: 'Compactions',
      cell: (s) => h('td', { class: 'num' }, s.compactions ?? '–'),
    },
    {
      col: 'checkpoints',
      title: 'Checkpoints',
      cell: (s) => h('td', { class: 'num' }, s.checkpoints),
    },
    { col: 'restores', title: 'Restores', cell: (s) => h('td', { class: 'num' }, s.restores) },
    {
      col: 'ending',
      title: 'Ended',
      cell: (s) => h('td', { class: `ended ${s.ended}` }, s.ending),
    },
  ];
  const rows = list.sessions.map((s) =>
    h(
      'tr',
      { 'data-session': s.id },
      ...columns.map(({ col, cell }) => {
        const td = cell(s);
        td.setAttribute('data-col', col);
        return td;
      }),
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
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              { class: 'sessions', 'data-view': 'sessions' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ...columns.map(({ col, title }) => h('th', { 'data-col': col }, title)),
                ),
              ),
              h('tbody', {}, ...rows),
            ),
          ),
    ),
  );
  performance.mark('sessions-rendered');
  root.setAttribute('data-ready', 'sessions');
}
