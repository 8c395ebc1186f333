// The web app end to end: headless Chromium (Debian's package, driven by playwright-core) against
// the real `insights serve` on a fresh data dir. One browser session walks what a user does:
// sign in, create a dashboard, ask a question and add the answer, add a live widget and refresh
// it, create a webhook channel and a subscription, send it and read the log. No console errors.
// SCREENSHOTS=/some/dir saves a picture of each page at desktop and phone width.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ROOT, migratedDataDir, seedTinyWarehouse, startServer, type RunningServer } from '../helpers/process.ts';
import { WEB_APP_SKIP, ensureWebBuilt, firstOwnerToken, launchChromium, watchConsole, signInPage } from '../helpers/browser.ts';
import { FakeProviders } from '../fakes/llm-providers.ts';

const DIST = path.join(ROOT, 'web/dist');
const shots = process.env.SCREENSHOTS;

let server: RunningServer | undefined;
let browser: Browser | undefined;
let token = '';
let providers: FakeProviders | undefined;

// Its server is a child on the embedded database: the PostgreSQL pass would run it unchanged.
const skip = WEB_APP_SKIP;
if (skip) console.log(`# web tests skipped: ${skip}`);

before(async () => {
  if (skip) return;
  ensureWebBuilt();
  const dir = await migratedDataDir('insights-web-');
  await seedTinyWarehouse(dir);
  // The AI providers are a fake on loopback; the child inherits the URLs (and the egress allowance).
  providers = await new FakeProviders().start();
  Object.assign(process.env, providers.env());
  server = await startServer(dir);
  token = await firstOwnerToken(server);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await providers?.close();
});

async function snap(page: Page, name: string): Promise<void> {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

test('the first page loads less than 300 KB of gzipped JavaScript', { skip }, () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const scripts = [
    ...html.matchAll(/<script[^>]+src="\/([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+)"/g),
  ].map((m) => m[1]);
  assert.ok(scripts.length > 0, 'index.html names its scripts');
  const gzipped = scripts.reduce((sum, s) => sum + zlib.gzipSync(fs.readFileSync(path.join(DIST, s)), { level: 9 }).length, 0);
  assert.ok(gzipped < 300 * 1024, `first page JS is ${Math.round(gzipped / 1024)} KB gzipped`);
});

test('the service serves the app at / and its routes, and keeps the API and docs', { skip }, async () => {
  const home = await fetch(server!.url + '/');
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await home.text(), /<div id="app">/);
  assert.equal((await fetch(server!.url + '/dashboards/some-id')).status, 200, 'a client route reloads into the app');
  const unknown = await fetch(server!.url + '/no-such-page');
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get('content-type') ?? '', /problem\+json/);
  assert.equal((await fetch(server!.url + '/api/v1/dashboards/')).status, 401, 'the API still wants a token');
  assert.equal((await fetch(server!.url + '/docs')).status, 200);
});

