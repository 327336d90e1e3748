/**
 * Where a queued team row's body is read from when it is sent. store/team/team-row-source.ts
 * implements it.
 * @module
 */
import type { TeamRowKind } from './team-repository.ts';

export type LocalRow = { body: Record<string, unknown>; cwd: string | null };

export interface TeamRowBodies {
  read(kind: TeamRowKind, id: string): LocalRow | null;
}
