// Which test files of a group may share one test process (scripts/test-groups.mjs `share`), and
// how they are put together. Each test file in a process of its own pays the process's start,
// the preload and its modules' loading (~0.2 s of CPU for a small unit file, measured: 35 small
// unit files, 10.0 s of CPU one process each, 2.3 s in one); the unit group has 170 of them.
//
// A shared process runs its files one after another, each inside a suite named by its path
// (scripts/compile-tests.mjs wraps each in `describe('<path>', …)`), so a file's `before`,
// `after`, `beforeEach` and `afterEach` stay its own, the reporters name each file, and a
// failure's line is its source's. What a file changes for the whole process would reach the
// files after it, so a file that changes the environment, the working directory or globals,
// starts processes, sets timers or ends the process runs alone. The runner reads that from the
// file's own text (`ownProcessReason`); a file whose reason the text does not show says so with
// a line `// test-process: own (<why>)`.

/** A file's own text that makes it run in a process of its own, and why. */
const OWN = [
  [/^\s*\/\/\s*test-process:\s*own\b.*$/m, 'marked'],
  [
    /process\.env(?:\.\w+|\[[^\]]+\])\s*(?:=(?!=)|\?\?=|\|\|=)|delete\s+process\.env|Object\.assign\(\s*process\.env/,
    'changes process.env',
  ],
  [/process\.(?:chdir|umask|exitCode|exit\(|on\(|once\(|off\()/, 'changes the process'],
  [/globalThis\.\w+\s*=(?!=)|global\.\w+\s*=(?!=)/, 'changes a global'],
  [/\bmock\.(?:timers|method|module)\b/, 'mocks for the process'],
  [/['"]node:child_process['"]|['"]child_process['"]/, 'starts processes'],
  [/\bset(?:Timeout|Interval|Immediate)\s*\(/, 'sets timers'],
  // esbuild cannot wrap a module with a top-level await in a function (require()).
  [
    /^(?:export\s+)?(?:(?:const|let|var)\s[^\n(=]*=\s*)?await\b|^for\s+await\b/m,
    'awaits at the top level',
  ],
];

/** Why the test file with this text must run in a process of its own; null if it may share one. */
export function ownProcessReason(text) {
  const found = OWN.find(([pattern]) => pattern.test(text));
  return found ? found[1] : null;
}

/**
 * A group's files (one batch of scripts/test-order.mjs, longest first) as the processes that run
 * them: a file that must run alone is a process of its own; the others go, in order, into shared
 * processes of at most `limitMs` of known time and `maxFiles` files each. Returns
 * `[{ files, shared }]`, in the order given (each process's first file decides its place).
 */
export function processesOf(files, { reasonOf, weightOf, limitMs = 30_000, maxFiles = 40 }) {
  const processes = [];
  let open = null;
  for (const file of files) {
    if (reasonOf(file) !== null) {
      processes.push({ files: [file], shared: false });
      continue;
    }
    const weight = weightOf(file);
    if (
      open === null ||
      open.files.length >= maxFiles ||
      (open.weight + weight > limitMs && open.files.length > 0)
    ) {
      open = { files: [], shared: true, weight: 0 };
      processes.push(open);
    }
    open.files.push(file);
    open.weight += weight;
  }
  // A shared process of one file is that file's own process.
  return processes.map((p) => ({ files: p.files, shared: p.shared && p.files.length > 1 }));
}
