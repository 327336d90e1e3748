/**
 * The one behaviour for a config file that cannot be used, in every command as in the hooks:
 * run on the defaults for that file and say so (on stderr, so `--json` output stays clean).
 * @module
 */
import { describeConfigProblem, type ShimConfig } from '../../store/config/config.ts';

export function configWarnings(config: Pick<ShimConfig, 'problems'>): string[] {
  return config.problems.map(
    (p) =>
      `shim: warning: ${describeConfigProblem(p)} — using the defaults for that file until it is fixed (${p.fix})`,
  );
}

export function warnConfigProblems(config: Pick<ShimConfig, 'problems'>): void {
  for (const line of configWarnings(config)) process.stderr.write(`${line}\n`);
}
