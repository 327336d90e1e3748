/**
 * Shell commands that can destroy uncommitted work or history: before one runs, shim takes a
 * checkpoint and a git snapshot. Detection only; shim never blocks the command.
 * @module
 */

const RISKY: ReadonlyArray<{ pattern: RegExp; label: string }> = [
  {
    // A recursive and a force option anywhere in the same command (-rf, -fr, -rfv, -r -f,
    // --recursive --force, -r --force), each an option word of its own.
    pattern:
      /\brm\s(?=(?:[^|;&\n]*\s)?(?:-[a-zA-Z]*[rR]|--recursive\b))(?=(?:[^|;&\n]*\s)?(?:-[a-zA-Z]*f|--force\b))/,
    label: 'rm -rf',
  },
  { pattern: /\bgit\s+reset\s+(?:[^|;&]*\s)?--hard\b/, label: 'git reset --hard' },
  { pattern: /\bgit\s+checkout\s+(?:[^|;&]*\s)?--\s+\S/, label: 'git checkout -- <paths>' },
  { pattern: /\bgit\s+checkout\s+(?:-f|--force)\b/, label: 'git checkout --force' },
  { pattern: /\bgit\s+restore\s+(?![^|;&]*--staged\b)[^|;&]*\S/, label: 'git restore' },
  { pattern: /\bgit\s+clean\s+(?:[^|;&]*\s)?-[a-zA-Z]*f/, label: 'git clean -f' },
  {
    pattern: /\bgit\s+push\s+(?:[^|;&]*\s)?(?:--force\b|--force-with-lease\b|-f\b|\+\S)/,
    label: 'git push --force',
  },
  { pattern: /\bgit\s+stash\s+(?:drop|clear)\b/, label: 'git stash drop/clear' },
  { pattern: /\bgit\s+branch\s+(?:[^|;&]*\s)?-D\b/, label: 'git branch -D' },
  { pattern: /\bgit\s+rebase\b/, label: 'git rebase' },
  { pattern: /\bgit\s+filter-(?:branch|repo)\b/, label: 'git filter-branch' },
  { pattern: /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b/i, label: 'DROP/TRUNCATE' },
  { pattern: /\bDELETE\s+FROM\s+\w+\s*(?:;|$|")/i, label: 'DELETE without WHERE' },
  { pattern: /\bfind\b[^|;&]*\s-delete\b/, label: 'find -delete' },
  { pattern: /\bdd\s+[^|;&]*\bof=\/dev\//, label: 'dd to a device' },
  { pattern: /\bmkfs(\.\w+)?\b/, label: 'mkfs' },
];

/** The kind of risky operation `command` performs, or null when it looks safe. */
export function detectRiskyCommand(command: string): string | null {
  for (const { pattern, label } of RISKY) if (pattern.test(command)) return label;
  return null;
}
