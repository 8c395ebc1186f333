// Sets up the embedding example (docs/embedding.md):
//
//   node examples/embed/setup.mjs model > /tmp/row-access.yml
//       the demo shop's model with row-level access on orders.country (start the service with
//       INSIGHTS_MODEL=/tmp/row-access.yml);
//   INSIGHTS_URL=http://127.0.0.1:8080 DEMO_TOKEN=… ACME_TOKEN=… node examples/embed/setup.mjs keys
//       per tenant: an embedding key allowing http://localhost:3000 and a six-widget dashboard;
//       prints the environment that examples/embed/server.mjs reads.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function rowAccessModel() {
  const demo = fs.readFileSync(path.join(ROOT, 'models/demo.yml'), 'utf8');
  const marker = '  - name: orders\n    sql_table: orders\n    tenant_column: tenant_id\n';
  if (!demo.includes(marker)) throw new Error('models/demo.yml changed: add access_filters to the orders cube by hand');
  return demo.replace(marker, `${marker}    access_filters:\n      - dimension: country\n        attribute: country\n`);
}

const WIDGETS = [
  ['Revenue', 'revenue_kpi', 'kpi', 'small'],
  ['Orders', 'orders_kpi', 'kpi', 'small'],
  ['Revenue by day', 'revenue', 'chart', 'medium'],
  ['Revenue by channel', 'revenue_by_channel', 'chart', 'medium'],
  ['Revenue by country', 'revenue_by_country', 'chart', 'medium'],
  ['Top products', 'top_products', 'table', 'medium'],
];

async function api(base, token, method, url, body) {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${data.detail}`);
  return data;
}

/** An embedding key and a six-widget dashboard for the tenant of `token`. */
export async function setUpTenant(base, token, origin = 'http://localhost:3000') {
  const key = await api(base, token, 'POST', '/api/v1/embed/keys', { name: 'example host app', allowed_origins: [origin] });
  const dashboard = await api(base, token, 'POST', '/api/v1/dashboards/', { name: 'Sales' });
  for (const [title, insight_code, widget_type, display_size] of WIDGETS) {
    await api(base, token, 'POST', `/api/v1/dashboards/${dashboard.id}/widgets`, {
      title,
      widget_type,
      display_size,
      data_source: 'live_insight',
      insight_code,
    });
  }
  return { keyId: key.id, secret: key.secret, dashboard: dashboard.id };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'model') process.stdout.write(rowAccessModel());
  else if (command === 'keys') {
    const base = process.env.INSIGHTS_URL ?? 'http://127.0.0.1:8080';
    const auth = (t) => (/^(Svc|Bearer) /.test(t) ? t : `Svc ${t}`);
    for (const tenant of ['demo', 'acme']) {
      const token = process.env[`${tenant.toUpperCase()}_TOKEN`];
      if (!token) throw new Error(`set ${tenant.toUpperCase()}_TOKEN to an owner or admin token of tenant ${tenant}`);
      const t = await setUpTenant(base, auth(token));
      const P = tenant.toUpperCase();
      console.log(`export ${P}_KEY_ID=${t.keyId} ${P}_KEY_SECRET=${t.secret} ${P}_DASHBOARD=${t.dashboard}`);
    }
  } else {
    console.error('usage: node examples/embed/setup.mjs model | keys');
    process.exit(2);
  }
}
