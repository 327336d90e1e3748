/**
 * The dashboard's HTML: the live page (its script and styles served beside it) and the
 * self-contained export (script, styles and data inline, allowed by their hashes alone).
 * @module
 */
import { createHash } from 'node:crypto';

export type PageAssets = { js: string; css: string };

/** Text for an element or a double-quoted attribute. */
const esc = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

const shell = (head: string, body: string, team = false) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
${head}
</head>
<body>
<a class="skip" href="#app">Skip to content</a>
<header class="top"><a class="brand" href="#/">shim</a><nav aria-label="Views"><a href="#/">Now</a><a href="#/sessions">Sessions</a><a href="#/loops">Loop runs</a>${team ? '<a href="#/team">Team</a>' : ''}</nav></header>
<main id="app" tabindex="-1"><p class="muted">Loading…</p></main>
${body}
</body>
</html>
`;

export function renderPage(page: { scripts: string[]; styles: string[]; team?: boolean }): string {
  return shell(
    `<title>shim</title>\n${page.styles.map((s) => `<link rel="stylesheet" href="${esc(s)}">`).join('\n')}`,
    page.scripts.map((s) => `<script src="${esc(s)}"></script>`).join('\n'),
    page.team === true,
  );
}

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** JSON safe inside a script element: no `</script>`, no HTML comment openers. */
export function embeddableJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One file that shows `data` with no server: opened from disk, offline, by anyone it is sent to. */
export function renderExportPage(request: {
  title: string;
  assets: PageAssets;
  data: unknown;
}): string {
  const { js, css } = request.assets;
  const policy = [
    "default-src 'none'",
    `script-src ${sha256(js)}`,
    `style-src ${sha256(css)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return shell(
    [
      `<meta http-equiv="Content-Security-Policy" content="${esc(policy)}">`,
      `<title>${esc(request.title)}</title>`,
      `<style>${css}</style>`,
    ].join('\n'),
    `<script type="application/json" id="shim-data">${embeddableJson(request.data)}</script>\n<script>${js}</script>`,
  );
}
