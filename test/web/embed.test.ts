// Embedded analytics in Chromium across two origins (docs/embedding.md): a host page on
// http://localhost:<port> frames the service on http://127.0.0.1:<port> through <insights-dashboard>
// and <insights-chat>, for two viewers of two tenants. Each sees its own rows, the frame follows the
// height the page reports, the token never leaves the fragment (no request URL, no Referer), and an
// origin the key does not allow cannot frame the page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { buildTestApp, call, type TestApp } from '../helpers/app.ts';
import { CHROMIUM_MISSING, ensureWebBuilt, launchChromium, watchConsole } from '../helpers/browser.ts';
import { rowAccessModel } from '../helpers/row-access.ts';

const skip = CHROMIUM_MISSING;

let t: TestApp;
let browser: Browser;
let host: http.Server;
let service = '';
let hostOrigin = '';
let hostHtml = '';
const tokens: string[] = [];

async function keyAndDashboard(tenant: string, origins: string[]) {
  const owner = await t.login({ tenant, user: 'owner', role: 'owner' });
  const key = await call(t, owner, 'POST', '/api/v1/embed/keys', { name: 'host', allowed_origins: origins });
  const d = await call(t, owner, 'POST', '/api/v1/dashboards/', { name: `${tenant} sales` });
  // Revenue by country against the previous period (bars, a legend of two series), a pie and a KPI.
  for (const [title, insight, type, compare] of [
    ['By country', 'revenue_by_country', 'chart', 'previous_period'],
    ['By channel', 'revenue_by_channel', 'chart'],
    ['Revenue', 'revenue_kpi', 'kpi'],
  ]) {
    const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/widgets`, {
      title,
      widget_type: type,
      data_source: 'live_insight',
      insight_code: insight,
      ...(compare ? { widget_filters: { compare } } : {}),
    });
    assert.equal(w.statusCode, 201, w.body);
  }
  return { key: { id: key.data.id as string, secret: key.data.secret as string }, dashboard: d.data.id as string };
}

const sign = (key: { id: string; secret: string }, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.id }).setExpirationTime('10m').sign(new TextEncoder().encode(key.secret));

before(async () => {
  if (skip) return;
  // The embedded page is the web app's embed entry (src/plugins/embed-pages.ts serves the build).
  ensureWebBuilt();
  t = await buildTestApp({ deps: { model: rowAccessModel() } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  service = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  host = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostHtml);
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
  const demo = await keyAndDashboard('demo', [hostOrigin]);
  const acme = await keyAndDashboard('acme', [hostOrigin]);
  tokens.push(
    await sign(demo.key, {
      sub: 'ann',
      resource: `dashboard:${demo.dashboard}`,
      attributes: { country: 'DE' },
      filters: { country: 'DE' },
    }),
    await sign(acme.key, { sub: 'bob', resource: `dashboard:${acme.dashboard}`, attributes: { country: 'FR' } }),
    await sign(demo.key, { sub: 'ann', resource: 'chat', attributes: { country: 'DE' } }),
  );
  hostHtml = `<!doctype html><html><head><script src="${service}/embed/insights.js" defer></script></head><body>
    <insights-dashboard id="ann" theme="dark" accent="#e11d48" token="${tokens[0]}"></insights-dashboard>
    <insights-dashboard id="bob" hide-title token="${tokens[1]}"></insights-dashboard>
    <insights-chat id="chat" token="${tokens[2]}"></insights-chat></body></html>`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  host?.close();
  await t?.close();
});

test('two viewers of two tenants framed on another origin: own rows, locked filter shown, height reported, token never sent', {
  skip,
}, async () => {
  const page = await browser.newPage();
  const console = watchConsole(page);
  const seen: { url: string; referer?: string }[] = [];
  page.on('request', (r) => seen.push({ url: r.url(), referer: r.headers().referer }));
  await page.goto(hostOrigin);
  const frameOf = (id: string) => page.frameLocator(`#${id} iframe`);
  for (const id of ['ann', 'bob']) await frameOf(id).locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  // Each widget is drawn by the app's own chart builder: the words of its SVG are its axes' labels
  // (countries on x, euros on y), its legend and its slices' names.
  const words = async (id: string, title: string) =>
    (await frameOf(id).getByRole('region', { name: title, exact: true }).locator('.chart svg text').allTextContents()).map((w) => w.trim());
  const annWords = await words('ann', 'By country');
  const bobWords = await words('bob', 'By country');
  const countries = (ws: string[]) => ws.filter((w) => /^[A-Z]{2}$/.test(w));
  assert.deepEqual([...new Set(countries(annWords))], ['DE'], annWords.join('|'));
  assert.ok(countries(bobWords).length > 0 && countries(bobWords).every((c) => c === 'FR'), bobWords.join('|'));
  assert.ok(
    annWords.some((w) => /€/.test(w)),
    `the value axis in the measure's unit: ${annWords.join('|')}`,
  );
  // This period and the previous one, two series: a legend names both.
  const legend = annWords.filter((w) => /^Revenue/.test(w));
  assert.equal(legend.length, 2, `a legend of two series: ${annWords.join('|')}`);
  assert.ok(
    legend.some((w) => /previous/i.test(w)),
    legend.join('|'),
  );
  // The pie widget is a pie (arcs, no axis), its slices the channels.
  const pie = frameOf('ann').getByRole('region', { name: 'By channel', exact: true }).locator('.chart');
  assert.match((await pie.getAttribute('aria-label')) ?? '', /pie chart/);
  assert.ok((await pie.locator('svg path').count()) >= 2);
  assert.match(await frameOf('ann').getByRole('region', { name: 'Revenue', exact: true }).locator('.kpi-value').innerText(), /€/);
  assert.match(await frameOf('ann').locator('.locked').innerText(), /country: DE/);
  // Each card is a region named by its title, as the app's own widgets are.
  for (const title of ['By country', 'By channel', 'Revenue'])
    assert.equal(await frameOf('ann').getByRole('region', { name: title, exact: true }).count(), 1, title);
  assert.equal(await frameOf('ann').locator('h1').count(), 1);
  assert.equal(await frameOf('bob').locator('h1').count(), 0, 'hide-title');
  assert.equal(await frameOf('ann').locator('html').getAttribute('data-theme'), 'dark');
  // The app's palettes: dark cards for theme=dark, light ones by default.
  const panel = (id: string) =>
    frameOf(id)
      .locator('[data-widget]')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(await panel('ann'), 'rgb(17, 26, 46)');
  assert.equal(await panel('bob'), 'rgb(255, 255, 255)');
  // The host sized each frame from the height the page posted.
  const height = await page.locator('#ann iframe').evaluate((f: HTMLIFrameElement) => f.style.height);
  assert.match(height, /^\d+px$/);
  assert.ok(parseInt(height, 10) > 150, height);
  // Chat as ann: her country only.
  const chat = frameOf('chat');
  await chat.locator('input').fill('revenue by country last year');
  await chat.locator('button').click();
  await chat.locator('.answer table').waitFor({ timeout: 20_000 });
  const cells = await chat.locator('.answer tbody tr td:first-child').allTextContents();
  assert.deepEqual([...new Set(cells)], ['DE']);
  // The token stayed in fragments: in no request URL and no Referer.
  for (const r of seen) {
    for (const tk of tokens) {
      assert.ok(!r.url.includes(tk.split('.')[2]), `token in ${r.url}`);
      assert.ok(!r.referer?.includes(tk.split('.')[2]), `token in the Referer of ${r.url}`);
    }
  }
  assert.ok(seen.some((r) => r.url.startsWith(`${service}/api/v1/embed/dashboards/`)));
  console.assertNone();
  await page.close();
});

