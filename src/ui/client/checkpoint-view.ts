/**
 * A checkpoint: what it holds (tasks, files, the uncommitted diff), the handoff it renders to and
 * the resume prompt as it would be injected; for a compaction, Claude Code's own summary beside
 * it with the facts each one carried.
 * @module
 */
import type { CheckpointView } from '../../app/dashboard/checkpoint-view.ts';
import type { ChainStep, CheckpointChainView } from '../../app/checkpoint/checkpoint-chain-view.ts';
import { getJson } from './data.ts';
import { h, present, shortId, tokens, when } from './dom.ts';

const pre = (text: string, cls: string) => h('pre', { class: cls }, text || '(empty)');

/** What led to the checkpoint: its chain, newest first, each with what happened since the one before. */
function renderChain(chain: CheckpointChainView): HTMLElement {
  const stored = (s: ChainStep) =>
    s.storedAs.deltaOf
      ? `stored as its change since ${shortId(s.storedAs.deltaOf)} (${s.storedAs.bytes} of ${s.storedAs.wholeBytes} bytes)`
      : `stored whole (${s.storedAs.bytes} bytes)`;
  return h(
    'section',
    { class: 'chain', 'aria-label': 'What led here' },
    h('h2', {}, 'What led here'),
    chain.broken
      ? h(
          'p',
          { class: 'chain-broken', role: 'alert' },
          `The chain of checkpoint ${shortId(chain.broken.checkpointId)} is broken (${chain.broken.reason} at ${shortId(chain.broken.at)}): ${chain.broken.fellBackTo ? `shown is ${shortId(chain.broken.fellBackTo)}, the newest of its session that rebuilds exactly.` : 'no earlier checkpoint of its session rebuilds.'}`,
        )
      : null,
    h(
      'ol',
      { class: 'chain-steps' },
      ...chain.steps.map((s) =>
        h(
          'li',
          { 'data-checkpoint': s.id, 'data-via': s.via },
          h('a', { href: `#/checkpoint/${encodeURIComponent(s.id)}` }, `#${s.number}`),
          ` ${when(s.createdAt)} · ${s.trigger}${s.reason ? ` (${s.reason})` : ''} · ${s.level} · ${stored(s)}`,
          h(
            'p',
            { class: 'chain-changes' },
            s.via === 'restored from'
              ? 'restored from the checkpoint below: '
              : s.parentMissing || s.via === 'start'
                ? 'it holds: '
                : 'since the one below: ',
            s.changes.length > 0 ? s.changes.join('; ') : 'nothing changed',
          ),
        ),
      ),
    ),
    chain.more
      ? h(
          'p',
          { class: 'muted' },
          'Earlier checkpoints are not shown (restoreContextHours, restoreMaxContexts).',
        )
      : null,
  );
}

export async function renderCheckpoint(root: HTMLElement, id: string): Promise<void> {
  const c = await getJson<CheckpointView>(`/api/checkpoints/${encodeURIComponent(id)}`);
  root.replaceChildren(
    ...present(
      h(
        'p',
        {},
        h(
          'a',
          { href: `#/session/${encodeURIComponent(c.sessionId)}` },
          `← Session ${shortId(c.sessionId)}`,
        ),
      ),
      h('h1', { 'data-checkpoint': c.id }, `Checkpoint #${c.number}`),
      h(
        'p',
        { class: 'meta' },
        `${c.trigger}${c.reason ? ` (${c.reason})` : ''} · ${when(c.createdAt)} · ${tokens(c.contextTokens)} of ${tokens(c.compactThreshold)} · ${c.level} · transcript line ${c.transcriptLine}`,
      ),
      h('h2', {}, 'Tasks'),
      c.tasks.length === 0
        ? h('p', { class: 'muted' }, 'No task list.')
        : h(
            'ul',
            { class: 'tasks' },
            ...c.tasks.map((t) =>
              h(
                'li',
                { class: `task ${t.status}` },
                h('span', { class: 'status' }, t.status),
                ' ',
                t.content,
              ),
            ),
          ),
      h('h2', {}, 'Files'),
      c.files.modified.length === 0
        ? h('p', { class: 'muted' }, 'No uncommitted changes recorded.')
        : h('ul', { class: 'files' }, ...c.files.modified.map((f) => h('li', {}, f))),
      c.files.snapshot
        ? h(
            'p',
            { class: 'muted' },
            `Git snapshot: ${c.files.snapshot} (shim restore-files ${shortId(c.id)})`,
          )
        : null,
      c.files.diff
        ? h('details', {}, h('summary', {}, 'Uncommitted diff'), pre(c.files.diff, 'diff'))
        : null,
      c.compactSummary !== null
        ? h(
            'section',
            { class: 'compare' },
            h('h2', {}, 'This compaction: shim’s checkpoint beside Claude Code’s summary'),
            h(
              'table',
              { class: 'facts' },
              h(
                'thead',
                {},
                h('tr', {}, h('th', {}, 'Fact'), h('th', {}, 'shim'), h('th', {}, 'Claude Code')),
              ),
              h(
                'tbody',
                {},
                ...c.facts.map((f) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, f.fact),
                    h('td', {}, f.inCheckpoint ? '✓' : '✗'),
                    h('td', { class: f.inSummary ? 'kept' : 'lost' }, f.inSummary ? '✓' : '✗'),
                  ),
                ),
              ),
            ),
            h(
              'div',
              { class: 'side-by-side' },
              h('div', {}, h('h3', {}, 'Handoff'), pre(c.handoff, 'handoff')),
              h('div', {}, h('h3', {}, 'Claude Code’s summary'), pre(c.compactSummary, 'summary')),
            ),
          )
        : h('section', {}, h('h2', {}, 'Handoff'), pre(c.handoff, 'handoff')),
      h('h2', {}, 'Resume prompt, as it would be injected'),
      pre(c.resumePrompt, 'resume-prompt'),
      c.chain ? renderChain(c.chain) : null,
    ),
  );
  root.setAttribute('data-ready', 'checkpoint');
}
