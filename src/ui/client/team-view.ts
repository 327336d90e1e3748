/**
 * Team (`shim ui --team`): every machine's sessions and loop runs in your projects, from the
 * team store, each marked with the machine and the user that wrote it; the page redraws as the
 * server's stream sends a changed view (the workers replicate, a loop run moves on).
 * @module
 */
import type { TeamDashboardView } from '../../app/team/team-dashboard.ts';
import { getJson } from './data.ts';
import { ago, h, present, shortId } from './dom.ts';

function table(headings: string[], rows: HTMLElement[], label: string): HTMLElement {
  return h(
    'table',
    { class: 'team', 'aria-label': label },
    h('thead', {}, h('tr', {}, ...headings.map((t) => h('th', {}, t)))),
    h('tbody', {}, ...rows),
  );
}

function who(view: TeamDashboardView, machine: string, osUser: string): HTMLElement {
  const mine = machine === view.you.machine && osUser === view.you.osUser;
  return h(
    'td',
    { class: mine ? 'who mine' : 'who', 'data-machine': machine, 'data-user': osUser },
    `${osUser} on ${machine}${mine ? ' (this machine)' : ''}`,
  );
}

function draw(root: HTMLElement, view: TeamDashboardView, now: number): void {
  const machines = new Set([...view.sessions, ...view.loops].map((r) => r.machine));
  const sessions = view.sessions.map((s) =>
    h(
      'tr',
      { 'data-session': s.sessionId },
      who(view, s.machine, s.osUser),
      h('td', { class: 'title' }, s.firstRequest ?? `Session ${shortId(s.sessionId)}`),
      h('td', { class: 'project' }, s.projectId),
      h('td', { class: `status ${s.endedAt ? 'ended' : 'open'}` }, s.endedAt ? 'ended' : 'open'),
      h('td', { class: 'num', 'data-col': 'open-tasks' }, s.openTasks),
      h('td', { class: 'num' }, s.checkpoints),
      h('td', {}, s.lastCheckpointAt ? ago(Date.parse(s.lastCheckpointAt), now) : '–'),
    ),
  );
  const loops = view.loops.map((r) =>
    h(
      'tr',
      { 'data-run': r.runId, 'data-status': r.status },
      who(view, r.machine, r.osUser),
      h('td', { class: 'title' }, r.goal),
      h('td', { class: `status ${r.status}` }, r.status),
      h('td', { class: 'num', 'data-col': 'iteration' }, r.iteration),
      h('td', { class: 'num' }, r.restarts),
      h('td', { class: 'num' }, `$${r.costUsd.toFixed(2)}`),
      h('td', {}, r.lastEvent ?? '–'),
      h('td', {}, ago(Date.parse(r.updatedAt), now)),
    ),
  );
  root.replaceChildren(
    ...present(
      h('h1', {}, 'Team'),
      h(
        'p',
        { class: 'muted', 'aria-live': 'polite' },
        `${view.sessions.length} session${view.sessions.length === 1 ? '' : 's'} and ${view.loops.length} loop run${view.loops.length === 1 ? '' : 's'} from ${machines.size} machine${machines.size === 1 ? '' : 's'}, in ${view.projects.length} project${view.projects.length === 1 ? '' : 's'} you work in`,
      ),
      h('h2', {}, 'Sessions'),
      sessions.length === 0
        ? h('p', { class: 'empty' }, 'No session in your projects has reached the team store yet.')
        : table(
            ['Who', 'Request', 'Project', 'State', 'Open tasks', 'Checkpoints', 'Last checkpoint'],
            sessions,
            'Sessions on every machine',
          ),
      h('h2', {}, 'Loop runs'),
      loops.length === 0
        ? h('p', { class: 'empty' }, 'No loop run in your projects has reached the team store yet.')
        : table(
            ['Who', 'Goal', 'Status', 'Iteration', 'Restarts', 'Cost', 'Last event', 'Updated'],
            loops,
            'Loop runs on every machine',
          ),
    ),
  );
}

export async function renderTeam(root: HTMLElement, signal: AbortSignal): Promise<void> {
  let view = await getJson<TeamDashboardView>('/api/team');
  draw(root, view, Date.now());
  root.setAttribute('data-ready', 'team');
  const source = new EventSource('/api/team/events');
  signal.addEventListener('abort', () => source.close());
  source.addEventListener('team', (message) => {
    view = JSON.parse((message as MessageEvent<string>).data) as TeamDashboardView;
    draw(root, view, Date.now());
    root.setAttribute('data-ready', 'team');
  });
  const timer = setInterval(() => draw(root, view, Date.now()), 30_000);
  signal.addEventListener('abort', () => clearInterval(timer));
}
