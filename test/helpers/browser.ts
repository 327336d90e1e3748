/**
 * A real Chromium for the dashboard's tests: Debian's `chromium` (`.ci/run` installs it) driven
 * by playwright-core, or the browser SHIM_CHROMIUM names.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(): string {
  const named = process.env.SHIM_CHROMIUM;
  if (named) return named;
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      'no Chromium for the dashboard tests: apt-get install chromium (Debian), or set SHIM_CHROMIUM to a Chromium binary',
    );
  return found;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    // Containers run as root without user namespaces; the page is our own, served locally.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}
