// What a first-time user notices (issue 40), in headless Chromium against the real `insights serve`:
// a chat answer saved as a snapshot keeps its columns, keyboard order follows the screen, contrast in
// light and dark, forms that speak words, charts with units, embedding keys, the first run's guide.
// SCREENSHOTS=/some/dir saves pictures of each page at 1280 and 375 px, light and dark.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, snapAll, watchConsole, webApp, signInPage } from '../helpers/browser.ts';
import { lowContrast } from '../helpers/contrast.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webf-');
const { api } = web;

async function signedIn(width = 1280): Promise<{ page: Page; problems: ReturnType<typeof watchConsole>; close: () => Promise<void> }> {
  const context = await web.browser!.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  // tsx names the functions of the test's page.evaluate() bodies with a helper the page lacks.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, web.token);
  return { page, problems, close: () => context.close() };
}

const clean = (s: string) => s.replace(/[↕▲▼]/g, '').trim();
const ready = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll('section.widget')].every((w) => w.getAttribute('data-state') === 'ready'));

/**
 * Waits until the page shows `n` widgets that have settled (answered or failed, within the page's
 * PAGE_TIMEOUT_MS), then asserts that each answered, naming a failed one's words instead of timing out.
 */
async function settled(page: Page, n: number): Promise<void> {
  await page.waitForFunction((n) => {
    const widgets = [...document.querySelectorAll('section.widget')];
    return widgets.length === n && widgets.every((w) => w.getAttribute('data-state') !== 'loading');
  }, n);
  assert.deepEqual(await page.locator('section.widget[data-state="error"]').allInnerTexts(), [], 'every widget answers');
}

test('a chat answer saved as a snapshot keeps its columns: order, titles, currency and decimals', { skip, timeout: 90_000 }, async () => {
  const { page, problems, close } = await signedIn();
  const dash = await api('POST', '/dashboards/', { name: 'Snapshots' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  const question = 'top 5 products this year';
  await page.getByRole('textbox', { name: 'Ask a question' }).fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: `Answer to “${question}”` });
  await answer.locator('table tbody tr').first().waitFor();
  const chatHeaders = (await answer.locator('table thead th').allInnerTexts()).map(clean);
  const chatRows = await answer.locator('table tbody tr').first().locator('td').allInnerTexts();
  assert.ok(chatHeaders.length >= 3, chatHeaders.join(' | '));
  assert.ok(
    chatRows.some((c) => c.includes('€')),
    chatRows.join(' | '),
  );

  await answer.getByRole('button', { name: 'Add to dashboard' }).click();
  await answer.getByLabel('Dashboard').selectOption({ label: 'Snapshots' });
  await answer.getByRole('radio', { name: /Snapshot/ }).check();
  await answer.getByRole('button', { name: 'Add', exact: true }).click();
  await answer.getByRole('status').getByRole('link', { name: 'Snapshots' }).click();
  await page.getByRole('heading', { level: 1, name: 'Snapshots' }).waitFor();
  await ready(page);
  const widget = page.getByRole('region', { name: question.slice(0, 200) });
  await widget.locator('table tbody tr').first().waitFor();
  // The same columns in the same order with the same titles, and the same figures (€ and all).
  assert.deepEqual((await widget.locator('table thead th').allInnerTexts()).map(clean), chatHeaders);
  assert.deepEqual(await widget.locator('table tbody tr').first().locator('td').allInnerTexts(), chatRows);
  // The API answers the snapshot's data with the columns it was saved with.
  const [w] = await api<{ id: string }[]>('GET', `/dashboards/${dash.id}/widgets`);
  const data = await api('GET', `/dashboards/${dash.id}/widgets/${w.id}/data`);
  assert.deepEqual(
    data.data.columns.map((c: { label: string }) => c.label),
    chatHeaders,
  );
  assert.ok(data.data.columns.some((c: { currency?: string }) => c.currency === 'EUR'));
  await snapAll(page, 'snapshot');
  problems.assertNone();
  await close();
});

/** The widget regions in the order Tab reaches them, from the page's top; and the tab stops inside each. */
async function tabWalk(page: Page): Promise<{ order: string[]; stops: Map<string, number> }> {
  await page.locator('h1').first().focus();
  const order: string[] = [];
  const stops = new Map<string, number>();
  for (let n = 0; n < 200; n++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const w = document.activeElement?.closest('section.widget');
      return w ? (w.querySelector('h2')?.textContent ?? '') : document.activeElement === document.body ? null : '';
    });
    if (at === null || (!at && stops.size === 3)) break;
    if (!at) continue;
    if (order.at(-1) !== at) order.push(at);
    stops.set(at, (stops.get(at) ?? 0) + 1);
  }
  return { order, stops };
}

