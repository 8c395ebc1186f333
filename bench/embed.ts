// npm run bench -- embed [runs]: embedded analytics (docs/embedding.md).
// 1. A host page on another origin frames a six-widget embedded dashboard (<insights-dashboard>)
//    in headless Chromium; measured in the host page from its navigation start until the frame
//    posts insights:first-chart (the first widget drawn). Target: median < 1000 ms.
// 2. The cost of row-level access on execute: the same insight query, result cache dropped before
//    each run, by a caller whose attribute lists every country (so the same rows) on the model with
//    access_filters, against the owner on the model without. Target: ratio ≤ 1.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { SignJWT } from 'jose';
import { buildTestApp, call, type TestApp } from '../test/helpers/app.ts';
import { CHROMIUM, ensureWebBuilt, launchChromium } from '../test/helpers/browser.ts';
import { rowAccessModel } from '../test/helpers/row-access.ts';
import { testWarehouse } from '../test/helpers/warehouse.ts';
// @ts-expect-error a plain .mjs of the example, without types
import { setUpTenant } from '../examples/embed/setup.mjs';

const ROWS = 100_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

async function pageLoad(t: TestApp, runs: number): Promise<string[][]> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const service = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  let html = '';
  const host = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  const origin = `http://localhost:${(host.address() as AddressInfo).port}`;
  const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  const set = await setUpTenant(service, owner, origin);
  const token = await new SignJWT({ resource: `dashboard:${set.dashboard}`, attributes: { country: 'DE' } })
    .setProtectedHeader({ alg: 'HS256', kid: set.keyId })
    .setSubject('bench')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(set.secret));
  html = `<!doctype html><html><body><script src="${service}/embed/insights.js"></script>
    <insights-dashboard token="${token}"></insights-dashboard>
    <script>document.querySelector('insights-dashboard').addEventListener('insights:first-chart', () => { window.firstChart = performance.now(); });</script></body></html>`;
  const browser = await launchChromium();
  const times: number[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    for (let i = 0; i <= runs; i++) {
      const page = await context.newPage();
      await page.goto(origin);
      const ms = await page.waitForFunction(() => (window as unknown as { firstChart?: number }).firstChart ?? false, undefined, {
        timeout: 30_000,
      });
      times.push(Number(await ms.jsonValue()));
      await page.close();
    }
  } finally {
    await browser.close();
    host.close();
  }
  const [cold, ...warm] = times;
  return [
    ['embedded 6-widget dashboard, first load (cold caches)', cold.toFixed(0), (cold / 1000).toFixed(2)],
    [`… median of ${warm.length} loads`, median(warm).toFixed(0), (median(warm) / 1000).toFixed(2)],
  ];
}

async function rowAccessCost(plain: TestApp, guarded: TestApp, runs: number): Promise<string[][]> {
  const owner = await plain.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  const guardedOwner = await guarded.login({ tenant: 'demo', user: 'owner', role: 'owner' });
  const from = new Date(Date.now() - 700 * 864e5).toISOString().slice(0, 10);
  const all = await call(plain, owner, 'GET', `/api/v1/insights/revenue_by_country/execute?date_from=${from}`);
  const countries = all.data.data.rows.map((r: { country: string }) => r.country);
  const member = async (attributes: Record<string, unknown>) =>
    `Svc ${(await call(guarded, guardedOwner, 'POST', '/api/v1/auth/tokens', { name: 'bench', user_id: 'bench', role: 'member', attributes })).data.token}`;
  const de = await member({ country: 'DE' });
  const every = await member({ country: countries });
  const time = async (t: TestApp, who: string, url: string) => {
    t.app.services.insights.invalidate();
    const start = process.hrtime.bigint();
    const res = await call(t, who, 'GET', url);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const rows: string[][] = [];
  // Each pair answers the same rows: the access filter against the same predicate as a parameter,
  // and against no predicate at all (an attribute listing every country).
  for (const code of ['revenue', 'revenue_by_country', 'top_products']) {
    const url = `/api/v1/insights/${code}/execute`;
    const pairs: { what: string; a: [TestApp, string, string]; b: [TestApp, string, string] }[] = [
      { what: `${code}: ?country=DE vs attribute country=DE`, a: [plain, owner, `${url}?country=DE`], b: [guarded, de, url] },
      { what: `${code}: no filter vs attribute of every country`, a: [plain, owner, url], b: [guarded, every, url] },
    ];
    for (const p of pairs) {
      const a: number[] = [];
      const b: number[] = [];
      // Interleaved, caches dropped: the engine's work each time, on both sides alike.
      for (let i = 0; i < runs; i++) {
        a.push(await time(...p.a));
        b.push(await time(...p.b));
      }
      rows.push([p.what, `${median(a).toFixed(1)} / ${median(b).toFixed(1)}`, (median(b) / median(a)).toFixed(2)]);
    }
  }
  return rows;
}

export async function run(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 10);
  const now = new Date();
  // The embedded page is the web app's embed entry: served only from a build.
  if (fs.existsSync(CHROMIUM)) ensureWebBuilt();
  console.log(`Seeding two in-memory warehouses (${ROWS} orders each)…`);
  const plain = await buildTestApp({ deps: { warehouse: await testWarehouse(now, ROWS) } });
  const guarded = await buildTestApp({ deps: { warehouse: await testWarehouse(now, ROWS), model: rowAccessModel() } });
  try {
    const cost = await rowAccessCost(plain, guarded, Math.max(runs * 3, 15));
    const load = fs.existsSync(CHROMIUM) ? await pageLoad(guarded, runs) : [['(Chromium absent: page load not measured)', '-', '-']];
    table(['embed', 'ms', 'ratio (targets: < 1.00 of 1 s; ≤ 1.10)'], [...load, ...cost]);
  } finally {
    await plain.close();
    await guarded.close();
    await plain.warehouse.close();
    await guarded.warehouse.close();
  }
}
