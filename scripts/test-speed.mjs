// Which test files the inner loop (`npm run test:quick`) leaves to the whole suite. A file whose
// cost is what it proves — kill -9 loops over real processes, an evaluation over every real
// session, a soak, the plugin's own npm ci — says so in its own text with a line
//
//   // test-speed: slow (<why>)
//
// `npm test` runs it like any other file, `npm run test:changed` runs it when the change reaches
// it, and `npm run test:quick` names it and leaves it out, so the inner loop stays a first check
// of the ~90 s kind (README, "Development").

const SLOW = /^\s*\/\/\s*test-speed:\s*slow\b[ \t]*(?:\((.*)\))?[ \t]*$/m;

/** Why the test file with this text is left to the whole suite; null if the inner loop runs it. */
export function slowReason(text) {
  const match = SLOW.exec(text);
  if (!match) return null;
  return match[1]?.trim() || 'marked slow';
}
