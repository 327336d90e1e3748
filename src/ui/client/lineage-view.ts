/**
 * A session's lineage: the sessions that continue one another drawn as one chain, left to right,
 * each link saying why the work moved on (compacted, crashed, handed off, a loop restart) and
 * what shim carried across it.
 * @module
 */
import type { LineageStep, SessionLineage } from '../../app/dashboard/lineage-view.ts';
import { h, plural, present, shortId, when } from './dom.ts';

function carriedText(step: LineageStep): string {
  const c = step.via?.carried;
  if (!c) return 'the checkpoint is gone';
  return `carried ${plural(c.requests, 'request')}, ${plural(c.openTaskCount, 'open task')}, ${plural(c.files, 'file')}`;
}

function link(step: LineageStep): HTMLElement {
  const via = step.via!;
  const tasks = via.carried?.openTasks ?? [];
  return h(
    'li',
    { class: `lineage-link ${via.reason}`, 'data-reason': via.reason },
    h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
    h('span', { class: 'why' }, via.label),
    h(
      'a',
      {
        class: 'carried',
        href: `#/checkpoint/${encodeURIComponent(via.checkpointId)}`,
        title: tasks.length ? `open tasks: ${tasks.join('; ')}` : undefined,
      },
      carriedText(step),
    ),
    h('span', { class: 'muted' }, when(via.at)),
  );
}

function node(step: LineageStep, current: string): HTMLElement {
  const here = step.sessionId === current;
  return h(
    'li',
    {
      class: `lineage-step${here ? ' current' : ''}`,
      'data-session': step.sessionId,
      'data-part': step.part,
    },
    h(
      'a',
      {
        href: `#/session/${encodeURIComponent(step.sessionId)}`,
        'aria-current': here ? 'page' : undefined,
      },
      `Session ${shortId(step.sessionId)}`,
    ),
    step.part > 1 ? h('span', { class: 'part' }, `after compaction ${step.part - 1}`) : null,
    h('span', { class: 'muted' }, step.project ?? ''),
  );
}

/** The chain as a list of steps and links; null for a session nothing continues. */
export function renderLineage(lineage: SessionLineage): HTMLElement | null {
  if (lineage.steps.length < 2) return null;
  const items: HTMLElement[] = [];
  for (const step of lineage.steps) {
    if (step.via) items.push(link(step));
    items.push(node(step, lineage.sessionId));
  }
  const sessions = new Set(lineage.steps.map((s) => s.sessionId)).size;
  return h(
    'section',
    { class: 'lineage', 'aria-label': 'Lineage', 'data-steps': lineage.steps.length },
    ...present(
      h('h2', {}, `Lineage: ${plural(sessions, 'session')}, one piece of work`),
      lineage.goal ? h('p', { class: 'goal' }, 'Goal: ', h('q', {}, lineage.goal)) : null,
      h('ol', { class: 'lineage-chain' }, ...items),
    ),
  );
}
