/**
 * The file `shim export` writes and `shim import` reads (docs/export-import.md): one JSON
 * document with a format version, the store's schema version, the project's identity on every
 * machine, the session's rows, and a SHA-256 of all of it. Reading checks, in this order: that
 * it is JSON at all (a cut-short file is not), that it is a shim export, that this shim is not
 * older than the one that wrote it, that the checksum matches (nothing was changed by hand), and
 * that every row has the shape a store needs and belongs to the file's session.
 * @module
 */
import { createHash } from 'node:crypto';
import { CHECKPOINT_SECTIONS, type Checkpoint } from '../../core/checkpoint/checkpoint.ts';
import { validateCheckpoint } from '../../core/checkpoint/checkpoint-limits.ts';
import { AGENT_IDS, isAgentId } from '../../core/agent-id.ts';
import { AppError } from '../../core/errors.ts';
import { STORE_SCHEMA_VERSION } from '../open-store.ts';
import type {
  ExportedCheckpoint,
  PlainRow,
  SessionRows,
} from '../../store/ports/session-transfer.ts';

export const SESSION_FILE_FORMAT = 'shim-session-export';
/** Bumped when the file's layout changes; a reader refuses a newer one. */
export const SESSION_FILE_VERSION = 1;

/** Where the session ran: the project's root there and its identity on every machine. */
export type ExportedProject = {
  /** `github.com/org/app` (plus `//sub/dir`), or `path:/x` for a project without a remote. */
  id: string;
  root: string;
};

export type SessionFile = {
  format: typeof SESSION_FILE_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  shimVersion: string;
  exportedAt: string;
  sessionId: string;
  agent: string;
  project: ExportedProject | null;
  rows: SessionRows;
  /** SHA-256 (hex) of the JSON of every other field, in this order. */
  sha256: string;
};

const checksum = (body: Omit<SessionFile, 'sha256'>): string =>
  createHash('sha256').update(JSON.stringify(body)).digest('hex');

export function serializeSessionFile(body: Omit<SessionFile, 'sha256'>): string {
  return `${JSON.stringify({ ...body, sha256: checksum(body) }, null, 2)}\n`;
}

const refuse = (message: string, hint: string): AppError =>
  new AppError('IMPORT_REFUSED', message, hint);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkRow(row: unknown, what: string, sessionId: string, required: string[]): PlainRow {
  if (!isObject(row)) throw new Error(`${what} is not an object`);
  for (const [key, value] of Object.entries(row))
    if (value !== null && typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`${what}.${key} is neither text, a number nor null`);
  for (const key of required)
    if (typeof row[key] !== 'string' || row[key] === '') throw new Error(`${what} has no ${key}`);
  if (row.session_id !== sessionId) throw new Error(`${what} belongs to another session`);
  return row as PlainRow;
}

function repeatedId(ids: readonly unknown[], what: string): void {
  const seen = new Map<unknown, number>();
  ids.forEach((id, i) => {
    const first = seen.get(id);
    if (first !== undefined)
      throw new Error(`${what} ${i + 1} repeats the id of ${what} ${first + 1} (${String(id)})`);
    seen.set(id, i);
  });
}

function checkCheckpoint(entry: unknown, index: number, sessionId: string): ExportedCheckpoint {
  const what = `checkpoint ${index + 1}`;
  if (!isObject(entry) || !isObject(entry.checkpoint) || !isObject(entry.row))
    throw new Error(`${what} is not a checkpoint`);
  const c = entry.checkpoint;
  for (const section of [...CHECKPOINT_SECTIONS, 'source'] as const)
    if (!isObject(c[section])) throw new Error(`${what} has no ${section}`);
  let validation: ReturnType<typeof validateCheckpoint>;
  try {
    validation = validateCheckpoint(c as unknown as Checkpoint);
  } catch (error) {
    throw new Error(`${what} is malformed (${(error as Error).message})`, { cause: error });
  }
  if (!validation.valid) throw new Error(`${what}: ${validation.errors.join('; ')}`);
  if (c.sessionId !== sessionId) throw new Error(`${what} belongs to another session`);
  const row = entry.row;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  // Every export names each checkpoint's agent; another value is an agent this shim does not know.
  if (!isAgentId(row.agent))
    throw new Error(
      `${what} names the agent ${JSON.stringify(row.agent ?? null)}, which this shim does not know (it knows ${AGENT_IDS.join(', ')})`,
    );
  return {
    checkpoint: c as unknown as Checkpoint,
    row: {
      parentId: text(row.parentId),
      restoredAt: text(row.restoredAt),
      agent: row.agent,
    },
  };
}

