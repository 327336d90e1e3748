/**
 * The handoff document (docs/specification.md, "Handoff document"): YAML front-matter with the checkpoint's
 * metadata, then the resume prompt's content organised as a document a human can read too.
 * The sections are the resume prompt's own (`resume-sections.ts`); only the layout differs.
 *
 * What it covers of the specification: the document; git state, snapshot and modified files;
 * HND-004 next steps; HND-005 `contextToReload`; HND-006 key decisions. HND-003 (Linear issue
 * state) has no source in the checkpoint; the task list and progress stand in for it.
 * @module
 */
import type { Checkpoint } from '../checkpoint/checkpoint.ts';
import { getCheckpointContextPercent } from './resume.ts';
import { isOpenTaskStatus } from '../checkpoint/checkpoint.ts';
import type { ResumeDetection } from './resume.ts';
import { buildSections, oneLine, renderWithinBudget, type LayoutGroup } from './resume-sections.ts';
import { truncate } from '../truncate.ts';

export const DEFAULT_HANDOFF_MAX_CHARS = 60_000;

export type HandoffOptions = {
  /** Default 60,000 characters. */
  maxChars?: number;
  /** Diff characters shown in full (default 10 KB, the checkpoint's own limit). */
  diffChars?: number;
  /** Files or sections of the project instructions (CLAUDE.md, AGENTS.md, GEMINI.md) the next session should re-read (HND-005). */
  contextToReload?: readonly string[];
  /** Overrides the title taken from the operation, the current focus or the latest request. */
  title?: string;
  /** The tracker issue the session works on, as last read by the sync worker (HND-003). */
  issue?: HandoffIssue | null;
};

export type HandoffIssue = {
  /** `ANV-123`, `acme/api#42`. */
  name: string;
  title: string | null;
  state: string | null;
  url: string | null;
  /** shim's last note on it (the headline of its last comment). */
  lastNote: string | null;
};

/** The issue's lines under the heading: what it is, where it stands, what shim last said. */
function issueLines(issue: HandoffIssue): string {
  const what = [
    issue.name,
    issue.title ? `"${oneLine(issue.title)}"` : null,
    issue.state ? `(${issue.state})` : null,
  ]
    .filter(Boolean)
    .join(' ');
  return [
    `Issue: ${what}${issue.url ? ` — ${issue.url}` : ''}`,
    ...(issue.lastNote ? [`Last checkpoint note on it: ${oneLine(issue.lastNote)}`] : []),
  ].join('\n');
}

export const HANDOFF_LAYOUT: readonly LayoutGroup[] = [
  { heading: 'Summary', ids: ['situation', 'summary'] },
  { heading: 'Goal: what the user asked', ids: ['requests'] },
  { heading: 'Progress & tasks', ids: ['tasks', 'done'] },
  { heading: 'Where you were', ids: ['pending', 'commands', 'failure', 'checks'] },
  { heading: 'Files', ids: ['snapshot', 'files', 'diff'] },
  { heading: 'Decisions', ids: ['decisions'] },
  { heading: 'Blockers', ids: ['blockers'] },
  { heading: 'Next steps', ids: ['nextSteps'] },
  { heading: 'Context to reload', ids: ['reload'] },
  { heading: 'User preferences', ids: ['preferences'] },
  { heading: 'Recent activity', ids: ['toolSessions', 'toolCalls', 'messages'] },
  { heading: 'How to continue', ids: ['instructions', 'closing'] },
];

export type YamlScalar = string | number | boolean | null;

const YAML_RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/**
 * One YAML scalar: plain when it cannot be read as anything but the same string, otherwise
 * double-quoted with JSON escapes (valid YAML), plus escapes for the characters YAML does not
 * allow unescaped (DEL, C1 controls, BOM) or that YAML 1.1 reads as line breaks.
 */
export function yamlScalar(value: YamlScalar): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (/^[A-Za-z_][A-Za-z0-9_./-]*$/.test(value) && !YAML_RESERVED.test(value)) return value;
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `---`-fenced `key: value` lines. */
export function renderFrontMatter(fields: ReadonlyArray<readonly [string, YamlScalar]>): string {
  return ['---', ...fields.map(([k, v]) => `${k}: ${yamlScalar(v)}`), '---'].join('\n');
}

function handoffTitle(c: Checkpoint, options: HandoffOptions | undefined): string {
  const requests = c.conversationState.userRequests;
  const candidates = [
    options?.title,
    c.taskState.operation,
    c.conversationState.currentContext,
    requests[requests.length - 1],
  ];
  for (const candidate of candidates) {
    const text = oneLine(candidate ?? '');
    if (text !== '') return truncate(text, 80);
  }
  return `session ${c.sessionId}`;
}

/** The front-matter fields, in order. */
export function handoffFields(
  c: Checkpoint,
  detection: ResumeDetection | null,
  title: string,
): Array<[string, YamlScalar]> {
  const created = Date.parse(c.createdAt);
  const iso = Number.isNaN(created) ? null : new Date(created).toISOString();
  const f = c.fileState;
  const items = c.taskState.items;
  return [
    ['title', title],
    ['checkpoint_id', c.id],
    ['session_id', c.sessionId],
    ['checkpoint_number', c.checkpointNumber],
    ['created_at', c.createdAt],
    ['session_date', iso?.slice(0, 10) ?? null],
    ['session_time', iso?.slice(11, 16) ?? null],
    ['trigger', c.triggeredBy],
    ['level', c.source.level],
    ['context_percent', getCheckpointContextPercent(c)],
    ['crash_risk', c.signals.crashRisk],
    ['branch', f.snapshot?.branch ?? f.branch],
    ['head', f.snapshot?.head ?? f.head],
    ['snapshot_ref', f.snapshot?.ref ?? null],
    ['snapshot_commit', f.snapshot?.commit ?? null],
    ['repo_root', f.repoRoot],
    ['cwd', c.source.cwd],
    ['transcript_path', c.source.transcriptPath],
    ['model', c.source.model],
    ['tasks_total', items.length],
    ['tasks_open', items.filter((i) => isOpenTaskStatus(i.status)).length],
    ['modified_files', f.modifiedFiles.length],
    ['pending_operations', c.toolState.pendingOperations.length],
    ['interruption_reason', detection?.interruptionReason ?? null],
    ['should_resume', detection?.shouldResume ?? null],
    ['confidence', detection?.confidence ?? null],
  ];
}

export function renderHandoff(
  checkpoint: Checkpoint,
  detection: ResumeDetection | null,
  options?: HandoffOptions,
): string {
  const title = handoffTitle(checkpoint, options);
  const issue = options?.issue ?? null;
  const fields = handoffFields(checkpoint, detection, title);
  if (issue) fields.push(['issue', issue.name], ['issue_state', issue.state]);
  const frontMatter = renderFrontMatter(fields);
  return renderWithinBudget({
    head: `${frontMatter}\n\n# Session handoff: ${title}${issue ? `\n\n${issueLines(issue)}` : ''}`,
    layout: HANDOFF_LAYOUT,
    sections: buildSections(checkpoint, detection, {
      diffChars: options?.diffChars ?? 10 * 1024,
      ...(options?.contextToReload !== undefined
        ? { contextToReload: options.contextToReload }
        : {}),
    }),
    maxChars: options?.maxChars ?? DEFAULT_HANDOFF_MAX_CHARS,
    checkpointId: checkpoint.id,
  });
}
