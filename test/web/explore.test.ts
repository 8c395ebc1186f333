// The Explore page in headless Chromium against the real `insights serve`: a question no insight
// asks (orders by the customer's country, a channel left out) picked by accessible names, its table
// the same figures POST /api/v1/query answers for the URL's query, and one figure added up apart;
// the URL asks it again on reload; a refused filter says why next to its field; saved as a query
// widget, it draws on a dashboard and follows the filter bar. Any console error fails.
// SCREENSHOTS=/dir saves the page at 1280 and 375 px, light and dark.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { WEB_APP_SKIP, snapAll, watchConsole, webApp, signInPage } from '../helpers/browser.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webx-');
const { api } = web;

type Row = Record<string, string | number | null>;

async function signedIn(width = 1280) {
  const context = await web.browser!.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, web.token);
  return { page, problems, close: () => context.close() };
}

/** The answer's table as text, row by row (header first). */
const tableOf = (scope: Locator) =>
  scope
    .locator('table')
    .first()
    .evaluate((t) => [...(t as HTMLTableElement).rows].map((r) => [...r.cells].map((c) => c.textContent!.replace(/[▲▼↕]/g, '').trim())));

const queryOfUrl = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get('q')!);

/** Every form control of the page has a name a screen reader says (the axe "label" rule, roughly). */
async function assertLabelled(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('main input, main select, main button')]
      .filter((el) => {
        const e = el as HTMLInputElement;
        const name = e.getAttribute('aria-label') || [...(e.labels ?? [])].map((l) => l.textContent).join('') || e.textContent;
        return !name?.trim();
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, []);
  const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((e) => e.id));
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
}

