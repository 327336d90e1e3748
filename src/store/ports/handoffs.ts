/**
 * Handoff documents written for a next session, and which session picked each up.
 * store/checkpoints/handoff-repository.ts implements it.
 * @module
 */

export type HandoffKind = 'user' | 'team' | 'pre_compact' | 'level_L2' | 'level_L3' | 'usage_limit';

export type HandoffRecord = {
  id: string;
  checkpointId: string;
  sessionId: string;
  project: string | null;
  path: string;
  kind: HandoffKind;
  createdAt: string;
  pickedUpAt: string | null;
  pickedUpBy: string | null;
};

export interface Handoffs {
  record(handoff: Omit<HandoffRecord, 'id' | 'pickedUpAt' | 'pickedUpBy'>): HandoffRecord;
  /**
   * The newest handoff for the project that no session has picked up yet, of the kinds a next
   * session inherits (the user's, the one written at a usage limit).
   */
  getPendingForProject(root: string, since: string): HandoffRecord | null;
  /** The session's own usage-limit handoff not picked up yet (for its resume). */
  getPendingLimitHandoff(sessionId: string): HandoffRecord | null;
  /**
   * Marks the handoff picked up by `sessionId`; false when another session took it first (two
   * sessions starting at once must not both inherit it).
   */
  markPickedUp(id: string, sessionId: string, at: string): boolean;
  listForCheckpoint(checkpointId: string): HandoffRecord[];
}
