import { resolve } from 'node:path';
import { findProjectRoot } from '../../capture/project.ts';
import {
  describeConfigProblem,
  getConfigPath,
  getProjectConfigPaths,
  loadConfig,
} from '../../store/config/config.ts';
import { getShimHome } from '../../store/home/home.ts';
import { bold, dim } from '../format/text.ts';

/** Every setting as `path = value`, in a stable order. */
function flatten(
  value: unknown,
  at = '',
  out: Array<[string, unknown]> = [],
): Array<[string, unknown]> {
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !at.startsWith('levels')
  ) {
    for (const [key, v] of Object.entries(value)) flatten(v, at ? `${at}.${key}` : key, out);
  } else out.push([at, value]);
  return out;
}

export async function runConfig(options: { json?: boolean; cwd?: string }): Promise<void> {
  const home = getShimHome();
  const root = findProjectRoot(resolve(process.cwd(), options.cwd ?? '.'));
  // Lenient: show what the hooks would use, and every problem, instead of stopping at the first.
  const config = await loadConfig(home, { projectRoot: root, lenient: true });
  const { problems, sources, ...settings } = config;
  const files = [getConfigPath(home), ...getProjectConfigPaths(root)];
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ project: root, files, settings, sources, problems }, null, 2)}\n`,
    );
    if (problems.length > 0) process.exitCode = 1;
    return;
  }
  const lines = [
    `${bold('shim configuration')} for project ${root}`,
    dim(`files, later ones win: ${files.join(', ')}`),
    '',
  ];
  for (const [path, value] of flatten(settings)) {
    const source = sources[path] ?? sources[path.split('.')[0]!] ?? 'default';
    lines.push(
      `  ${path.padEnd(40)} ${JSON.stringify(value).padEnd(24)} ${dim(source === 'default' ? '(default)' : source)}`,
    );
  }
  for (const p of problems) {
    lines.push('', `problem: ${describeConfigProblem(p)}`, `  fix: ${p.fix}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (problems.length > 0) process.exitCode = 1;
}
