/**
 * The plans a request names: markdown files of the project, so a hook can tell, before loading
 * anything heavy, whether a prompt is about a plan (app/tasks/plan-warning.ts).
 * @module
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { mentionedFiles } from '../../core/plan/plan.ts';

/** Plans bigger than this are not plans (a log, a dump): not read on a hook. */
const MAX_PLAN_BYTES = 512 * 1024;

/** The markdown files a prompt names that exist in the project (at most three). */
export function mentionedPlans(prompt: string, root: string): string[] {
  const plans: string[] = [];
  for (const name of mentionedFiles(prompt)) {
    if (!/\.(?:md|markdown)$/i.test(name) || plans.length >= 3) continue;
    const path = resolve(root, name);
    const inside = relative(root, path);
    if (inside.startsWith('..') || isAbsolute(inside)) continue;
    try {
      const stat = statSync(path);
      if (stat.isFile() && stat.size <= MAX_PLAN_BYTES) plans.push(path);
    } catch {
      // not there (yet)
    }
  }
  return plans;
}
