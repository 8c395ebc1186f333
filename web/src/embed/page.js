// The embedded pages (/embed/dashboards/{id}, /embed/chat): plain modules with no framework, so the
// first chart is drawn after one small script and two API calls. The embed token arrives in the
// URL fragment (never sent to the server, never in a Referer) and is taken out of the URL at once.
// docs/embedding.md describes the parameters and the messages posted to the host page.

const params = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('token') ?? '';
history.replaceState(null, '', location.pathname + location.search);

/** The host origins that may frame this page (the key's), for postMessage's targetOrigin. */
const hostOrigins = (document.querySelector('meta[name="insights-frame-origins"]')?.getAttribute('content') ?? '')
  .split(' ')
  .filter(Boolean);

function post(message) {
  if (window.parent === window) return;
  for (const origin of hostOrigins) window.parent.postMessage({ source: 'insights-embed', ...message }, origin);
}

// Theming: only values of a known shape reach a CSS variable.
const root = document.documentElement;
if (params.get('theme') === 'dark' || (params.get('theme') === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches))
  root.dataset.theme = 'dark';
const accent = params.get('accent');
if (accent && /^#?[0-9a-fA-F]{3,8}$/.test(accent)) root.style.setProperty('--ins-accent', accent.startsWith('#') ? accent : `#${accent}`);
const font = params.get('font');
if (font && /^[\w\s,'-]{1,100}$/.test(font)) root.style.setProperty('--ins-font', font);
const hideTitle = ['1', 'true'].includes(params.get('hide_title') ?? '');

const main = document.querySelector('main');
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
};
const svgEl = (tag, attrs = {}) => {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    referrerPolicy: 'no-referrer',
    credentials: 'omit',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail ?? `HTTP ${res.status}`);
  return data;
}

const fmt = (v) => (typeof v === 'number' ? v.toLocaleString(undefined, { maximumFractionDigits: 2 }) : String(v ?? ''));

/** A small SVG chart: a line for time series, bars for the rest. */
function chart(result, type) {
  const x = result.chart_hint?.x_axis ?? result.columns[0]?.name;
  const y = result.chart_hint?.y_axis?.[0] ?? result.columns.find((c) => c.name !== x && c.type !== 'string' && c.type !== 'date')?.name;
  const rows = result.rows.slice(0, 60);
  const values = rows.map((r) => Number(r[y]) || 0);
  const max = Math.max(1, ...values);
  const w = 300,
    h = 150,
    pad = 16;
  const svg = svgEl('svg', {
    class: 'chart',
    viewBox: `0 0 ${w} ${h + 10}`,
    preserveAspectRatio: 'none',
    role: 'img',
    'aria-label': result.chart_hint?.title ?? '',
  });
  const step = (w - pad) / Math.max(1, rows.length);
  if (type === 'line' || type === 'area') {
    const points = values.map((v, i) => `${pad + i * step + step / 2},${h - (v / max) * (h - 10)}`).join(' ');
    svg.append(svgEl('polyline', { class: 'line', points }));
  } else {
    values.forEach((v, i) => {
      const bh = (v / max) * (h - 10);
      const bar = svgEl('rect', { class: 'mark', x: pad + i * step + 1, y: h - bh, width: Math.max(1, step - 2), height: bh });
      bar.append(svgEl('title'));
      bar.firstChild.textContent = `${rows[i][x]}: ${fmt(values[i])}`;
      svg.append(bar);
    });
  }
  const label = svgEl('text', { x: pad, y: h + 9 });
  label.textContent = `${rows[0]?.[x] ?? ''} … ${rows[rows.length - 1]?.[x] ?? ''}   max ${fmt(max)}`;
  svg.append(label);
  return svg;
}

function table(result) {
  const cols = result.columns.slice(0, 6);
  return el(
    'table',
    {},
    el('thead', {}, el('tr', {}, ...cols.map((c) => el('th', {}, c.label)))),
    el('tbody', {}, ...result.rows.slice(0, 50).map((r) => el('tr', {}, ...cols.map((c) => el('td', {}, fmt(r[c.name])))))),
  );
}

function draw(card, widget, result) {
  const type = widget.chart_hint_override?.chart_type ?? result.chart_hint?.type ?? 'table';
  if (widget.widget_type === 'kpi' || type === 'kpi') {
    const r = result.rows[0] ?? {};
    card.append(
      el(
        'div',
        { class: 'kpi' },
        fmt(r.value),
        el('small', {}, r.change_pct == null ? '' : `${r.change_pct > 0 ? '+' : ''}${fmt(r.change_pct)} % vs previous`),
      ),
    );
  } else if (widget.widget_type === 'table' || type === 'table') card.append(table(result));
  else card.append(chart(result, type));
}

async function dashboardPage(id) {
  const d = await api('GET', `/api/v1/embed/dashboards/${encodeURIComponent(id)}`);
  if (!hideTitle) main.append(el('h1', {}, d.name));
  const locked = Object.entries(d.locked_filters);
  if (locked.length)
    main.append(
      el(
        'ul',
        { class: 'locked', 'aria-label': 'Fixed filters' },
        ...locked.map(([k, v]) => el('li', { title: 'Fixed by the page you are on' }, `${k}: ${[].concat(v).join(', ')} 🔒`)),
      ),
    );
  const grid = el('div', { class: 'grid' });
  main.append(grid);
  let first = true;
  await Promise.all(
    d.widgets.map(async (w) => {
      const card = el('section', { class: `card ${w.display_size}`, 'data-widget': w.id }, el('h2', {}, w.title));
      grid.append(card);
      try {
        const { data } = await api('GET', `/api/v1/embed/dashboards/${encodeURIComponent(id)}/widgets/${encodeURIComponent(w.id)}/data`);
        draw(card, w, data);
        card.dataset.drawn = 'true';
        if (first) {
          first = false;
          performance.mark('insights:first-chart');
          post({ type: 'insights:first-chart', widget: w.id });
        }
      } catch (err) {
        card.append(el('p', { class: 'error' }, err.message));
      }
    }),
  );
  document.body.dataset.ready = 'true';
  post({ type: 'insights:ready' });
}

function chatPage() {
  const form = el(
    'form',
    {},
    el('input', { name: 'q', 'aria-label': 'Your question', placeholder: 'Ask about your data…', autocomplete: 'off' }),
    el('button', { type: 'submit' }, 'Ask'),
  );
  const answer = el('div', { class: 'answer', 'aria-live': 'polite' });
  main.append(el('div', { class: 'chat' }, form, answer));
  let history;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const message = form.q.value.trim();
    if (!message) return;
    answer.replaceChildren(el('p', {}, '…'));
    try {
      const { data } = await api('POST', '/api/v1/embed/chat', { message, ...(history ? { history_id: history } : {}) });
      history = data.history_id;
      const parts = [el('p', {}, data.reply_text)];
      if (data.rows.length) {
        const columns = Object.keys(data.rows[0]).map((name) => ({ name, label: name }));
        parts.push(table({ columns, rows: data.rows }));
      }
      answer.replaceChildren(...parts);
    } catch (err) {
      answer.replaceChildren(el('p', { class: 'error' }, err.message));
    }
  });
  document.body.dataset.ready = 'true';
  post({ type: 'insights:ready' });
}

// The host sizes the frame to its content: report the height whenever it changes.
new ResizeObserver(() => post({ type: 'insights:height', height: Math.ceil(document.documentElement.scrollHeight) })).observe(
  document.body,
);

const dashboard = /^\/embed\/dashboards\/([^/]+)$/.exec(location.pathname);
if (!token) main.append(el('p', { class: 'error' }, 'No embed token: open this page as /embed/…#token=<embed token>.'));
else if (dashboard)
  dashboardPage(decodeURIComponent(dashboard[1])).catch((err) => {
    main.append(el('p', { class: 'error' }, err.message));
    post({ type: 'insights:error', message: err.message });
  });
else chatPage();
