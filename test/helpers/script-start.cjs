// Starts a test script compiled by test/helpers/script-process.ts (one CommonJS bundle) through
// V8's code cache, as bin/shim.cjs starts shim's bundles: without one, every start compiles again
// the functions its run needs. Called from the one-line starter beside the bundle with its path
// and the cache file's; the cache's name holds the bundle's content hash, and the Node version,
// arch and flags are added here, so a stale cache is never read. Written once, by the first start
// that ends normally (many are killed with SIGKILL), through a temp file and a rename.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

module.exports = function startCached(file, cacheBase) {
  // V8 refuses a cache made under other flags: they are part of the key.
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS || ''}`;
  const flagsKey = require('node:crypto').createHash('sha256').update(flags).digest('hex');
  const cachePath = `${cacheBase}-${process.version}-${process.arch}-${flagsKey.slice(0, 8)}.bin`;
  let cached;
  try {
    cached = fs.readFileSync(cachePath);
  } catch {
    // not written yet
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData: cached,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cached || script.cachedDataRejected) {
    process.once('exit', () => {
      const temp = `${cachePath}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temp, script.createCachedData());
        fs.renameSync(temp, cachePath);
      } catch {
        fs.rmSync(temp, { force: true }); // the next start compiles
      }
    });
  }
  const bundle = new Module(file, module);
  bundle.filename = file;
  bundle.paths = Module._nodeModulePaths(path.dirname(file));
  script
    .runInThisContext()
    .call(
      bundle.exports,
      bundle.exports,
      Module.createRequire(file),
      bundle,
      file,
      path.dirname(file),
    );
  bundle.loaded = true;
};
