/**
 * Instructions for Claude Code's own compaction summary. From Claude Code 2.1.241 on (see
 * docs/claude-code.md, "PreCompact output"), what a PreCompact hook prints on stdout is appended
 * to the compaction's custom instructions, up to 10,000 characters per hook. shim names the
 * facts summaries are known to drop — the user's requests word for word, the task list with its
 * statuses, standing instructions, the files in play, the last test result — so the summary
 * keeps them, and the restore that follows it has less to repair.
 * @module
 */
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { isOpenTaskStatus } from '../../core/checkpoint/checkpoint.ts';
import { truncate } from '../../core/truncate.ts';
import { compareVersions } from '../../core/version.ts';

/** The first version whose PreCompact stdout reaches the summary (docs/claude-code.md). */
export const COMPACT_INSTRUCTIONS_SINCE = '2.1.241';

/** Claude Code cuts a hook's instructions at 10,000 characters; stay clear of the cut. */
export const COMPACT_INSTRUCTIONS_MAX_CHARS = 9_000;

/** True when this Claude Code version appends PreCompact stdout to the summary's instructions. */
export function acceptsCompactInstructions(cliVersion: string | null): boolean {
  return cliVersion !== null && compareVersions(cliVersion, COMPACT_INSTRUCTIONS_SINCE) >= 0;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const quote = (text: string, max: number) => JSON.stringify(truncate(oneLine(text), max));

function render(c: Checkpoint, requestChars: number, listMax: number): string {
  const requests = c.conversationState.userRequests;
  const items = c.taskState.items;
  let point = 0;
  const n = () => ++point;
  const lines: string[] = [
    'Context checkpoint (shim): when you write the summary, keep these facts exactly — they are what later work depends on, and summaries tend to lose them.',
  ];
  if (requests.length > 0) {
    lines.push(
      '',
      requests.length === 1
        ? `${n()}. The user's request, quoted word for word (not paraphrased):`
        : `${n()}. Every one of the user's ${requests.length} requests, in order, quoted word for word (not paraphrased), the most recent marked as such:`,
    );
    requests.forEach((r, i) => {
      // The first and the newest say what the work is for and what is wanted now.
      const max = i === 0 || i === requests.length - 1 ? requestChars * 2 : requestChars;
      lines.push(
        `   ${i + 1}. ${quote(r, max)}${i === requests.length - 1 && i > 0 ? ' (most recent)' : ''}`,
      );
    });
  }
  if (items.length > 0) {
    lines.push(
      '',
      `${n()}. The task list with each task’s exact status (completed / in progress / pending):`,
    );
    for (const item of items.slice(0, listMax * 2)) {
      const id = item.id ? `#${item.id} ` : '';
      lines.push(`   - [${item.status}] ${id}${truncate(oneLine(item.content), 160)}`);
    }
    if (items.length > listMax * 2) lines.push(`   - … and ${items.length - listMax * 2} more`);
  }
  const standing = [
    ...(c.userPreferences.recentPreferences?.split('\n') ?? []),
    ...(c.userPreferences.customInstructions ? ['the project instructions in CLAUDE.md'] : []),
  ].filter((s) => s.trim() !== '');
  if (standing.length > 0) {
    lines.push('', `${n()}. The standing instructions the user gave (keep following them):`);
    for (const s of standing.slice(0, listMax)) lines.push(`   - ${truncate(oneLine(s), 200)}`);
  }
  const files = [...new Set(c.fileState.modifiedFiles.map((f) => f.replace(/ \(new\)$/, '')))];
  if (files.length > 0) {
    lines.push('', `${n()}. The files changed and not yet committed:`);
    lines.push(`   ${files.slice(0, listMax).join(', ')}${files.length > listMax ? ', …' : ''}`);
  }
  const checks = c.toolState.checks ?? [];
  if (checks.length > 0) {
    lines.push('', `${n()}. The last result of each check command:`);
    for (const k of checks)
      lines.push(`   - \`${truncate(k.command, 120)}\`: ${k.status} (${k.at})`);
  }
  const open = items.filter((i) => isOpenTaskStatus(i.status)).length;
  lines.push(
    '',
    open > 0
      ? `Say what was being worked on at the moment of the compaction and that ${open} task${open === 1 ? ' is' : 's are'} still open.`
      : 'Say what was being worked on at the moment of the compaction.',
  );
  return lines.join('\n');
}

/** The instructions, shortened (requests first abbreviated, then lists cut) to fit `maxChars`. */
export function renderCompactInstructions(
  checkpoint: Checkpoint,
  maxChars = COMPACT_INSTRUCTIONS_MAX_CHARS,
): string {
  let text = '';
  for (const [chars, list] of [
    [600, 20],
    [300, 20],
    [150, 15],
    [90, 10],
    [60, 8],
    [40, 5],
  ] as const) {
    text = render(checkpoint, chars, list);
    if (text.length <= maxChars) return text;
  }
  return truncate(text, maxChars);
}
