// Layout in headless Chromium against the real `insights serve`: resizing widgets by the handle and
// by the keyboard (kept after reload), markdown text blocks (rendered safely, kept after reload), and
// a member who sees live widgets through the read-only data operation without a refresh button.
// By accessible names; any console error fails. SCREENSHOTS=/dir saves each page at 1280 and 375 px,
// light and dark.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, snapAll, watchConsole, webApp, signInPage } from '../helpers/browser.ts';

let dashId = '';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webl-', () => seedDashboard());
const { api } = web;

async function signedIn(as = web.token, width = 1280) {
  const context = await web.browser!.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, as);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
  return { page, problems, close: () => context.close() };
}

const ready = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll('section.widget')].every((w) => w.getAttribute('data-state') === 'ready'));
const sizeOf = (page: Page, name: string) =>
  page
    .getByRole('region', { name, exact: true })
    .getAttribute('class')
    .then((c) => /size-(\w+)/.exec(c ?? '')?.[1]);

async function seedDashboard(): Promise<void> {
  const dash = await api('POST', '/dashboards/', { name: 'Layout', is_shared: true });
  dashId = dash.id;
  for (const [title, insight_code, widget_type] of [
    ['Revenue', 'revenue_kpi', 'kpi'],
    ['By channel', 'revenue_by_channel', 'chart'],
  ]) {
    await api('POST', `/dashboards/${dash.id}/widgets`, {
      title,
      insight_code,
      widget_type,
      data_source: 'live_insight',
      display_size: 'medium',
    });
  }
}

