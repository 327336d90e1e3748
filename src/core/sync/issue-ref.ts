/**
 * Which tracker issue a session works on, named the ways people name them: a Linear key
 * (`ANV-123`), a GitHub number (`#123`, `owner/repo#123`), an issue URL, or a branch that starts
 * with one (`feature/ANV-123-…`, `123-fix-login`, `fix/#123`). Pure.
 * @module
 */

/** Where sync sends: an issue tracker, or claude-mem (its key is then the project's name). */
export type Tracker = 'github' | 'linear' | 'claude-mem';

export type IssueRef = {
  tracker: Tracker;
  /** `ANV-123` for Linear, the number as text for GitHub. */
  key: string;
  /** GitHub's owner/name when the reference said; else the project's origin decides. */
  repo?: string;
};

export type IssueSource = 'linked' | 'branch' | 'request' | 'goal' | 'inherited';

/** Linear keys: a team key of 2–10 capitals or digits, starting with a letter, then a number. */
const LINEAR_KEY = /\b([A-Z][A-Z0-9]{1,9})-(\d{1,7})\b/;
const LINEAR_URL = /https:\/\/linear\.app\/[\w-]+\/issue\/([A-Z][A-Z0-9]{1,9}-\d{1,7})\b/;
const GITHUB_URL = /https?:\/\/[^/\s]+\/([\w.-]+\/[\w.-]+)\/(?:issues|pull)\/(\d{1,9})\b/;
const GITHUB_SHORT = /(?:^|[\s(])(?:([\w.-]+\/[\w.-]+))?#(\d{1,9})\b/;
/** Words that look like Linear keys and are not: encodings, standards, model names. */
const NOT_KEYS = new Set([
  'UTF',
  'ISO',
  'SHA',
  'RFC',
  'CVE',
  'GPT',
  'HTTP',
  'TLS',
  'PEP',
  'ES',
  'X',
]);

function linear(text: string): IssueRef | null {
  const url = LINEAR_URL.exec(text);
  if (url) return { tracker: 'linear', key: url[1]! };
  const match = LINEAR_KEY.exec(text);
  if (!match || NOT_KEYS.has(match[1]!)) return null;
  return { tracker: 'linear', key: `${match[1]}-${match[2]}` };
}

/** The issue a request, goal or argument names (a URL first, then a key, then `#123`). */
export function findIssueInText(text: string): IssueRef | null {
  const gh = GITHUB_URL.exec(text);
  if (gh) return { tracker: 'github', key: gh[2]!, repo: gh[1]! };
  const lin = linear(text);
  if (lin) return lin;
  const short = GITHUB_SHORT.exec(text);
  if (short) return { tracker: 'github', key: short[2]!, ...(short[1] ? { repo: short[1] } : {}) };
  return null;
}

/**
 * The issue a branch is for: a key in its last part (`feature/ANV-123-login`, case-insensitive
 * there), or a number it starts with (`123-fix-login`, `fix/123-login`, `issue-123`).
 */
export function findIssueInBranch(branch: string | null): IssueRef | null {
  if (!branch) return null;
  const last = branch.split('/').pop() ?? branch;
  const key = /^([a-zA-Z][a-zA-Z0-9]{1,9})-(\d{1,7})(?:\b|_|-|$)/.exec(last);
  if (key && !NOT_KEYS.has(key[1]!.toUpperCase()) && !/^(?:issues?|gh)$/i.test(key[1]!))
    return { tracker: 'linear', key: `${key[1]!.toUpperCase()}-${key[2]}` };
  const number = /^(?:issues?-|gh-|#)?(\d{1,9})(?:[-_]|$)/i.exec(last);
  if (number) return { tracker: 'github', key: number[1]! };
  return null;
}

/** What `shim link <issue>` accepts: anything findIssueInText does, or a bare number. */
export function parseIssueArgument(arg: string): IssueRef | null {
  const trimmed = arg.trim();
  if (/^\d{1,9}$/.test(trimmed)) return { tracker: 'github', key: trimmed };
  return findIssueInText(trimmed.startsWith('#') ? ` ${trimmed}` : trimmed);
}

/** How the statusline, status and handoffs name it. */
export function formatIssue(ref: IssueRef): string {
  if (ref.tracker === 'linear') return ref.key;
  if (ref.tracker === 'claude-mem') return `claude-mem:${ref.key}`;
  return ref.repo ? `${ref.repo}#${ref.key}` : `#${ref.key}`;
}

/**
 * The session's issue: a link wins, then the branch, then the session it was restored from.
 * What a request or a goal's text mentions counts only with `fromText` (config
 * `sync.fromRequests`): a key quoted in a prompt (`TXT-88`) is not a wish to post there.
 */
export function chooseIssue(evidence: {
  linked?: IssueRef | null;
  inherited?: IssueRef | null;
  branch?: string | null;
  requests?: readonly string[];
  goal?: string | null;
  fromText?: boolean;
}): { ref: IssueRef; source: IssueSource } | null {
  if (evidence.linked) return { ref: evidence.linked, source: 'linked' };
  const fromBranch = findIssueInBranch(evidence.branch ?? null);
  if (fromBranch) return { ref: fromBranch, source: 'branch' };
  if (!evidence.fromText)
    return evidence.inherited ? { ref: evidence.inherited, source: 'inherited' } : null;
  for (const request of [...(evidence.requests ?? [])].reverse()) {
    const found = findIssueInText(request);
    if (found) return { ref: found, source: 'request' };
  }
  if (evidence.inherited) return { ref: evidence.inherited, source: 'inherited' };
  const fromGoal = evidence.goal ? findIssueInText(evidence.goal) : null;
  return fromGoal ? { ref: fromGoal, source: 'goal' } : null;
}

/** owner/name of a GitHub remote URL (https, ssh or git@ form); null for other hosts' paths. */
export function parseGitHubRemote(url: string): string | null {
  const match =
    /^(?:https?:\/\/[^/]+\/|git@[^:]+:|ssh:\/\/git@[^/]+\/)([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
      url.trim(),
    );
  return match ? `${match[1]}/${match[2]}` : null;
}