test('a user signs in, builds a dashboard from chat and the catalog, and sets up a delivery', { skip, timeout: 90_000 }, async () => {
  const context = await browser!.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  const base = server!.url;

  // Sign in.
  await page.goto(base + '/');
  await page.getByLabel('Access token').fill('not-a-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  assert.match(await page.getByRole('alert').innerText(), /unknown or revoked/, 'the problem is shown in words');
  problems.forgive(/status of 401 \(Unauthorized\)/);
  await snap(page, 'signin-desktop');
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signing in lands on the starter dashboard when there is one, else the list: the list from here.
  await page.getByRole('heading', { level: 1, name: /^(Dashboards|Start here)$/ }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
  assert.match(await page.getByTestId('who').innerText(), /Demo Owner · owner · demo/i);
  for (const name of ['Dashboards', 'Chat', 'Insights', 'Notifications', 'Settings']) {
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).count(), 1, name);
  }
  assert.equal(await page.evaluate(() => document.cookie), '', 'no cookie');
  assert.ok(!page.url().includes(token), 'the token is never in the URL');

  // Create a dashboard: it opens with its name as the heading.
  await page.getByRole('button', { name: 'New dashboard' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Sales');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Sales' }).waitFor();
  const dashboardUrl = page.url();
  assert.match(dashboardUrl, /\/dashboards\/[\w-]+$/);

  // Ask a question; add the answer to the dashboard as a snapshot.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Ask a question' }).fill('revenue by country');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.locator('.answer .reply').waitFor();
  await page.locator('.answer .chart svg').first().waitFor();
  assert.ok((await page.locator('.answer table tbody tr').count()) > 0, 'the rows are shown');
  await snap(page, 'chat-desktop');
  await page.getByRole('button', { name: 'Add to dashboard' }).click();
  await page.getByLabel('Title').waitFor();
  assert.equal(await page.getByLabel('Title').inputValue(), 'revenue by country', 'the title defaults to the question');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Added “revenue by country” to' }).waitFor();

  // The dashboard draws it: a region named by the title, with an SVG chart, and the question.
  await page.goto(dashboardUrl);
  const snapshot = page.getByRole('region', { name: 'revenue by country' });
  await snapshot.locator('.chart svg').waitFor();
  assert.match(await snapshot.innerText(), /Snapshot of “revenue by country”/);

  // Add a live widget of the catalog and refresh it.
  await page.getByRole('button', { name: 'Add widget' }).click();
  await page.getByLabel('Insight', { exact: true }).selectOption('revenue_kpi');
  assert.equal(await page.getByLabel('Title').inputValue(), 'Revenue KPI');
  await page.getByRole('button', { name: 'Add widget' }).last().click();
  const kpi = page.getByRole('region', { name: 'Revenue KPI' });
  await kpi.locator('[data-testid=kpi-value]').waitFor();
  assert.match(await kpi.innerText(), /Previous:/);
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/refresh') && r.request().method() === 'POST');
  await kpi.getByRole('button', { name: 'More actions for Revenue KPI' }).click();
  await kpi.getByRole('button', { name: 'Refresh Revenue KPI' }).click();
  assert.equal((await refreshed).status(), 200);
  await page.locator('section.widget[data-state=ready]').nth(1).waitFor();

  // Reorder by keyboard: the KPI moves first, and the order is kept by the service.
  const reordered = page.waitForResponse((r) => /\/dashboards\/[\w-]+$/.test(r.url()) && r.request().method() === 'PATCH');
  await kpi.getByRole('button', { name: 'More actions for Revenue KPI' }).click();
  await kpi.getByRole('button', { name: 'Move Revenue KPI earlier' }).focus();
  await page.keyboard.press('Enter');
  assert.equal((await reordered).status(), 200);
  await page.reload();
  await page.locator('section.widget[data-state=ready]').nth(1).waitFor();
  assert.deepEqual(await page.locator('section.widget h2').allInnerTexts(), ['Revenue KPI', 'revenue by country']);
  // And back by dragging the snapshot's handle onto the KPI.
  const dragged = page.waitForResponse((r) => /\/dashboards\/[\w-]+$/.test(r.url()) && r.request().method() === 'PATCH');
  await snapshot.locator('.handle').dragTo(kpi);
  assert.equal((await dragged).status(), 200);
  await page.getByRole('status').filter({ hasText: 'revenue by country moved to position 1 of 2.' }).waitFor();
  assert.deepEqual(await page.locator('section.widget h2').allInnerTexts(), ['revenue by country', 'Revenue KPI']);
  await snap(page, 'dashboard-desktop');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('section.widget svg').first().waitFor();
  // Charts resize on a ResizeObserver after the viewport changes: on a busy machine that takes a
  // few frames, so the width is read once the layout has settled (or after 10 s, and then it fails).
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, null, { timeout: 10_000 })
    .catch(() => {});
  await snap(page, 'dashboard-375');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling at 375 px (overflow ${overflow} px)`);
  await page.setViewportSize({ width: 1360, height: 900 });

  // A sortable table: the insight page's rows sort by a column header.
  await page.goto(base + '/insights/revenue_by_country');
  await page.locator('.result table tbody tr').first().waitFor();
  await page
    .getByRole('columnheader', { name: /Revenue/ })
    .getByRole('button')
    .click();
  assert.equal(await page.getByRole('columnheader', { name: /Revenue/ }).getAttribute('aria-sort'), 'ascending');
  const values = await page.evaluate(() => {
    const headers = [...document.querySelectorAll('.result table thead th')].map((th) => th.textContent ?? '');
    const col = headers.findIndex((h) => h.startsWith('Revenue')) + 1;
    return [...document.querySelectorAll(`.result table tbody tr td:nth-child(${col})`)].map((td) =>
      Number((td.textContent ?? '').replace(/,/g, '')),
    );
  });
  assert.ok(values.length > 1);
  assert.deepEqual(
    values,
    [...values].sort((a, b) => a - b),
  );
  await snap(page, 'insights-desktop');

  // A webhook channel and an insight subscription; "Send now" lands in the delivery log.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
  await page.getByLabel('Channel type').selectOption('webhook');
  await page.getByLabel('Webhook URL (https)').fill('https://hooks.example.invalid/insights');
  await page.getByRole('button', { name: 'Add channel' }).click();
  await page.getByRole('list', { name: 'Channels' }).getByText('Webhook: https://hooks.example.invalid/insights').waitFor();
  await page.getByLabel('Insight', { exact: true }).selectOption('revenue');
  await page.getByLabel('Schedule', { exact: true }).first().selectOption('weekly');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const sub = page.getByRole('list', { name: 'Insight subscriptions' }).getByRole('listitem').first();
  await sub.waitFor();
  assert.match(await sub.innerText(), /Weekly on Monday at 08:00 UTC · next run: \w/);
  await sub.getByRole('button', { name: 'Send now: Revenue' }).click();
  await sub.getByText('Queued for delivery now').waitFor();
  // The delivery to an unreachable host fails and is logged with its reason.
  const log = page.getByRole('region', { name: 'Delivery log' });
  for (let i = 0; i < 60 && (await log.locator('tbody tr').count()) === 0; i++) {
    await page.waitForTimeout(500);
    await log.getByRole('button', { name: 'Reload' }).click();
  }
  assert.ok((await log.locator('tbody tr').count()) > 0, 'the delivery is in the log');
  assert.match(await log.locator('tbody tr').first().innerText(), /Revenue\s+webhook\s+failed/);
  await snap(page, 'notifications-desktop');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'notifications-375');
  await page.setViewportSize({ width: 1360, height: 900 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByRole('cell', { name: 'first start' }).first().waitFor();

  // An AI connector can be saved only after a successful test; its key comes back masked.
  await page.getByLabel('Provider').selectOption('vendor_a');
  await page.getByLabel('API key').fill('sk-test-0123456789abcdef');
  await page.getByLabel('Model').fill('gpt-4o-mini');
  const save = page.getByRole('button', { name: 'Save and make active' });
  assert.equal(await save.isDisabled(), true, 'not before a test');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByRole('status').filter({ hasText: 'Connection works' }).waitFor();
  await save.click();
  const connectors = page.getByRole('list', { name: 'AI connectors' });
  await connectors.getByText('sk-t****cdef').waitFor();
  assert.match(await connectors.innerText(), /OpenAI \(chat completions\)\s*active/);
  await snap(page, 'settings-desktop');

  problems.assertNone();
  await context.close();
});

test('a member is offered only what a member may do', { skip, timeout: 60_000 }, async () => {
  const res = await fetch(server!.url + '/api/v1/auth/tokens', {
    method: 'POST',
    headers: { Authorization: `Svc ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'bo', user_id: 'bo', user_name: 'Bo Member', role: 'member' }),
  });
  assert.equal(res.status, 201);
  const member = ((await res.json()) as { token: string }).token;
  const context = await browser!.newContext({ viewport: { width: 1024, height: 800 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInPage(page, server!.url, member);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
  assert.match(await page.getByTestId('who').innerText(), /member/i);
  assert.equal(await page.getByRole('button', { name: 'New dashboard' }).count(), 0);
  // The owner's dashboard is not shared: members do not see it.
  assert.equal(await page.getByRole('link', { name: 'Sales' }).count(), 0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'AI connectors' }).waitFor();
  await page.getByRole('list', { name: 'AI connectors' }).getByText('OpenAI (chat completions)').waitFor();
  assert.equal(await page.getByRole('heading', { name: 'API tokens' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: /Delete|Make active|Save/ }).count(), 0);
  problems.forgive(/status of 403 \(Forbidden\)/);
  problems.assertNone();
  await context.close();
});
