/**
 * dist/redact.cjs — the redactor alone. The quiet per-call bundles (hook-quick, statusline) do not
 * carry it: they load it only when one of them writes a log entry (store/log.ts), which happens
 * only when something failed. dist/status.cjs and the agents' bundles reach it through
 * ./redactor-on-demand.ts, the first time one of their calls redacts a text.
 * @module
 */
export {
  forgetRemembered,
  forgetRememberedValue,
  redactTextSync,
  redactValueSync,
} from '../redact/redact.ts';
