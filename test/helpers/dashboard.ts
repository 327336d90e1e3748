/** `shim ui` as a user starts it: the built binary, its printed link, stopped with SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN } from './cli.ts';

export type Dashboard = { url: string; port: number; token: string; stop: () => Promise<void> };

export async function startDashboard(
  env: Record<string, string>,
  options: { args?: string[]; cwd?: string } = {},
): Promise<Dashboard> {
  const args = [BIN, 'ui', '--port', '0', '--json', ...(options.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`shim ui exited (${code}): ${stderr}`)));
  });
  const { url, port } = JSON.parse(line) as { url: string; port: number };
  return {
    url,
    port,
    token: new URL(url).searchParams.get('token')!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