test('explore: a question no insight asks, filtered, its figures those of the query API; in the URL; saved as a widget', {
  skip,
  timeout: 180_000,
}, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Explored' });
  const { page, problems, close } = await signedIn();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Explore' }).click();
  await page.getByRole('heading', { level: 1, name: 'Explore' }).waitFor();

  // Orders (measure of the orders cube) by the customers' country: reachable through orders → customers.
  const measures = page.getByRole('group', { name: 'Measures' });
  await measures.getByRole('group', { name: 'Orders' }).getByRole('checkbox', { name: 'Orders', exact: true }).check();
  const groupBy = page.getByRole('group', { name: 'Group by' });
  await groupBy.getByRole('group', { name: 'Customers' }).getByRole('checkbox', { name: 'Country' }).check();
  // What the orders do not reach is not offered: products' brand, web sessions' country.
  assert.equal(await groupBy.getByRole('group', { name: 'Products' }).count(), 0);
  assert.equal(await groupBy.getByRole('group', { name: 'Web sessions' }).count(), 0);

  // A filter the service refuses first (no value): its words next to the field (the 400 is meant).
  problems.forgive(/status of 400/);
  await page.getByRole('button', { name: 'Add a filter' }).click();
  const filter = page.getByRole('group', { name: 'Filter 1' });
  await filter.getByLabel('Member').selectOption('orders.channel');
  await filter.getByLabel('Operator').selectOption('not_equals');
  await page.getByRole('button', { name: 'Run' }).click();
  await filter.getByText('Values of filter 1: not_equals takes at least one value').waitFor();
  assert.equal(await filter.getByLabel('Values', { exact: true }).getAttribute('aria-invalid'), 'true');

  // The value from the dimension's values in the tenant's data, typed and added with Enter.
  const channels = await api<string[]>('GET', '/model/dimensions/orders.channel/values');
  assert.ok(channels.includes('web'), channels.join());
  await filter.getByLabel('Values', { exact: true }).fill('web');
  await filter.getByLabel('Values', { exact: true }).press('Enter');
  await filter.getByRole('list', { name: 'Values of filter 1' }).getByText('web').waitFor();
  await page.getByRole('button', { name: 'Run' }).click();
  const answer = page.getByRole('region', { name: 'Orders by Country' });
  await answer.locator('table').waitFor();
  await answer.locator('.chart[data-drawn=true]').waitFor();

  const query = queryOfUrl(page);
  assert.deepEqual(query, {
    measures: ['orders.orders'],
    dimensions: ['customers.country'],
    filters: [{ member: 'orders.channel', operator: 'not_equals', values: ['web'] }],
  });
  const expected = (await api<{ data: { rows: Row[] } }>('POST', '/query', query)).data.rows;
  assert.ok(expected.length >= 2, 'the tiny warehouse has orders from several countries');
  const shown = await tableOf(answer);
  assert.deepEqual(shown[0], ['Country', 'Orders']);
  assert.deepEqual(
    shown.slice(1),
    expected.map((r) => [String(r['customers.country']), String(r['orders.orders'])]),
  );

  // One figure added up apart: the top country's orders over every channel but web.
  const byChannel = (
    await api<{ data: { rows: Row[] } }>('POST', '/query', {
      measures: ['orders.orders'],
      dimensions: ['customers.country', 'orders.channel'],
    })
  ).data.rows;
  const top = String(expected[0]['customers.country']);
  const apart = byChannel
    .filter((r) => r['customers.country'] === top && r['orders.channel'] !== 'web')
    .reduce((s, r) => s + Number(r['orders.orders']), 0);
  assert.equal(shown[1][0], top);
  assert.equal(Number(shown[1][1]), apart);
  await assertLabelled(page);

  // The URL asks it again: a reload shows the same question and the same rows.
  await page.reload();
  await page.getByRole('region', { name: 'Orders by Country' }).locator('table').waitFor();
  assert.deepEqual(await tableOf(page.getByRole('region', { name: 'Orders by Country' })), shown);
  assert.equal(await page.getByRole('group', { name: 'Filter 1' }).getByLabel('Operator').inputValue(), 'not_equals');

  // Narrow and dark: nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(200);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no sideways scroll at 375 px');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await snapAll(page, 'explore');

  // Saved as a live widget holding the query; it draws on the dashboard.
  await page.getByRole('button', { name: 'Add to dashboard' }).click();
  await page.getByLabel('Dashboard', { exact: true }).selectOption(dash.id);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('status').getByRole('link', { name: 'Explored' }).click();
  await page.getByRole('heading', { level: 1, name: 'Explored' }).waitFor();
  const widget = page.getByRole('region', { name: 'Orders by Country' });
  await widget.locator('.chart[data-drawn=true]').waitFor();
  const [saved] = (
    await api<{ widgets: { id: string; query: unknown; data_source: string; widget_type: string }[] }>('GET', `/dashboards/${dash.id}`)
  ).widgets;
  assert.deepEqual(saved.query, query);
  assert.equal(saved.widget_type, 'chart');

  // The bar offers the filters its measures reach (orders.country, orders.channel), and the widget says so.
  await page
    .getByRole('region', { name: 'Filters' })
    .getByRole('button', { name: /^Country/ })
    .waitFor();
  // Behind the widget's details disclosure: read, not seen.
  assert.match((await widget.getByTestId('widget-filters').textContent()) ?? '', /country, channel/);

  // It follows the filter bar: ?country=DE narrows it to the orders of DE (orders.country).
  const de = (
    await api<{ data: { rows: Row[] } }>('POST', '/query', {
      ...query,
      filters: [...query.filters, { member: 'orders.country', operator: 'equals', values: ['DE'] }],
    })
  ).data.rows;
  const reads: string[] = [];
  page.on('request', (r) => r.url().includes(`/widgets/${saved.id}/data`) && reads.push(r.url()));
  await page.goto(`${web.server!.url}/dashboards/${dash.id}?country=DE`);
  await page.waitForFunction(() => document.querySelector('section.widget')?.getAttribute('data-state') === 'ready');
  assert.ok(
    reads.some((u) => u.includes('country=DE')),
    reads.join('\n'),
  );
  const data = await api<{ data: { rows: Row[] } }>('GET', `/dashboards/${dash.id}/widgets/${saved.id}/data?country=DE&preset_id=`);
  assert.deepEqual(data.data.rows, de);
  problems.assertNone();
  await close();
});
