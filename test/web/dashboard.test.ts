// The dashboard page in headless Chromium against the real `insights serve`: the filter bar (date
// range, comparison, pickers with the tenant's values, the state in the URL, saved views), widgets
// that say which filters apply, and charts that answer back. By accessible names, no console errors.
// SCREENSHOTS=/some/dir saves pictures of the page at 1280 and 375 px, light and dark.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, snapAll, watchConsole, webApp, signInPage } from '../helpers/browser.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webd-');
const { api } = web;

async function signedIn(width = 1280): Promise<{ page: Page; problems: ReturnType<typeof watchConsole>; close: () => Promise<void> }> {
  const context = await web.browser!.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, web.token);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
  return { page, problems, close: () => context.close() };
}

const ready = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll('section.widget')].every((w) => w.getAttribute('data-state') === 'ready'));

let dashId = '';

test('first run: a short guide and a starter dashboard made from the catalog', { skip, timeout: 90_000 }, async () => {
  const { page, problems, close } = await signedIn();
  // The demo seed made the demo tenant's starter; once it is gone, the guide offers to make one.
  await page.getByRole('list', { name: 'Dashboards' }).getByRole('link', { name: 'Start here' }).waitFor();
  for (const d of await api<{ id: string }[]>('GET', '/dashboards/')) await api('DELETE', `/dashboards/${d.id}`);
  await page.reload();
  await page.getByRole('heading', { name: 'Getting started' }).waitFor();
  await page.getByRole('button', { name: 'Create a starter dashboard' }).click();
  await page.getByRole('heading', { level: 1, name: 'Start here' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('section.widget[data-state=ready]').length === 8);
  await page.getByRole('region', { name: 'Filters' }).waitFor();
  await snapAll(page, 'starter');
  problems.assertNone();
  await close();
});

test('the filter bar narrows every live widget; its state is in the URL, the back button and saved views', {
  skip,
  timeout: 120_000,
}, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Explore' });
  dashId = dash.id;
  const live = { data_source: 'live_insight', display_size: 'medium' };
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Revenue',
    widget_type: 'chart',
    insight_code: 'revenue',
    granularity: 'month',
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'By channel',
    widget_type: 'chart',
    insight_code: 'revenue_by_channel',
  });
  const optedOut = await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'All countries',
    widget_type: 'kpi',
    insight_code: 'revenue_kpi',
    ignored_filters: ['country'],
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    title: 'Old answer',
    widget_type: 'table',
    data_source: 'snapshot',
    snapshot_data: [{ country: 'DE', revenue: 10 }],
    snapshot_question: 'revenue by country',
  });
  assert.ok(optedOut.id);

  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dash.id}`);
  await ready(page);
  const bar = page.getByRole('region', { name: 'Filters' });
  await bar.waitFor();
  assert.match(await page.getByRole('region', { name: 'Old answer' }).innerText(), /A snapshot: the dashboard filters do not apply/);
  assert.match(await page.getByRole('region', { name: 'All countries' }).innerText(), /ignores country/i);

  // A relative date range: in the URL, sent to every live widget, shown as a removable chip.
  const refreshes: string[] = [];
  // Widgets draw through the read-only data operation, the bar's state in its query.
  page.on('request', (r) => /\/widgets\/[\w-]+\/data\?/.test(r.url()) && refreshes.push(decodeURIComponent(r.url())));
  await bar.getByLabel('Date range').selectOption('last_month');
  await page.waitForURL(/range=last_month/);
  await ready(page);
  await page.waitForFunction(() => document.querySelectorAll('section.widget[data-state=ready]').length === 4);
  assert.ok(refreshes.filter((b) => b.includes('range=last_month')).length >= 3, refreshes.join('\n'));
  await bar.getByRole('list', { name: 'Active filters' }).getByText('Date: Last month').waitFor();

  // A picker with the tenant's values: type to search, pick two.
  await bar.getByRole('button', { name: /^Country/ }).click();
  const values = (await api<{ name: string; values: string[] }[]>('GET', '/insights/filters')).find((f) => f.name === 'country')!.values;
  assert.ok(values.length >= 2, 'the tiny warehouse has countries');
  await bar.getByRole('searchbox', { name: 'Search Country' }).fill(values[0].slice(0, 1));
  await bar.getByRole('checkbox', { name: values[0] }).check();
  await page.waitForURL(new RegExp(`country=${values[0]}`));
  await bar.getByRole('searchbox', { name: 'Search Country' }).fill('');
  await bar.getByRole('checkbox', { name: values[1] }).check();
  await page.waitForURL(new RegExp(`country=${values[0]}&country=${values[1]}`));
  await bar.getByRole('button', { name: 'Done' }).click();
  await bar.getByRole('list', { name: 'Active filters' }).getByText(`Country: ${values[1]}`).waitFor();
  await ready(page);
  const last = refreshes.slice(-4);
  assert.ok(
    last.some((b) => b.includes(`country=${values[0]}&country=${values[1]}`)),
    last.join('\n'),
  );
  assert.match(
    (await page.getByRole('region', { name: 'Revenue', exact: true }).getByTestId('widget-filters').textContent()) ?? '',
    /date range, comparison, country/,
  );

  // Back steps to the previous state; the bar follows.
  await page.goBack();
  await page.waitForURL((u) => !u.search.includes(`country=${values[1]}`));
  await bar.getByRole('list', { name: 'Active filters' }).getByText(`Country: ${values[0]}`).waitFor();
  assert.equal(await bar.getByText(`Country: ${values[1]}`).count(), 0);

  // A chip removes its filter.
  await bar.getByRole('button', { name: `Remove filter Country: ${values[0]}` }).click();
  await page.waitForURL((u) => !u.search.includes('country='));

  // Save the view; it comes back as a chip that applies it, also after a reload.
  await bar.getByRole('button', { name: 'Save this view' }).click();
  await bar.getByLabel('View name').fill('Last month');
  await bar.getByRole('button', { name: 'Save', exact: true }).click();
  const view = bar.getByRole('button', { name: 'Last month', exact: true });
  await view.waitFor();
  assert.equal(await view.getAttribute('aria-pressed'), 'true');
  await bar.getByRole('button', { name: 'Clear all' }).click();
  await page.waitForURL(/filters=none/);
  assert.equal(await view.getAttribute('aria-pressed'), 'false');
  await view.click();
  await page.waitForURL(/range=last_month/);
  await page.reload();
  await bar.getByRole('list', { name: 'Active filters' }).getByText('Date: Last month').waitFor();
  await ready(page);

  // A widget opts out of a dashboard filter in its editor, and keeps its own period there.
  await page.getByRole('button', { name: 'More actions for Revenue' }).click();
  await page.getByRole('button', { name: 'Edit Revenue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Revenue' });
  await dialog.getByRole('group', { name: 'Dashboard filters this widget follows' }).getByRole('checkbox', { name: 'Country' }).uncheck();
  await dialog.getByLabel('Period').selectOption('year_to_date');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('region', { name: 'Revenue', exact: true })
    .getByText(/ignores country/)
    .waitFor();
  const saved = (await api('GET', `/dashboards/${dashId}`)).widgets.find((w: { title: string }) => w.title === 'Revenue');
  assert.deepEqual(saved.ignored_filters, ['country']);
  assert.deepEqual(saved.widget_filters, { range: 'year_to_date' });
  await snapAll(page, 'dashboard-filters');
  // Full screen, and back.
  await page.getByRole('button', { name: 'Full screen' }).click();
  await page.getByRole('button', { name: 'Exit full screen' }).waitFor();
  assert.equal(await page.evaluate(() => document.fullscreenElement?.className), 'dashboard');
  await page.getByRole('button', { name: 'Exit full screen' }).click();
  await page.getByRole('button', { name: 'Full screen' }).waitFor();
  problems.assertNone();
  await close();
});

test('charts and tables answer back: a click filters the dashboard; view data, CSV, PNG and the PDF download', {
  skip,
  timeout: 120_000,
}, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Answer back' });
  const live = { data_source: 'live_insight', display_size: 'medium' };
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Countries',
    widget_type: 'chart',
    insight_code: 'revenue_by_country',
    chart_hint_override: { chart_type: 'bar' },
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Channels',
    widget_type: 'table',
    insight_code: 'revenue_by_channel',
  });
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dash.id}?range=last_30_days`);
  await ready(page);
  const bar = page.getByRole('region', { name: 'Filters' });
  const countries = page.getByRole('region', { name: 'Countries' });
  await countries.locator('.chart svg').waitFor();

  // A click on a bar: the dashboard is filtered by its country, shown as a removable chip.
  const bars = countries.locator('.chart svg path[fill="#4f6bed"]');
  await bars.first().waitFor();
  const box = (await bars.first().boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForURL(/country=[A-Z]{2}/);
  const picked = new URL(page.url()).searchParams.get('country')!;
  await bar.getByRole('list', { name: 'Active filters' }).getByText(`Country: ${picked}`).waitFor();
  assert.match(page.url(), /range=last_30_days/, 'the other filters stay');
  await ready(page);

  // A row of a table: its channel filters the dashboard too; the chip removes it.
  const channels = page.getByRole('region', { name: 'Channels' });
  const cell = channels.getByRole('button', { name: /^Filter by Channel / }).first();
  const channel = (await cell.innerText()).trim();
  await cell.click();
  await page.waitForURL(new RegExp(`channel=${channel}`));
  await bar.getByRole('button', { name: `Remove filter Channel: ${channel}` }).click();
  await page.waitForURL((u) => !u.search.includes('channel='));
  await ready(page);

  // View data shows the chart's rows as a table; CSV and PNG download.
  await countries.getByRole('button', { name: 'More actions for Countries' }).click();
  await countries.getByRole('button', { name: 'View data' }).click();
  await countries.getByRole('table').waitFor();
  assert.ok((await countries.getByRole('table').locator('tbody tr').count()) >= 1);
  await countries.getByRole('button', { name: 'More actions for Countries' }).click();
  const [csv] = await Promise.all([page.waitForEvent('download'), countries.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.equal(csv.suggestedFilename(), 'countries.csv');
  const text = fs.readFileSync((await csv.path())!, 'utf8');
  assert.match(text.split('\r\n')[0], /Country/);
  assert.match(text, new RegExp(`\r\n${picked},`));
  await countries.getByRole('button', { name: 'More actions for Countries' }).click();
  const [png] = await Promise.all([page.waitForEvent('download'), countries.getByRole('button', { name: 'Download PNG' }).click()]);
  assert.equal(png.suggestedFilename(), 'countries.png');
  const bytes = fs.readFileSync((await png.path())!);
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');

  // The dashboard's PDF, under the bar's filters.
  const pdfRequest = page.waitForRequest((r) => r.url().includes(`/dashboards/${dash.id}/pdf`));
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  assert.match((await pdfRequest).url(), new RegExp(`range=last_30_days&country=${picked}`));
  assert.equal(pdf.suggestedFilename(), 'answer-back.pdf');
  assert.equal(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  await snapAll(page, 'dashboard-answer-back');
  problems.assertNone();
  await close();
});

test('unknown URLs and missing dashboards get a page that says so, in words', { skip, timeout: 60_000 }, async () => {
  const { page, problems, close } = await signedIn();
  const res = await page.goto(`${web.server!.url}/no-such-page`);
  assert.equal(res!.status(), 404);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: 'Go to the dashboards' }).waitFor();
  const api404 = await fetch(`${web.server!.url}/api/v1/nope`, { headers: { Accept: 'text/html' } });
  assert.match(api404.headers.get('content-type') ?? '', /problem\+json/, 'the API keeps its problems');
  await page.goto(`${web.server!.url}/dashboards/0190b3f0-0000-7000-8000-000000000000`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard not found' }).waitFor();
  // Dark mode follows the system; the header's picker overrides it and is remembered.
  await page.getByLabel('Colour theme').selectOption('dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(11, 18, 32)');
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Dashboard not found' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.getByLabel('Colour theme').selectOption('system');
  await snapAll(page, 'not-found');
  problems.forgive(/status of 404/);
  problems.assertNone();
  await close();
});

test('chat you can follow: example questions, the new answer focused, how it was answered, a live widget keeps "last month"', {
  skip,
  timeout: 90_000,
}, async () => {
  const { page, problems, close } = await signedIn();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  const examples = page.getByRole('list', { name: 'Example questions' });
  await examples.getByRole('button').first().waitFor();
  const example = (await examples.getByRole('button').first().innerText()).trim();
  await examples.getByRole('button').first().click();
  const first = page.getByRole('region', { name: `Answer to “${example}”` });
  await first.waitFor();
  await page.waitForFunction(() => document.activeElement?.classList.contains('answer'));
  await page.getByRole('textbox', { name: 'Ask a question' }).fill('revenue by country last month');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: 'Answer to “revenue by country last month”' });
  await answer.waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Answer to “revenue by country last month”');
  assert.match(await answer.locator('.how').innerText(), /Answered with Revenue by country · no filters · period: last month/);
  await answer.getByRole('button', { name: 'Add to dashboard' }).click();
  await answer.getByLabel('Live: the insight, fresh on every load').check();
  await answer.getByRole('button', { name: 'Add', exact: true }).click();
  await answer.getByRole('status').filter({ hasText: 'Added' }).waitFor();
  const dashboards = await api<{ id: string }[]>('GET', '/dashboards/');
  const widgets = (await Promise.all(dashboards.map((d) => api('GET', `/dashboards/${d.id}`)))).flatMap((d) => d.widgets);
  const made = widgets.find(
    (w: { title: string; data_source: string }) => w.title === 'revenue by country last month' && w.data_source === 'live_insight',
  );
  assert.deepEqual(made.widget_filters, { range: 'last_month' });
  await snapAll(page, 'chat');
  problems.assertNone();
  await close();
});

test('a widget’s country and channel are picked from the data, not typed', { skip, timeout: 60_000 }, async () => {
  const { page, problems, close } = await signedIn();
  const dash = await api('POST', '/dashboards/', { name: 'Picked' });
  await page.goto(`${web.server!.url}/dashboards/${dash.id}`);
  await page.getByRole('button', { name: 'Add widget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add widget' });
  await dialog.getByLabel('Insight', { exact: true }).selectOption('revenue');
  const values = (await api<{ name: string; values: string[] }[]>('GET', '/insights/filters')).find((f) => f.name === 'country')!.values;
  const country = dialog.getByRole('listbox', { name: 'Country' });
  assert.deepEqual(await country.locator('option').allInnerTexts(), values);
  await country.selectOption(values.slice(0, 2));
  await dialog.getByLabel('Title').fill('Two countries');
  const made = page.waitForResponse((r) => r.url().endsWith('/widgets') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Add widget' }).click();
  assert.deepEqual((await (await made).json()).widget_filters, { country: values.slice(0, 2) });
  problems.assertNone();
  await close();
});
