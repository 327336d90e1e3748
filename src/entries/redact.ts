/**
 * dist/redact.cjs — the redactor alone, for the quiet per-call bundles (hook-quick, statusline),
 * which do not carry it: loaded only when one of them writes a log entry (store/log.ts), which
 * happens only when something failed. Never on a call that goes well.
 * @module
 */
export { redactValueSync } from '../redact/redact.ts';
