import { spawn } from 'node:child_process';
import { planRescue } from '../../app/restore/rescue.ts';
import { getShimHome } from '../../store/home/home.ts';
import type { Agents } from '../../agents/agent.ts';

export async function runRescue(
  agents: Agents,
  claudeArgs: string[],
  options: { session?: string; claudeBin?: string; dryRun?: boolean; json?: boolean },
): Promise<void> {
  const plan = await planRescue({
    agents,
    home: getShimHome(),
    env: process.env,
    cwd: process.cwd(),
    sessionId: options.session ?? null,
    now: Date.now(),
    dryRun: options.dryRun === true,
  });
  const { headless } = plan.adapter;
  const bin = options.claudeBin ?? (process.env[headless.binEnv] || headless.defaultBin);
  const args = [...plan.args, ...claudeArgs, plan.prompt];
  if (options.dryRun) {
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ ...plan, adapter: plan.adapter.id, command: [bin, ...plan.args, ...claudeArgs] }, null, 2)}\n`
        : `Would fork session ${plan.sessionId} at ${plan.point.uuid} (${plan.point.contextTokens} tokens, limit ${plan.limit}; ${plan.point.entriesDropped} later entries left out), starting with a restore of its state as of now (${plan.prompt.length} chars). Nothing was stored or started.\n`,
    );
    return;
  }
  process.stderr.write(
    `shim: forking session ${plan.sessionId.slice(0, 8)} at ${plan.point.uuid.slice(0, 8)} (${plan.point.contextTokens} tokens) with shim's restore\n`,
  );
  // A session of its own, even when started from inside one of the agent's (HeadlessRun.env).
  const child = spawn(bin, args, { stdio: 'inherit', env: headless.env(process.env) });
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  process.exitCode = code;
}
