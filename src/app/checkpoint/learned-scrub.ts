/**
 * What prints a stored row passes what the home's sessions learned are secrets (the store's
 * `learned`, store/checkpoints/learned-secrets.ts): a row stored before its value was known — in
 * a session no learner was restored from, a team copy — is shown without it. `shim show`, the
 * dashboard's answers and the MCP tools' answers; the restores pass it as they are rendered
 * (app/restore/render-restore.ts).
 * @module
 */
import { forgetRememberedValue, SecretMemory } from '../../redact/redact.ts';
import { withStore, type Store } from '../open-store.ts';

/** What the home learned, as a memory to pass what is printed through. */
export function learnedMemory(store: Pick<Store, 'learned'>): SecretMemory {
  return SecretMemory.from(store.learned.all().lines);
}

/** {@link learnedMemory} of the store under `home`. */
export function readLearnedMemory(home: string): Promise<SecretMemory> {
  return withStore(home, learnedMemory);
}

/** A copy of `value` (a text or a JSON-like value) with every value `memory` holds replaced. */
export function withoutLearned<T>(value: T, memory: SecretMemory): T {
  return memory.size === 0 ? value : forgetRememberedValue(value, memory).value;
}
