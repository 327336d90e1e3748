/**
 * The sections about the workspace and the tools: the git snapshot, files, the diff, tool
 * errors, background sessions, recent tool calls and messages, and the closing line.
 * @module
 */
import type { Checkpoint } from '../../checkpoint/checkpoint.ts';
import { summarizeValue, truncate } from '../../truncate.ts';
import { section, type Section } from './section.ts';
import { bullets, code, fence, newest, oneLine, plural, shortSha, uniq } from './text.ts';
import { openTasks } from './situation.ts';

export function buildSnapshot(c: Checkpoint): Section | undefined {
  const f = c.fileState;
  const s = f.snapshot;
  if (s === null) {
    if (f.repoRoot === null) return undefined;
    return section('snapshot', [
      `No git snapshot was saved with this checkpoint, so shim cannot restore its files; check them with ${code('git status')} and ${code('git diff')}.`,
    ]);
  }
  const on = [
    s.branch !== null ? `on branch ${code(s.branch)}` : null,
    s.head !== null ? `at HEAD ${code(shortSha(s.head) ?? '')}` : 'before the first commit',
  ].filter((x) => x !== null);
  return section('snapshot', [
    [
      `Snapshot of the working tree at the checkpoint: ${code(s.ref)} (commit ${code(shortSha(s.commit) ?? '')}), taken ${on.join(' ')}.`,
      `To restore the files as they were at the checkpoint: ${code(`shim restore-files ${c.id}`)}`,
    ].join('\n'),
  ]);
}

/** A path in a code span; the " (new)" shim appends to untracked files stays outside it. */
export function filePath(path: string): string {
  return path.endsWith(' (new)') ? `${code(path.slice(0, -6))} (new)` : code(path);
}

/** A path as short as it can be said: relative to the repository or the working directory. */
export function shortPath(path: string, bases: ReadonlyArray<string | null>): string {
  for (const base of bases) {
    if (base !== null && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  }
  return path;
}

export function buildFiles(c: Checkpoint): Section | undefined {
  const f = c.fileState;
  const bases = [f.repoRoot, c.source.cwd];
  const short = (paths: readonly string[]) => uniq(paths.map((p) => shortPath(p, bases)));
  const modified = short(f.modifiedFiles);
  const staged = short(f.stagedFiles);
  const inPlay = new Set([...modified, ...staged]);
  const active = short(f.activeFiles).filter((p) => !inPlay.has(p));
  if (modified.length + staged.length + active.length === 0) return undefined;
  // The snapshot section already names the branch and HEAD when there is one.
  const showGit = f.snapshot === null;
  const where = f.repoRoot ?? c.source.cwd;
  const repo =
    where !== null
      ? `${f.repoRoot !== null ? 'Repository' : 'Working directory'} ${code(where)}${showGit && f.branch !== null ? `, branch ${code(f.branch)}` : ''}${
          showGit && f.head !== null ? `, HEAD ${code(shortSha(f.head) ?? '')}` : ''
        }; paths are relative to it.`
      : null;
  /** Up to `max` paths on one line: with git its order, without it the newest (they matter most). */
  const list = (paths: string[], max: number, newestLast: boolean) => {
    const shown = newestLast ? paths.slice(-max) : paths.slice(0, max);
    const left = paths.length - shown.length;
    const names = shown.map(filePath).join(', ');
    return left === 0
      ? names
      : newestLast
        ? `(${left} older) ${names}`
        : `${names} (+${left} more)`;
  };
  const changedTitle =
    f.repoRoot !== null
      ? `**Changed since the last commit** (${modified.length})`
      : `**Files changed in the session** (${modified.length}, no git at the checkpoint; newest last)`;
  const render = (max: number, withActive: boolean) =>
    [
      repo,
      modified.length > 0
        ? `${changedTitle}: ${list(modified, max, f.repoRoot === null)}`
        : f.repoRoot !== null
          ? '**Changed since the last commit**: nothing.'
          : null,
      staged.length > 0 ? `**Staged** (${staged.length}): ${list(staged, max, false)}` : null,
      withActive && active.length > 0
        ? `Also read or edited recently (newest last): ${list(active, Math.min(max, 12), true)}`
        : null,
    ]
      .filter((x) => x !== null)
      .join('\n');
  return section('files', [render(40, true), render(20, true), render(12, false)]);
}

/** Per-file added/removed line counts of a unified diff. */
export function diffStat(diff: string): Array<{ file: string; added: number; removed: number }> {
  const stats: Array<{ file: string; added: number; removed: number }> = [];
  let current: { file: string; added: number; removed: number } | null = null;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    if (header) {
      current = { file: header[2] ?? header[1] ?? '', added: 0, removed: 0 };
      stats.push(current);
    } else if (current !== null) {
      if (line.startsWith('+') && !line.startsWith('+++')) current.added++;
      else if (line.startsWith('-') && !line.startsWith('---')) current.removed++;
    }
  }
  return stats;
}

