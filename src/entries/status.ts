/**
 * dist/status.cjs — `shim status` in its plain forms (people run it in a loop or a watch):
 * no ES-module CLI, no commander. Help and mistakes go to the full CLI (dist/cli.js).
 * @module
 */
export { main } from '../cli/status-main.ts';
