/**
 * The dashboard page: a hash router over its views (sessions, a session's timeline, a
 * checkpoint, loop runs, a loop run). An exported file starts at the view it was exported for.
 * @module
 */
import { renderCheckpoint } from './checkpoint-view.ts';
import { embedded } from './data.ts';
import { h } from './dom.ts';
import { renderLive } from './live-view.ts';
import { renderLoop } from './loop-run-view.ts';
import { renderLoops } from './loops-view.ts';
import { renderSessions } from './sessions-view.ts';
import { renderTeam } from './team-view.ts';
import { renderTimeline } from './timeline-view.ts';

let leaving = new AbortController();

/** The top navigation names the page being shown (for screen readers, and drawn as such). */
function markCurrentNav(first: string): void {
  const section =
    first === 'loops' || first === 'loop'
      ? '#/loops'
      : first === 'team'
        ? '#/team'
        : first === 'sessions' || first === 'session' || first === 'checkpoint'
          ? '#/sessions'
          : '#/';
  for (const link of document.querySelectorAll<HTMLAnchorElement>('header.top nav a')) {
    if (link.getAttribute('href') === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

async function route(): Promise<void> {
  const root = document.getElementById('app')!;
  leaving.abort();
  leaving = new AbortController();
  const hash = location.hash.replace(/^#/, '') || embedded?.start || '/';
  const [path, query = ''] = hash.split('?');
  const parts = (path ?? '/').split('/').filter(Boolean).map(decodeURIComponent);
  root.removeAttribute('data-ready');
  markCurrentNav(parts[0] ?? '');
  try {
    if (parts[0] === 'session' && parts[1]) await renderTimeline(root, parts[1]);
    else if (parts[0] === 'checkpoint' && parts[1]) await renderCheckpoint(root, parts[1]);
    else if (parts[0] === 'loops') await renderLoops(root);
    else if (parts[0] === 'loop' && parts[1]) await renderLoop(root, parts[1], leaving.signal);
    else if (parts[0] === 'team') await renderTeam(root, leaving.signal);
    else if (parts[0] === 'sessions') await renderSessions(root, new URLSearchParams(query));
    else await renderLive(root, leaving.signal);
  } catch (error) {
    root.replaceChildren(
      h('h1', {}, 'Could not show this'),
      h('p', { class: 'error' }, error instanceof Error ? error.message : String(error)),
      h('p', {}, h('a', { href: '#/sessions' }, '← Sessions')),
    );
    root.setAttribute('data-ready', 'error');
  }
}

if (embedded) document.body.classList.add('exported');
// The skip link moves focus past the navigation; its hash must not reach the router.
document.querySelector('a.skip')?.addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('app')?.focus();
});
window.addEventListener('hashchange', () => void route());
void route();
