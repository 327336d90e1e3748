/**
 * What hooks remember per session between processes (SHIM_HOME/cache/hooks/<session>.json),
 * and once-only claims (a file created with O_EXCL) so parallel hooks alert and checkpoint
 * once, not once each. A claim for work a death could cut short is held by its owner until the
 * work is done, and taken over when its owner died first ({@link claimUntilDone}).
 * @module
 */
import { closeSync, linkSync, openSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_HOOK_MEMORY, type HookMemory } from '../../core/policy/hook-policy.ts';
import { safeFileName } from '../../core/fnv-hash.ts';
import { ensureDir } from '../home/home.ts';
import { readJsonFile, writeJsonFileAtomic } from '../home/json-file.ts';
import { isOwnerAlive, startTimeOf } from '../home/process-alive.ts';
import { writeFileSafely } from '../home/safe-file.ts';
import { writeWhenAnswered } from '../home/write-buffer.ts';

const safeName = safeFileName;

function getMemoryPath(home: string, sessionId: string): string {
  return join(home, 'cache', 'hooks', `${safeName(sessionId)}.json`);
}

export function loadHookMemory(home: string, sessionId: string): HookMemory {
  const value = readJsonFile(getMemoryPath(home, sessionId));
  return typeof value === 'object' && value !== null
    ? { ...EMPTY_HOOK_MEMORY, ...(value as Partial<HookMemory>) }
    : { ...EMPTY_HOOK_MEMORY };
}

export function saveHookMemory(home: string, sessionId: string, memory: HookMemory): void {
  ensureDir(home, 'cache', 'hooks');
  writeJsonFileAtomic(getMemoryPath(home, sessionId), memory);
}

/** True for the one process that claims `key` first for this session; false for the rest. */
export function claimOnce(home: string, sessionId: string, key: string): boolean {
  const dir = ensureDir(home, 'cache', 'hooks');
  try {
    closeSync(openSync(getClaimPath(dir, sessionId, key), 'wx', 0o600));
    return true;
  } catch {
    return false;
  }
}

/**
 * {@link claimOnce}, telling a claim another process holds (`taken`) from one that could not be
 * written at all (`unwritable`: a full or read-only SHIM_HOME), where "taken" would be a lie —
 * nobody did the work, nor can anyone record that it was done.
 */
export function tryClaimOnce(
  home: string,
  sessionId: string,
  key: string,
): 'claimed' | 'taken' | 'unwritable' {
  try {
    const dir = ensureDir(home, 'cache', 'hooks');
    closeSync(openSync(getClaimPath(dir, sessionId, key), 'wx', 0o600));
    return 'claimed';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'taken' : 'unwritable';
  }
}

/** What a claim file says once its work is done (an empty file: a claim taken for good). */
const DONE = 'done';

/**
 * A claim for work a death could cut short: a level's checkpoint stored within the call, the
 * level's notice. It names its owner (pid and start time) until {@link settleClaim}; one whose
 * owner died first — a warm look killed mid-look — is taken over by the next process that asks
 * (the hook that then looks in its own process), so the work is not skipped. True for the one
 * process that holds it.
 */
export function claimUntilDone(home: string, sessionId: string, key: string): boolean {
  const path = getClaimPath(ensureDir(home, 'cache', 'hooks'), sessionId, key);
  const owner = `${process.pid} ${startTimeOf('self') ?? ''}`;
  // Made whole (a link to a file already written): a claim is never seen half written.
  const temp = `${path}.${process.pid}.new`;
  writeFileSafely(temp, owner);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  const held = readText(path).split(' ');
  const pid = Number(held[0]);
  if (!Number.isInteger(pid) || pid <= 0 || isOwnerAlive(pid, held[1] || null)) return false;
  // Its owner died before the work was done: one process takes over from that owner (the mark
  // is made once per dead owner), and names itself in the claim.
  try {
    closeSync(openSync(`${path}.after-${pid}`, 'wx', 0o600));
  } catch {
    return false;
  }
  writeFileSafely(path, owner);
  return true;
}

/**
 * The claim of one checkpoint slot (a context window's call count and trigger), the same key from
 * every door that decides one — the PostToolUse hook, the mod's step and its counted calls — so
 * whichever sees a slot first takes it. `untilDone`: a level's (hook-policy.ts
 * isClaimedUntilDone), held until it has started; any other, once.
 */
export function claimCheckpointSlot(
  home: string,
  sessionId: string,
  slot: { compactions: number; toolCalls: number; trigger: string },
  untilDone: boolean,
): string | null {
  const key = `ckpt-${slot.compactions}-${slot.toolCalls}-${slot.trigger}`;
  const claimed = untilDone
    ? claimUntilDone(home, sessionId, key)
    : claimOnce(home, sessionId, key);
  return claimed ? key : null;
}

/** The work a {@link claimUntilDone} guarded is done: the claim is taken for good. */
export function settleClaim(home: string, sessionId: string, key: string): void {
  writeFileSafely(getClaimPath(join(home, 'cache', 'hooks'), sessionId, key), DONE);
}

/**
 * The notice a {@link claimUntilDone} guarded goes out with this call's answer: settled with the
 * writes held until the answer is out (write-buffer.ts) — inside the warm look, after it has
 * answered, so a look killed between its decision and its answer leaves the claim to the hook that
 * then looks itself, which tells it; in a hook's own process, at once.
 */
export function settleClaimWithAnswer(home: string, sessionId: string, key: string): void {
  writeWhenAnswered(getClaimPath(join(home, 'cache', 'hooks'), sessionId, key), DONE);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Gives a claim back when the work it guarded failed, so the next process that gets the chance
 * (the PreCompact hook after the mod, a later call) tries again instead of finding it taken.
 */
export function releaseClaim(home: string, sessionId: string, key: string): void {
  rmSync(getClaimPath(join(home, 'cache', 'hooks'), sessionId, key), { force: true });
}

function getClaimPath(dir: string, sessionId: string, key: string): string {
  return join(dir, `${safeName(sessionId)}.${key.replace(/[^\w.-]/g, '_')}`);
}