/** The checked file, or an AppError whose one line says what is wrong and what to do. */
export function parseSessionFile(text: string, name: string, shimVersion: string): SessionFile {
  // Read as UTF-8, a UTF-16 file (an editor's or PowerShell's re-save) is NULs and U+FFFD: said
  // as such, not quoted raw in a JSON error.
  if (text.includes('\u0000') || text.startsWith('\uFFFD'))
    throw refuse(
      `${name} is not UTF-8 text (UTF-16 or binary)`,
      'give the file as `shim export` wrote it (UTF-8); convert a re-saved one back, e.g. `iconv -f UTF-16 -t UTF-8`',
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refuse(
      `${name} is not a whole shim export: ${(error as Error).message}${text.trim() === '' ? ' (it is empty)' : ''}`,
      'the file was cut short or is not JSON; export the session again (`shim export <session> > file`)',
    );
  }
  if (!isObject(parsed) || parsed.format !== SESSION_FILE_FORMAT)
    throw refuse(
      `${name} is not a shim session export (no "format": "${SESSION_FILE_FORMAT}")`,
      'give a file written by `shim export`',
    );
  // Numbers only: Number(null) is 0, which would read a file naming no version as format 0.
  const { formatVersion, schemaVersion } = parsed;
  if (
    typeof formatVersion !== 'number' ||
    typeof schemaVersion !== 'number' ||
    !Number.isInteger(formatVersion) ||
    !Number.isInteger(schemaVersion)
  )
    throw refuse(`${name} names no format or schema version`, 'export the session again');
  if (formatVersion > SESSION_FILE_VERSION || schemaVersion > STORE_SCHEMA_VERSION)
    throw refuse(
      `${name} was written by a newer shim (${String(parsed.shimVersion)}: file format ${formatVersion}, store schema ${schemaVersion}); this shim ${shimVersion} reads format ${SESSION_FILE_VERSION} and schema ${STORE_SCHEMA_VERSION} at most`,
      'upgrade shim on this machine to the version that wrote the file (or newer), then import it again',
    );
  const { sha256, ...body } = parsed;
  if (typeof sha256 !== 'string' || checksum(body as Omit<SessionFile, 'sha256'>) !== sha256)
    throw refuse(
      `${name} was changed after it was exported: its SHA-256 does not match its content`,
      'import the file as `shim export` wrote it, or export the session again',
    );
  const sessionId = parsed.sessionId;
  try {
    if (typeof sessionId !== 'string' || sessionId === '') throw new Error('no sessionId');
    const rows = parsed.rows;
    if (!isObject(rows)) throw new Error('no rows');
    const list = (key: string): unknown[] => {
      const v = rows[key];
      if (!Array.isArray(v)) throw new Error(`rows.${key} is not a list`);
      return v;
    };
    const project = parsed.project;
    if (
      project !== null &&
      (!isObject(project) || typeof project.id !== 'string' || typeof project.root !== 'string')
    )
      throw new Error('project is malformed');
    const checked: SessionRows = {
      session:
        rows.session === null
          ? null
          : checkRow(rows.session, 'the session row', sessionId, ['started_at', 'last_seen_at']),
      checkpoints: list('checkpoints').map((c, i) => checkCheckpoint(c, i, sessionId)),
      handoffs: list('handoffs').map((h, i) =>
        checkRow(h, `handoff ${i + 1}`, sessionId, [
          'id',
          'checkpoint_id',
          'path',
          'kind',
          'created_at',
        ]),
      ),
      compactionSummaries: list('compactionSummaries').map((s, i) =>
        checkRow(s, `compaction summary ${i + 1}`, sessionId, [
          'id',
          'recorded_at',
          'trigger',
          'summary',
        ]),
      ),
    };
    // One id twice would end in the store's UNIQUE constraint, midway through the import.
    repeatedId(
      checked.checkpoints.map((c) => c.checkpoint.id),
      'checkpoint',
    );
    repeatedId(
      checked.handoffs.map((h) => h.id),
      'handoff',
    );
    repeatedId(
      checked.compactionSummaries.map((s) => s.id),
      'compaction summary',
    );
    return {
      ...(parsed as unknown as SessionFile),
      project: project as ExportedProject | null,
      rows: checked,
    };
  } catch (error) {
    throw refuse(
      `${name} holds something a store cannot take: ${(error as Error).message}`,
      'export the session again with `shim export`',
    );
  }
}