test('a widget resizes by its menu and by dragging its handle, snapping to the display sizes; kept after reload', {
  skip,
  timeout: 90_000,
}, async () => {
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dashId}`);
  await ready(page);
  const chart = page.getByRole('region', { name: 'By channel', exact: true });
  assert.equal(await sizeOf(page, 'By channel'), 'medium');

  // Keyboard: the widget's menu.
  await chart.getByRole('button', { name: 'More actions for By channel' }).click();
  const patched = page.waitForResponse((r) => r.url().includes('/widgets/') && r.request().method() === 'PATCH');
  await chart.getByRole('button', { name: 'Make By channel wider' }).click();
  assert.deepEqual(JSON.parse((await patched).request().postData() ?? '{}'), { display_size: 'large' });
  await page.getByRole('status').filter({ hasText: 'By channel now takes three quarters of the width.' }).waitFor();
  assert.equal(await sizeOf(page, 'By channel'), 'large');
  await chart.getByRole('button', { name: 'Make By channel wider' }).click();
  await page.getByRole('status').filter({ hasText: 'By channel now takes the full width.' }).waitFor();
  assert.ok(await chart.getByRole('button', { name: 'Make By channel wider' }).isDisabled(), 'full is the widest');
  assert.equal(await sizeOf(page, 'By channel'), 'full');

  // Pointer: drag the handle of the KPI (half width) leftwards by about a quarter of the grid: small.
  const kpi = page.getByRole('region', { name: 'Revenue', exact: true });
  const grid = (await page.locator('.grid').boundingBox())!;
  const handle = (await kpi.locator('.resize-handle').boundingBox())!;
  const y = handle.y + handle.height / 2;
  await page.mouse.move(handle.x + handle.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(handle.x - grid.width * 0.2, y, { steps: 5 });
  assert.equal(await sizeOf(page, 'Revenue'), 'small', 'the preview snaps while dragging');
  const dragged = page.waitForResponse((r) => r.url().includes('/widgets/') && r.request().method() === 'PATCH');
  await page.mouse.up();
  assert.deepEqual(JSON.parse((await dragged).request().postData() ?? '{}'), { display_size: 'small' });

  await page.reload();
  await ready(page);
  assert.equal(await sizeOf(page, 'Revenue'), 'small');
  assert.equal(await sizeOf(page, 'By channel'), 'full');

  // The chart's ink follows a change of the system's scheme without a reload (it stayed light-mode
  // ink, unreadable on the dark page, before).
  const inks = () => chart.locator('.chart svg text').evaluateAll((ts) => ts.map((t) => t.getAttribute('fill')));
  await chart.locator('.chart svg text').first().waitFor();
  assert.ok((await inks()).includes('#334155'), (await inks()).join());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => [...document.querySelectorAll('.chart svg text')].some((t) => t.getAttribute('fill') === '#cbd5e1'));
  await page.emulateMedia({ colorScheme: 'light' });
  problems.assertNone();
  await close();
});

test('markdown text blocks: added between widgets, rendered without raw HTML or script links, kept after reload', {
  skip,
  timeout: 90_000,
}, async () => {
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dashId}`);
  await ready(page);
  await page.getByRole('button', { name: 'Add text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add text' });
  await dialog
    .getByLabel('Markdown')
    .fill(
      '## How to read this\n\nRevenue is **net** of refunds. See [the guide](https://example.com/guide).\n\n<script>window.pwned = 1</script>\n<img src=x onerror="window.pwned=2">\n\n[click me](javascript:window.pwned=3)',
    );
  await dialog.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'How to read this' }).waitFor();
  const created = page.waitForResponse((r) => r.url().endsWith('/text-blocks') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Save text' }).click();
  assert.equal((await created).status(), 201);
  const text = page.getByRole('region', { name: 'Text: How to read this' });
  await text.getByRole('heading', { name: 'How to read this' }).waitFor();
  assert.equal(await text.locator('strong').innerText(), 'net');
  const link = text.getByRole('link', { name: 'the guide' });
  assert.equal(await link.getAttribute('href'), 'https://example.com/guide');
  assert.match((await link.getAttribute('rel')) ?? '', /noopener/);
  // Raw HTML shows as text; the javascript: link is not a link.
  assert.equal(await text.locator('script, img').count(), 0);
  assert.match(await text.innerText(), /<script>window\.pwned = 1<\/script>/);
  assert.equal(await text.getByRole('link', { name: 'click me' }).count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);

  // Placed after the last widget; moved earlier by the keyboard it sits between the two widgets.
  const order = () =>
    page
      .locator('.grid > section')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.querySelector('h2')?.textContent));
  assert.deepEqual(await order(), ['Revenue', 'By channel', 'Text: How to read this']);
  await text.getByRole('button', { name: 'Move text How to read this earlier' }).click();
  await page.getByRole('status').filter({ hasText: 'Text How to read this moved earlier.' }).waitFor();
  assert.deepEqual(await order(), ['Revenue', 'Text: How to read this', 'By channel']);
  await text.getByRole('button', { name: 'Make text How to read this narrower' }).click();
  await page.getByRole('status').filter({ hasText: 'now takes three quarters of the width' }).waitFor();

  await page.reload();
  await ready(page);
  // Text blocks come with their own request, beside the widgets'.
  await text.waitFor();
  assert.deepEqual(await order(), ['Revenue', 'Text: How to read this', 'By channel']);
  assert.match((await text.getAttribute('class')) ?? '', /size-large/);
  await snapAll(page, 'layout');

  // Edited, then removed.
  await text.getByRole('button', { name: 'Edit text How to read this' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit text' });
  await edit.getByLabel('Markdown').fill('# Notes\n\n- one\n- two');
  await edit.getByRole('button', { name: 'Save text' }).click();
  const notes = page.getByRole('region', { name: 'Text: Notes' });
  await notes.getByRole('listitem').nth(1).waitFor();
  await notes.getByRole('button', { name: 'Remove text Notes' }).click();
  await page.getByRole('dialog', { name: 'Remove text' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('status').filter({ hasText: 'Text Notes removed.' }).waitFor();
  assert.equal((await api('GET', `/dashboards/${dashId}/text-blocks`)).length, 0);
  problems.assertNone();
  await close();
});

test('a member sees live widgets and text through read-only operations, with no refresh or edit controls', {
  skip,
  timeout: 90_000,
}, async () => {
  await api('POST', `/dashboards/${dashId}/text-blocks`, { body: 'Read me', position: 0 });
  const member = (await api('POST', '/auth/tokens', { name: 'mo', user_id: 'mo', user_name: 'Mo Member', role: 'member' })).token;
  const { page, problems, close } = await signedIn(member);
  const writes: string[] = [];
  page.on('request', (r) => r.method() !== 'GET' && r.url().includes('/api/') && writes.push(`${r.method()} ${r.url()}`));
  await page.goto(`${web.server!.url}/dashboards/${dashId}`);
  await ready(page);
  await page.getByRole('region', { name: 'Revenue', exact: true }).getByTestId('kpi-value').waitFor();
  await page.getByRole('region', { name: 'By channel', exact: true }).locator('.chart svg').waitFor();
  await page.getByRole('region', { name: 'Text: Read me' }).waitFor();
  assert.deepEqual(writes, [], 'viewing writes nothing');
  assert.equal(await page.getByRole('button', { name: /^Refresh / }).count(), 0);
  assert.equal(await page.getByRole('button', { name: /^(Make|Edit|Remove|Move) / }).count(), 0);
  assert.equal(await page.locator('.resize-handle').count(), 0);
  // The app asks GET /auth/tokens to learn the role: a member's web.token may not (docs/web.md).
  problems.forgive(/status of 403 \(Forbidden\)/);
  const widgets = await api('GET', `/dashboards/${dashId}/widgets`);
  assert.ok(
    widgets.every((w: { last_refreshed_at: string | null }) => w.last_refreshed_at === null),
    'no refresh recorded',
  );
  problems.assertNone();
  await close();
});