/** The widget titles as they are seen: by the top, then the left of their boxes. */
const seenOrder = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('section.widget')]
      .map((w) => ({ t: w.querySelector('h2')?.textContent ?? '', r: w.getBoundingClientRect() }))
      .sort((a, b) => Math.round(a.r.top) - Math.round(b.r.top) || a.r.left - b.r.left)
      .map((x) => x.t),
  );

test('keyboard order is the order seen, "Move later" follows it, and a widget costs few tab stops', { skip, timeout: 90_000 }, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Packed' });
  const live = { data_source: 'live_insight' };
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'A',
    widget_type: 'kpi',
    insight_code: 'revenue_kpi',
    display_size: 'small',
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'B',
    widget_type: 'chart',
    insight_code: 'revenue',
    display_size: 'full',
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'C',
    widget_type: 'kpi',
    insight_code: 'revenue_kpi',
    display_size: 'small',
  });
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dash.id}`);
  await settled(page, 3);
  // C fills the hole beside A: it is seen second, and reached second.
  assert.deepEqual(await seenOrder(page), ['A', 'C', 'B']);
  const { order, stops } = await tabWalk(page);
  assert.deepEqual(order, ['A', 'C', 'B']);
  for (const [title, n] of stops) assert.ok(n <= 3, `${title}: ${n} tab stops`);

  // "Move later" on A puts it after C, as seen; the order is kept.
  const a = page.getByRole('region', { name: 'A', exact: true });
  await a.getByRole('button', { name: 'More actions for A' }).click();
  const saved = page.waitForResponse((r) => /\/dashboards\/[\w-]+$/.test(r.url()) && r.request().method() === 'PATCH');
  await a.getByRole('button', { name: 'Move A later' }).click();
  await saved;
  assert.deepEqual(await seenOrder(page), ['C', 'A', 'B']);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'More actions for A');
  await page.reload();
  await settled(page, 3);
  assert.deepEqual(await seenOrder(page), ['C', 'A', 'B']);
  await snapAll(page, 'dashboard-packed');
  problems.assertNone();
  await close();
});

test('contrast: every page, light and dark, no text under WCAG 2.1 AA (donut labels too)', { skip, timeout: 180_000 }, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Contrast' });
  const live = { data_source: 'live_insight', display_size: 'medium' };
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Donut',
    widget_type: 'chart',
    insight_code: 'revenue_by_channel',
    chart_hint_override: { chart_type: 'pie' },
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Monthly',
    widget_type: 'chart',
    insight_code: 'revenue',
    granularity: 'month',
  });
  const { page, problems, close } = await signedIn();
  const failures: string[] = [];
  for (const path of ['/dashboards', `/dashboards/${dash.id}`, '/chat', '/insights', '/notifications', '/settings']) {
    await page.goto(web.server!.url + path);
    await page.locator('h1').first().waitFor();
    if (path.includes(dash.id)) {
      await settled(page, 2);
      await page.waitForFunction(() => document.querySelectorAll('section.widget .chart[data-drawn]').length === 2);
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      for (const f of await lowContrast(page)) failures.push(`${path} ${scheme}: ${f}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  assert.deepEqual(failures, []);
  problems.assertNone();
  await close();
});

test('embedding keys on the settings page: create, copy the snippet, rotate, revoke', { skip, timeout: 90_000 }, async () => {
  const { page, problems, close } = await signedIn();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.server!.url });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Embedding keys' });
  await panel.getByLabel('Key name').fill('Shop');
  await panel.getByLabel('Allowed origins').fill('https://shop.example.com, https://admin.example.com');
  await panel.getByRole('button', { name: 'Create key' }).click();
  const first = await panel.getByTestId('embed-secret').innerText();
  assert.ok(first.length >= 32, 'the secret is shown once');
  const [key] = await api<{ id: string; allowed_origins: string[] }[]>('GET', '/embed/keys');
  assert.deepEqual(key.allowed_origins, ['https://shop.example.com', 'https://admin.example.com']);
  const list = panel.getByRole('list', { name: 'Embedding keys' });
  const snippet = await list.getByLabel('Embed snippet').inputValue();
  assert.match(snippet, new RegExp(`/embed/dashboards/DASHBOARD_ID\\?key=${key.id}#token=EMBED_TOKEN`));
  await list.getByRole('button', { name: 'Copy snippet for Shop' }).click();
  await list.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);

  await list.getByRole('button', { name: 'Rotate Shop' }).click();
  await page.waitForFunction((old) => document.querySelector('[data-testid=embed-secret]')?.textContent !== old, first);
  await list.getByText(/rotated/).waitFor();
  await snapAll(page, 'settings');

  await list.getByRole('button', { name: 'Revoke Shop' }).click();
  await page.getByRole('dialog', { name: 'Revoke embedding key' }).getByRole('button', { name: 'Revoke' }).click();
  await list.waitFor({ state: 'detached' });
  assert.deepEqual(await api('GET', '/embed/keys'), []);
  problems.assertNone();
  await close();
});

