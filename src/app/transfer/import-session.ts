/**
 * `shim import <file>`: a session exported from another store (session-file.ts) into this one.
 * Nothing raw lands: every checkpoint goes through the same last steps as a fresh one (redact,
 * limit, validate: seal-checkpoint.ts) and every other row and handoff document is redacted
 * again. Rows already here (same ids) are skipped, so importing twice adds nothing. Paths: when
 * the directory shim runs in is a checkout of the same repository (the project's identity by
 * its normalised git remote), the session's paths are moved onto it; otherwise they are kept as
 * they were and the result says so.
 * @module
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { identifyProject } from '../../capture/project-remote.ts';
import type { Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { redactValue } from '../../redact/redact.ts';
import { ensureSafeDir, writeFileSafely } from '../../store/home/safe-file.ts';
import type { PlainRow, SessionRows, WritePlan } from '../../store/ports/session-transfer.ts';
import { withStore } from '../open-store.ts';
import { sealCheckpoint } from '../checkpoint/seal-checkpoint.ts';
import { parseSessionFile, type ExportedProject } from './session-file.ts';

export type ImportPaths =
  | { action: 'mapped'; from: string; to: string }
  | { action: 'kept'; root: string | null; why: string };

type Counted = { added: number; skipped: number };

export type ImportResult = {
  sessionId: string;
  agent: string;
  dryRun: boolean;
  session: 'added' | 'skipped' | 'none';
  checkpoints: Counted & { renumbered: number };
  handoffs: Counted & { withoutDocument: number };
  compactionSummaries: Counted;
  /** Secrets the import's own redaction replaced (0 for a file `shim export` wrote). */
  redacted: number;
  paths: ImportPaths;
  /** Handoff documents written under SHIM_HOME/handoffs/. */
  handoffFiles: string[];
};

/** Where the session's paths go on this machine. */
function placePaths(project: ExportedProject | null, cwd: string): ImportPaths {
  if (project === null)
    return {
      action: 'kept',
      root: null,
      why: "the session's directory was not on the exporting machine",
    };
  if (project.id.startsWith('path:'))
    return {
      action: 'kept',
      root: project.root,
      why: 'the project has no git remote to recognise it by',
    };
  const local = identifyProject(cwd);
  if (local.id !== project.id)
    return {
      action: 'kept',
      root: project.root,
      why: `${local.root} is not a checkout of ${project.id}; run shim import inside one to move the paths onto it`,
    };
  if (local.root === project.root)
    return { action: 'kept', root: project.root, why: 'this checkout is where it ran' };
  return { action: 'mapped', from: project.root, to: local.root };
}

/** A deep copy of `value` with every path under `from` moved under `to`. */
function movePaths<T>(value: T, from: string, to: string): T {
  const move = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v === from ? to : v.startsWith(`${from}/`) ? to + v.slice(from.length) : v;
    if (Array.isArray(v)) return v.map(move);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, move(x)]));
    return v;
  };
  return move(value) as T;
}

/** A file name under handoffs/ for an imported document: its own, unless taken or odd. */
function handoffPath(dir: string, row: PlainRow, taken: Set<string>): string {
  const own = basename(String(row.path));
  const name =
    /^[\w.-]+\.md$/.test(own) && !taken.has(own)
      ? own
      : `imported-${safeFileName(String(row.id))}.md`;
  taken.add(name);
  return join(dir, name);
}

const count = (steps: Array<{ action: string }>): Counted => ({
  added: steps.filter((s) => s.action !== 'skip').length,
  skipped: steps.filter((s) => s.action === 'skip').length,
});

export async function importSession(request: {
  home: string;
  text: string;
  /** How the file is named in messages. */
  name: string;
  /** The directory whose checkout the session's paths move onto. */
  cwd: string;
  shimVersion: string;
  dryRun?: boolean;
}): Promise<ImportResult> {
  const file = parseSessionFile(request.text, request.name, request.shimVersion);
  let findings = 0;
  const checkpoints: SessionRows['checkpoints'] = [];
  for (const entry of file.rows.checkpoints) {
    const sealed = await sealCheckpoint(entry.checkpoint);
    findings += sealed.findings;
    const checkpoint: Checkpoint = {
      ...sealed.checkpoint,
      checkpointNumber: entry.checkpoint.checkpointNumber,
    };
    checkpoints.push({ checkpoint, row: entry.row });
  }
  const others = await redactValue({
    session: file.rows.session,
    handoffs: file.rows.handoffs,
    compactionSummaries: file.rows.compactionSummaries,
  });
  findings += others.findings;
  let rows: SessionRows = { ...others.value, checkpoints };

  const paths = placePaths(file.project, request.cwd);
  if (paths.action === 'mapped') rows = movePaths(rows, paths.from, paths.to);

  // A handoff row names its document: without one there is nothing to pick up.
  const withoutDocument = rows.handoffs.filter((h) => typeof h.document !== 'string').length;
  const dir = join(request.home, 'handoffs');
  const taken = new Set<string>();
  try {
    for (const name of readdirSync(dir)) taken.add(name);
  } catch {
    // no handoffs yet
  }
  const documents = new Map<string, { path: string; document: string }>();
  rows = {
    ...rows,
    handoffs: rows.handoffs
      .filter((h) => typeof h.document === 'string')
      .map((h) => {
        const path = handoffPath(dir, h, taken);
        documents.set(String(h.id), { path, document: String(h.document) });
        const row: PlainRow = { ...h, path };
        delete row.document;
        return row;
      }),
  };

  const plan: WritePlan = await withStore(request.home, ({ transfer }) =>
    request.dryRun ? transfer.plan(rows) : transfer.write(rows),
  );
  const handoffFiles: string[] = [];
  if (!request.dryRun) {
    const added = plan.handoffs.filter((h) => h.action === 'add');
    if (added.length > 0) ensureSafeDir(request.home, 'handoffs');
    for (const h of added) {
      const doc = documents.get(h.id)!;
      writeFileSafely(doc.path, doc.document);
      handoffFiles.push(doc.path);
    }
  }
  return {
    sessionId: file.sessionId,
    agent: file.agent,
    dryRun: request.dryRun === true,
    session: plan.session === 'add' ? 'added' : plan.session === 'skip' ? 'skipped' : 'none',
    checkpoints: {
      ...count(plan.checkpoints),
      renumbered: plan.checkpoints.filter((c) => c.action === 'renumber').length,
    },
    handoffs: { ...count(plan.handoffs), withoutDocument },
    compactionSummaries: count(plan.compactionSummaries),
    redacted: findings,
    paths,
    handoffFiles,
  };
}
