/** The error family every front door knows how to print. */

export type AppErrorCode =
  | 'TRANSCRIPT_NOT_FOUND'
  | 'TRANSCRIPT_UNREADABLE'
  | 'SESSION_NOT_FOUND'
  | 'CONFIG_INVALID'
  | 'USAGE'
  | 'STORE_UNAVAILABLE'
  | 'STORE_FULL'
  | 'STORE_READ_ONLY'
  | 'CHECKPOINT_NOT_FOUND'
  | 'CHECKPOINT_INVALID'
  | 'GIT_FAILED'
  | 'UNSAFE_PATH';

/** An expected failure: `message` says what happened, `hint` how to fix it. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: AppErrorCode;
  readonly hint: string | undefined;
  constructor(code: AppErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.hint = hint;
  }
}