export function buildDiff(c: Checkpoint, diffChars: number): Section | undefined {
  const diff = c.fileState.uncommittedDiff.replace(/\n+$/, '');
  if (diff.trim() === '') return undefined;
  const stat = diffStat(diff);
  const statText =
    stat.length > 0 ? bullets(stat.map((s) => `${code(s.file)} +${s.added} −${s.removed}`)) : null;
  const lead = `Uncommitted changes at the checkpoint (run ${code('git diff')} for the current state):`;
  const shown = diff.length > diffChars ? `${diff.slice(0, diffChars)}\n… (diff cut here)` : diff;
  return section('diff', [
    [lead, statText, fence(shown, 'diff')].filter((x) => x !== null).join('\n\n'),
    statText !== null ? `${lead}\n\n${statText}` : '',
    '',
  ]);
}

export function buildToolSessions(c: Checkpoint): Section | undefined {
  const sessions = c.toolState.activeSessions;
  if (sessions.length === 0) return undefined;
  return section('toolSessions', [
    `Tool sessions open at the checkpoint (they may no longer exist):\n${bullets(
      sessions.map((s) => {
        const state =
          Object.keys(s.state).length > 0 ? `, state ${code(summarizeValue(s.state, 200))}` : '';
        return `${s.type} ${code(s.id)}: ${oneLine(s.purpose)} (started ${s.startedAt}${state})`;
      }),
    )}`,
    '',
  ]);
}

/** What an old checkpoint's call acted on, read from its summarised input (no target kept). */
function targetFromArgs(args: string): string {
  const m =
    /"(?:file_path|notebook_path|path|command|cmd|pattern|query|url|description)":"((?:[^"\\]|\\.)*)/.exec(
      args,
    );
  if (!m) return '';
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1] ?? '';
  }
}

/**
 * The recent calls by tool and target, newest last: the flow of the work, never raw input. The
 * shell commands are under Where you were, verbatim, when the checkpoint lists them.
 */
export function buildToolCalls(c: Checkpoint): Section | undefined {
  const listed = (c.toolState.commands ?? []).length > 0;
  const calls = c.toolState.recentToolCalls.filter((t) => !(listed && t.kind === 'shell'));
  if (calls.length === 0) return undefined;
  const render = (max: number, chars: number) =>
    `Recent tool calls (tool and target, newest last${listed ? '; commands are under Where you were' : ''}):\n${bullets(
      newest(
        calls.map((t) => {
          const target = oneLine(t.target ?? targetFromArgs(t.args));
          return `${t.tool}${target !== '' ? ` ${code(truncate(target, chars))}` : ''}${t.success ? '' : ' → failed'}`;
        }),
        max,
        'calls',
      ),
    )}`;
  return section('toolCalls', [render(20, 100), render(10, 60), '']);
}

export function buildMessages(c: Checkpoint): Section | undefined {
  const requests = new Set(c.conversationState.userRequests.map((r) => r.trim()));
  const messages = c.conversationState.recentMessages.filter(
    (m) => m.content.trim() !== '' && !(m.role === 'user' && requests.has(m.content.trim())),
  );
  if (messages.length === 0) return undefined;
  const render = (max: number, chars: number) =>
    `Last messages before the checkpoint (newest last):\n\n${messages
      .slice(-max)
      .map(
        (m) =>
          `**${m.role}** (${m.timestamp}):\n${fence(truncate(m.content.trim(), chars), 'text')}`,
      )
      .join('\n\n')}`;
  return section('messages', [render(10, 1000), render(4, 300), '']);
}

export function buildClosing(c: Checkpoint): Section | undefined {
  const open = openTasks(c).length;
  return section('closing', [
    open > 0
      ? `Continue now with the next step above (${plural(open, 'task')} still open), without asking the user to repeat anything.`
      : 'Continue now from where the work stopped, without asking the user to repeat anything.',
  ]);
}
