/**
 * The project's own files, opt-in (`projectFiles.enabled`, docs/project-files.md): the state file
 * `<dir>/checkpoint-state.json`, rewritten at each checkpoint, and a copy of every handoff under
 * `<dir>/handoffs/YYYY-MM-DD-HHMM.md`, in the project's root. Off, nothing here runs and shim
 * writes nothing outside SHIM_HOME. Everything written passes the redaction again (the session's
 * memory of its secrets included), and unless `track` is set the two paths are listed in the
 * clone's .git/info/exclude, so git does not offer them for a commit.
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Assessment } from '../core/context/assess.ts';
import type { Checkpoint } from '../core/checkpoint/checkpoint.ts';
import {
  handoffStamp,
  projectStateOf,
  type ProjectState,
} from '../core/checkpoint/project-state.ts';
import type { LevelThresholds } from '../core/context/level.ts';
import { redactTextSync, redactValueSync, type SecretMemory } from '../redact/redact.ts';
import { gitExcludePath } from '../capture/git-exclude-path.ts';
import { findProjectRoot } from '../capture/project.ts';
import type { ShimConfig } from '../store/config/config.ts';
import { readJsonFile } from '../store/home/json-file.ts';
import { writeFileSafely } from '../store/home/safe-file.ts';
import { appendLog } from '../store/home/log.ts';
import { formatIssue } from '../core/sync/issue-ref.ts';
import type { Store } from './open-store.ts';

export type ProjectFilesSetting = ShimConfig['projectFiles'];

export const PROJECT_STATE_FILE = 'checkpoint-state.json';
export const PROJECT_HANDOFF_DIR = 'handoffs';

/** Shared with the team through the repository: readable by others, unlike SHIM_HOME's files. */
const PROJECT_FILE_MODE = 0o644;

/** The project directory a checkpoint's files go to; null when off or the project is unknown. */
export function projectFilesDir(
  setting: ProjectFilesSetting,
  checkpoint: Checkpoint,
): Place | null {
  if (!setting.enabled) return null;
  const cwd = checkpoint.fileState.repoRoot ?? checkpoint.source.cwd;
  if (!cwd || !isAbsolute(cwd) || !existsSync(cwd)) return null;
  const root = checkpoint.fileState.repoRoot ?? findProjectRoot(cwd);
  const dir = resolve(root, setting.dir);
  const inside = relative(root, dir);
  // The schema refuses a directory outside the project; a path that still leads out is not used.
  if (inside.startsWith('..') || isAbsolute(inside)) return null;
  return { root, dir };
}

const EXCLUDE_NOTE = '# shim: its project files (projectFiles.track: false in shim config)';

/**
 * The clone's own ignore list (never a tracked file) lists the two paths, or, once the user
 * chose to track them, no longer does. Outside a git work tree there is nothing to do.
 */
function keepOutOfGit(root: string, dir: string, track: boolean): void {
  const path = gitExcludePath(root);
  if (!path) return;
  const base = relative(root, dir).split('\\').join('/');
  const lines = [
    EXCLUDE_NOTE,
    `/${base}/${PROJECT_STATE_FILE}`,
    `/${base}/${PROJECT_HANDOFF_DIR}/`,
  ];
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // no exclude file yet
  }
  const present = text.split('\n');
  if (!track) {
    const missing = lines.filter((line) => !present.includes(line));
    if (missing.length === 0) return;
    mkdirSync(dirname(path), { recursive: true });
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    writeFileSafely(path, `${text}${sep}${missing.join('\n')}\n`, PROJECT_FILE_MODE);
  } else if (lines.some((line) => present.includes(line))) {
    writeFileSafely(
      path,
      present.filter((line) => !lines.includes(line)).join('\n'),
      PROJECT_FILE_MODE,
    );
  }
}

type Place = { root: string; dir: string };

function writeProjectFile(place: Place, path: string, text: string, track: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSafely(path, text, PROJECT_FILE_MODE);
  keepOutOfGit(place.root, place.dir, track);
}

type StateInput = {
  setting: ProjectFilesSetting;
  checkpoint: Checkpoint;
  assessment: Assessment;
  levels: LevelThresholds;
  agent: string;
  startedAt: number | null;
  linkedIssue: string | null;
  memory?: SecretMemory;
};

/**
 * The state file follows a stored checkpoint, naming the session's linked issue; a failure is
 * logged, never thrown (the checkpoint stands).
 */
export function keepProjectState(
  store: Pick<Store, 'issues'>,
  home: string,
  input: Omit<StateInput, 'linkedIssue'>,
): void {
  try {
    const linked = store.issues.get(input.checkpoint.sessionId);
    writeProjectState({ ...input, linkedIssue: linked ? formatIssue(linked.ref) : null });
  } catch (error) {
    appendLog(home, 'warn', 'could not write the project state file', {
      sessionId: input.checkpoint.sessionId,
      error: String(error),
    });
  }
}

/** Rewrites the state file for a stored checkpoint (a no-op when off). Returns its path. */
export function writeProjectState(input: StateInput): string | null {
  const place = projectFilesDir(input.setting, input.checkpoint);
  if (!place) return null;
  const state = projectStateOf({
    checkpoint: input.checkpoint,
    assessment: input.assessment,
    levels: input.levels,
    agent: input.agent,
    startedAt: input.startedAt === null ? null : new Date(input.startedAt).toISOString(),
    linkedIssue: input.linkedIssue,
    handoffFile: null,
  });
  const path = join(place.dir, PROJECT_STATE_FILE);
  const { value } = redactValueSync(state, input.memory);
  writeProjectFile(place, path, `${JSON.stringify(value, null, 2)}\n`, input.setting.track);
  return path;
}

/**
 * Copies a handoff document into the project (a no-op when off) and names it in the state file
 * when that describes the same checkpoint. Returns the copy's path.
 */
export function writeProjectHandoff(input: {
  setting: ProjectFilesSetting;
  checkpoint: Checkpoint;
  document: string;
  now: number;
}): string | null {
  const place = projectFilesDir(input.setting, input.checkpoint);
  if (!place) return null;
  const handoffs = join(place.dir, PROJECT_HANDOFF_DIR);
  const stamp = handoffStamp(new Date(input.now));
  let path = join(handoffs, `${stamp}.md`);
  // Two handoffs in one minute keep both: the second gets a suffix.
  for (let n = 2; existsSync(path); n++) path = join(handoffs, `${stamp}-${n}.md`);
  const { text } = redactTextSync(input.document);
  writeProjectFile(place, path, `${text}\n`, input.setting.track);
  const statePath = join(place.dir, PROJECT_STATE_FILE);
  const state = readJsonFile(statePath) as ProjectState | null;
  if (state?.lastCheckpoint?.id === input.checkpoint.id) {
    state.lastCheckpoint.handoffFile = relative(place.root, path).split('\\').join('/');
    writeFileSafely(statePath, `${JSON.stringify(state, null, 2)}\n`, PROJECT_FILE_MODE);
  }
  return path;
}
