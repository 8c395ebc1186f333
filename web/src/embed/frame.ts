// The embedded page's side of the contract with its host (docs/embedding.md): the embed token
// arrives in the URL fragment (never sent to the server, never in a Referer) and is taken out of
// the URL at once; the page is bound to the key it was served for; messages go to that key's
// origins only; the host themes the page through query parameters.

const params = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
/** The viewer's embed token; read before anything else runs, and gone from the URL from here on. */
export const token = fragment.get('token') ?? '';
history.replaceState(null, '', location.pathname + location.search);

/** The embedding key a token was signed with: its header's kid. */
function keyOf(jwt: string): string {
  try {
    return JSON.parse(atob(jwt.split('.')[0].replace(/-/g, '+').replace(/_/g, '/'))).kid ?? '';
  } catch {
    return '';
  }
}
const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
// The frame policy (?key=) must be the key of the token: another key's origins (another tenant's)
// may neither show this token's data in their frame nor receive its messages.
export const otherKey = Boolean(token && meta('insights-frame-key') && keyOf(token) !== meta('insights-frame-key'));
/** The host origins that may frame this page (the key's), for postMessage's targetOrigin. */
const hostOrigins = otherKey ? [] : meta('insights-frame-origins').split(' ').filter(Boolean);

export type HostMessage =
  | { type: 'insights:height'; height: number }
  | { type: 'insights:first-chart'; widget: string }
  | { type: 'insights:ready' }
  | { type: 'insights:error'; message: string };

/** A message to the host page, to the key's origins only. */
export function post(message: HostMessage): void {
  if (window.parent === window) return;
  for (const origin of hostOrigins) window.parent.postMessage({ source: 'insights-embed', ...message }, origin);
}

/** A call of the embed API as the token's viewer; a problem's detail becomes the error's message. */
export async function embedApi<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    referrerPolicy: 'no-referrer',
    credentials: 'omit',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail ?? data.title ?? `HTTP ${res.status}`);
  return data as T;
}

/**
 * Theming by query parameters; only values of a known shape reach a CSS variable. `theme=light`
 * (the default) holds the page light on a dark system, `auto` follows the system, live.
 */
export function applyHostTheme(): { hideTitle: boolean } {
  const root = document.documentElement;
  const theme = params.get('theme');
  // Without data-theme the app's styles and charts follow the system's setting as it changes.
  if (theme === 'dark') root.dataset.theme = 'dark';
  else if (theme !== 'auto') root.dataset.theme = 'light';
  const accent = params.get('accent');
  if (accent && /^#?[0-9a-fA-F]{3,8}$/.test(accent)) root.style.setProperty('--accent', accent.startsWith('#') ? accent : `#${accent}`);
  const font = params.get('font');
  if (font && /^[\w\s,'-]{1,100}$/.test(font)) root.style.setProperty('--font', font);
  return { hideTitle: ['1', 'true'].includes(params.get('hide_title') ?? '') };
}
