// The dashboard's browser tests (test/ui/) drive Debian's Chromium through playwright-core
// (browsers cannot be downloaded here). When it is missing and this runs as root with apt-get,
// it is installed once, as .ci/run does; otherwise the tests fail with what to install.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function ensureChromium() {
  if (process.env.SHIM_CHROMIUM || CANDIDATES.some((path) => existsSync(path))) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    process.stderr.write(
      "no Chromium for the dashboard tests: install Debian's chromium (sudo apt-get install chromium) or set SHIM_CHROMIUM\n",
    );
    return;
  }
  process.stderr.write("installing Debian's chromium for the dashboard tests (once)…\n");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (result.status !== 0)
    process.stderr.write('apt-get install chromium failed; the dashboard tests will fail\n');
}
