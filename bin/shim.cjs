#!/usr/bin/env node
// The `shim` launcher. Hooks and the statusline run as fresh processes on every tool call and
// every render: they load one CommonJS bundle each, with no ES-module loader and no CLI parser.
'use strict';
const [command, ...rest] = process.argv.slice(2);
if (command === 'hook') {
  require('../dist/hook.cjs').main(rest[0]);
} else if (command === 'statusline') {
  require('../dist/statusline.cjs').main(rest);
} else {
  import('../dist/cli.js');
}