test('an origin the key does not allow cannot frame the page; the page says frame-ancestors', { skip }, async () => {
  const res = await fetch(
    `${service}/embed/chat?key=${tokens.length ? JSON.parse(Buffer.from(tokens[2].split('.')[0], 'base64url').toString()).kid : ''}`,
  );
  assert.match(res.headers.get('content-security-policy') ?? '', new RegExp(`frame-ancestors ${hostOrigin}$`));
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.match((await fetch(`${service}/embed/chat`)).headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  // Served from 127.0.0.1 (another origin than the allowed localhost one), the frame stays empty.
  const page = await browser.newPage();
  await page.goto(`${service.replace('127.0.0.1', 'localhost')}/embed/insights.js`);
  await page.setContent(hostHtml);
  await page.waitForTimeout(1500);
  const drawn = await page
    .frameLocator('#ann iframe')
    .locator('[data-drawn]')
    .count()
    .catch(() => 0);
  assert.equal(drawn, 0);
  await page.close();
});

test("?key= of another key than the token's (another tenant's): the page shows nothing and posts nothing to that key's origins", {
  skip,
}, async () => {
  const header = (tk: string) => JSON.parse(Buffer.from(tk.split('.')[0], 'base64url').toString());
  const annDashboard = JSON.parse(Buffer.from(tokens[0].split('.')[1], 'base64url').toString()).resource.slice('dashboard:'.length);
  const acmeKey = header(tokens[1]).kid;
  const page = await browser.newPage();
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/')) calls.push(r.url());
  });
  // A host page of the allowed origin with nothing else on it.
  const elements = hostHtml;
  hostHtml = '<!doctype html><html><body></body></html>';
  await page.goto(hostOrigin);
  hostHtml = elements;
  await page.evaluate(
    ([src]) => {
      (window as unknown as { messages: unknown[] }).messages = [];
      window.addEventListener('message', (e) => (window as unknown as { messages: unknown[] }).messages.push(e.data));
      const f = document.createElement('iframe');
      f.id = 'other';
      f.src = src;
      document.body.append(f);
    },
    [`${service}/embed/dashboards/${annDashboard}?key=${acmeKey}#token=${tokens[0]}`],
  );
  const frame = page.frameLocator('#other');
  await frame.locator('main .error').waitFor({ timeout: 20_000 });
  assert.match(await frame.locator('main .error').innerText(), /not the key of its embed token/);
  await page.waitForTimeout(500);
  assert.equal(await frame.locator('[data-widget]').count(), 0);
  assert.deepEqual(calls, [], 'no API call with the token');
  assert.deepEqual(await page.evaluate(() => (window as unknown as { messages: unknown[] }).messages), [], 'no message to the host');
  await page.close();
});
