/**
 * Building the page's elements: text always goes in as text (never parsed as HTML), so nothing
 * a transcript or checkpoint holds can become markup.
 * @module
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<
  string,
  string | number | boolean | null | undefined | ((event: Event) => void)
>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
  return el;
}

export function tokens(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(2)}M`;
  if (n >= 10_000) return `${Math.round(n / 1_000)}k`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(Math.round(n));
}

export function when(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '–';
  return d.toISOString().replace('T', ' ').slice(0, 16);
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** The children that are there (a view's optional parts are null when absent). */
export function present(
  ...children: Array<Node | string | null | undefined | false>
): Array<Node | string> {
  return children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false);
}

/** How long ago, in words with units: "just now", "3 min ago", "2 h ago", "4 days ago". */
export function ago(ms: number, now: number): string {
  const seconds = Math.max(0, (now - ms) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** "1 response", "3 responses". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
