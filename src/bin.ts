/**
 * The `shim` binary. Hooks and the statusline run as fresh processes on every tool call and
 * every render, so they are dispatched before the command-line parser is even loaded.
 * @module
 */
const [command, ...rest] = process.argv.slice(2);

if (command === 'hook') {
  await (await import('./hook/run.ts')).main(rest[0]);
} else if (command === 'statusline') {
  await (await import('./statusline/run.ts')).main(rest);
} else {
  await import('./cli/main.ts');
}
