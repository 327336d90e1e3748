/** The error family every front door knows how to print. */

export type AppErrorCode =
  | 'TRANSCRIPT_NOT_FOUND'
  | 'TRANSCRIPT_UNREADABLE'
  | 'SESSION_NOT_FOUND'
  | 'RESCUE_UNSUPPORTED'
  | 'CONFIG_INVALID'
  | 'USAGE'
  | 'STORE_UNAVAILABLE'
  | 'STORE_FULL'
  | 'STORE_READ_ONLY'
  | 'CHECKPOINT_NOT_FOUND'
  | 'CHECKPOINT_INVALID'
  | 'IMPORT_REFUSED'
  | 'GIT_FAILED'
  | 'UNSAFE_PATH'
  | 'TEAM_NOT_CONNECTED'
  | 'TEAM_URL_INVALID'
  | 'TEAM_UNREACHABLE'
  | 'TEAM_AUTH'
  | 'TEAM_NO_SCHEMA'
  | 'TEAM_READ_ONLY'
  | 'TEAM_FAILED'
  | 'SNAPSHOT_NOT_HERE'
  | 'TOOL_OFF'
  | 'AGENT_UNKNOWN';

/** Marks every AppError, whichever copy of this class made it. */
const BRAND = Symbol.for('shim.AppError');

/** An expected failure: `message` says what happened, `hint` how to fix it. */
export class AppError extends Error {
  /**
   * Each bundle (dist/*.cjs) carries its own copy of this class, and another agent's adapter runs
   * from its own bundle: an AppError it throws must still be one where the front door catches it
   * (else a damaged archive read by `shim status` was reported as a bug in shim).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== AppError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && BRAND in value;
  }
  override name = 'AppError';
  readonly code: AppErrorCode;
  readonly hint: string | undefined;
  constructor(code: AppErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.hint = hint;
    Object.defineProperty(this, BRAND, { value: true });
  }
}
