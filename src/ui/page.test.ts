import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { embeddableJson, renderExportPage } from './page.ts';

test('embedded data cannot close its script element or open a comment', () => {
  const text = embeddableJson({ s: '</script><script>alert(1)</script><!-- \u2028' });
  assert.doesNotMatch(text, /<|>|\u2028/);
  assert.deepEqual(JSON.parse(text), { s: '</script><script>alert(1)</script><!-- \u2028' });
});

test('the export allows exactly its own inline script and styles, by hash', () => {
  const js = 'document.title="x"';
  const css = 'body{color:red}';
  const html = renderExportPage({ title: 'a <b>', assets: { js, css }, data: { kind: 'session' } });
  const hash = (s: string) => createHash('sha256').update(s).digest('base64');
  assert.ok(html.includes(`script-src 'sha256-${hash(js)}'`));
  assert.ok(html.includes(`style-src 'sha256-${hash(css)}'`));
  assert.ok(html.includes(`<script>${js}</script>`));
  assert.ok(html.includes('<title>a &#60;b&#62;</title>'));
  assert.doesNotMatch(html, /https?:\/\//);
});
