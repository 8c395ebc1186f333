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
import { CHROMIUM, launchChromium, watchConsole } from '../helpers/browser.ts';
import { rowAccessModel } from '../helpers/row-access.ts';

const skip = fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent`;

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
  for (const [title, insight, type] of [
    ['By country', 'revenue_by_country', 'chart'],
    ['Revenue', 'revenue_kpi', 'kpi'],
  ]) {
    const w = await call(t, owner, 'POST', `/api/v1/dashboards/${d.data.id}/widgets`, {
      title,
      widget_type: type,
      data_source: 'live_insight',
      insight_code: insight,
    });
    assert.equal(w.statusCode, 201, w.body);
  }
  return { key: { id: key.data.id as string, secret: key.data.secret as string }, dashboard: d.data.id as string };
}

const sign = (key: { id: string; secret: string }, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.id }).setExpirationTime('10m').sign(new TextEncoder().encode(key.secret));

before(async () => {
  if (skip) return;
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
  const bars = async (id: string) => frameOf(id).locator('[data-widget] rect title').allTextContents();
  const annBars = await bars('ann');
  const bobBars = await bars('bob');
  assert.ok(annBars.length > 0 && annBars.every((b) => b.startsWith('DE:')), annBars.join());
  assert.ok(bobBars.length > 0 && bobBars.every((b) => b.startsWith('FR:')), bobBars.join());
  assert.match(await frameOf('ann').locator('.locked').innerText(), /country: DE/);
  assert.equal(await frameOf('ann').locator('h1').count(), 1);
  assert.equal(await frameOf('bob').locator('h1').count(), 0, 'hide-title');
  assert.equal(await frameOf('ann').locator('html').getAttribute('data-theme'), 'dark');
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