test('first run: signing in lands on "Start here", the guide is one click away, full screen hides editing', {
  skip,
  timeout: 90_000,
}, async () => {
  const context = await web.browser!.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(web.server!.url + '/');
  await page.getByLabel('Access token').fill(web.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Start here' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('section.widget[data-state=ready]').length >= 3);

  // Full screen is for looking: no add, edit, drag or move controls.
  assert.ok((await page.getByRole('button', { name: 'Add widget' }).count()) === 1);
  await page.getByRole('button', { name: 'Full screen' }).click();
  await page.getByRole('button', { name: 'Exit full screen' }).waitFor();
  assert.equal(await page.getByRole('button', { name: /^(Add widget|Add text|Edit dashboard|Delete dashboard)$/ }).count(), 0);
  await page
    .locator('section.widget')
    .first()
    .getByRole('button', { name: /^More actions/ })
    .click();
  assert.equal(await page.getByRole('button', { name: /^(Move|Edit|Remove) / }).count(), 0);
  assert.equal(await page.locator('.handle, .resize-handle').count(), 0);
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await page.getByRole('button', { name: 'Add widget' }).waitFor();

  // The guide, with dashboards there: one click away on the list.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByText('Getting started').click();
  await page.getByRole('button', { name: 'Open the starter dashboard' }).click();
  await page.getByRole('heading', { level: 1, name: 'Start here' }).waitFor();
  await page.goto(web.server!.url + '/dashboards');
  await page.getByText('Getting started').click();
  await snapAll(page, 'dashboards-guide');
  problems.assertNone();
  await context.close();
});

test('the insights page: values picked from the data; a refused run says why in words and its old result goes', {
  skip,
  timeout: 90_000,
}, async () => {
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/insights/revenue`);
  const params = page.getByRole('form', { name: /^Parameters of/ });
  await params.waitFor();
  await page.locator('.chart svg, table').first().waitFor();
  const values = (await api<{ name: string; values: string[] }[]>('GET', '/insights/filters')).find((f) => f.name === 'country')!.values;
  assert.deepEqual(await params.getByLabel('Country', { exact: true }).locator('option').allInnerTexts(), ['Any', ...values]);
  await params.getByLabel('From').fill('2026-10-31');
  await params.getByLabel('To').fill('2026-10-01');
  await params.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.doesNotMatch(await alert.innerText(), /\^|\$\/|\[A-Z\]/, 'no pattern is shown');
  assert.equal(await page.locator('.chart svg, table').count(), 0, 'the last result is gone');
  problems.forgive(/status of 400/);
  await snapAll(page, 'insights-error');
  problems.assertNone();
  await close();
});

test('charts: value axes with their unit, shares in the answer’s locale, a PNG with title and period', {
  skip,
  timeout: 120_000,
}, async () => {
  const { page, problems, close } = await signedIn();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  const ask = async (question: string) => {
    await page.getByRole('textbox', { name: 'Ask a question' }).fill(question);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = page.getByRole('region', { name: `Answer to “${question}”` });
    await answer.locator('.chart svg').first().waitFor();
    return answer;
  };
  const monthly = await ask('revenue per month this year');
  const axis = await monthly.locator('.chart svg text').allTextContents();
  assert.ok(
    axis.some((t) => /^€\d/.test(t)),
    axis.join(' | '),
  );
  const german = await ask('Umsatz nach Kanal dieses Jahr');
  await german.locator('.chart svg text').first().waitFor();
  const labels = (await german.locator('.chart svg text').allTextContents()).filter((t) => t.includes('%'));
  assert.ok(labels.length > 0, 'shares on the slices');
  for (const l of labels) assert.match(l.replace(/\u00a0|\u202f/g, ' '), /^\d+,\d\d %$/, l);

  // A widget's PNG: the picture is taller than the chart by its heading, and the heading is drawn.
  const dash = await api('POST', '/dashboards/', { name: 'Pictures' });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    title: 'Monthly revenue',
    widget_type: 'chart',
    data_source: 'live_insight',
    insight_code: 'revenue',
    granularity: 'month',
  });
  await page.goto(`${web.server!.url}/dashboards/${dash.id}`);
  const widget = page.getByRole('region', { name: 'Monthly revenue' });
  await widget.locator('.chart[data-drawn] svg').waitFor();
  const chartHeight = (await widget.locator('.chart svg').boundingBox())!.height;
  await widget.getByRole('button', { name: 'More actions for Monthly revenue' }).click();
  const download = page.waitForEvent('download');
  await widget.getByRole('button', { name: 'Download PNG' }).click();
  const png = fs.readFileSync((await (await download).path())!);
  const height = png.readUInt32BE(20) / 2;
  assert.ok(height >= chartHeight + 40, `${height} px for a ${chartHeight} px chart`);
  const inked = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, 80];
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, 80).data;
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 300) dark++;
    return dark;
  }, png.toString('base64'));
  assert.ok(inked > 200, `the heading is drawn (${inked} dark pixels)`);
  problems.assertNone();
  await close();
});
