/**
 * dist/statusline-full.cjs — the statusline's fold and assessment, loaded by dist/statusline.cjs
 * only outside the quiet window (above half the threshold: every render). No SQLite.
 * @module
 */
export { assessForStatusline } from '../statusline/full-basis.ts';
