/** The help paragraph of every command that looks at one project's checkpoints. */
export const SCOPE_HELP = `
Scope: the current project by default — the git work tree the working directory is in, with
every directory below its top (outside git: the directory itself). --all looks at every
project; --cwd <dir> at the project of another directory (relative paths work).`;
