/** Opens the store for a command and always closes it. */
import { CheckpointRepository } from '../store/checkpoint-repository.ts';
import { openDatabase, type Database } from '../store/database.ts';
import { HandoffRepository } from '../store/handoff-repository.ts';
import { ResumeRepository } from '../store/resume-repository.ts';
import { SessionRepository } from '../store/session-repository.ts';

export type Store = {
  db: Database;
  checkpoints: CheckpointRepository;
  sessions: SessionRepository;
  resumes: ResumeRepository;
  handoffs: HandoffRepository;
};

/** The repositories over an open database. */
export function createStore(db: Database): Store {
  return {
    db,
    checkpoints: new CheckpointRepository(db),
    sessions: new SessionRepository(db),
    resumes: new ResumeRepository(db),
    handoffs: new HandoffRepository(db),
  };
}

export async function withStore<T>(
  home: string,
  work: (store: Store) => T | Promise<T>,
): Promise<T> {
  const db = openDatabase(home);
  try {
    return await work(createStore(db));
  } finally {
    db.close();
  }
}
