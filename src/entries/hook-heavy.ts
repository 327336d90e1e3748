/**
 * dist/hook-heavy.cjs — the hooks' rare half, loaded by dist/hook.cjs only for the events that
 * open the store, build checkpoints or render restores: SessionStart, PreCompact, PostCompact,
 * SessionEnd, a risky command's checkpoint where no note can be written, an L2/L3 checkpoint, a
 * task-list warning; and the jobs hooks start detached (`shim background <job>`: a checkpoint in
 * the background, the checkpoints promised before risky commands).
 *
 * SQLite lives here. Never the MCP SDK, the web server, a tracker client or the
 * team store's database driver: the tracker sync is queued here and sent by a worker.
 * @module
 */
export * from '../hook/heavy.ts';
