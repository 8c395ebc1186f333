// axe-core's WCAG 2.0/2.1 A and AA rules (issue 40) on every page of the web app and its embedded
// pages, in headless Chromium against the real `insights serve`, each page in the light and the dark
// colour scheme, once its widgets have answered and its charts are drawn: 0 violations. A failure
// names each violation's rule, impact and help, and the selectors of the elements it found, so it
// can be fixed where it is. Any console error fails too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, signInPage, watchConsole, webApp } from '../helpers/browser.ts';
import { lowContrast } from '../helpers/contrast.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-weba-');
const { api } = web;

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.1 AA is the A and AA success criteria of WCAG 2.0 and of 2.1; axe tags its rules so. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function newPage(): Promise<{ page: Page; problems: ReturnType<typeof watchConsole>; close: () => Promise<void> }> {
  const context = await web.browser!.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  // tsx names the functions of the test's page.evaluate() bodies with a helper the page lacks.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  return { page, problems: watchConsole(page), close: () => context.close() };
}

async function signedIn() {
  const opened = await newPage();
  await signInPage(opened.page, web.server!.url, web.token);
  return opened;
}

/**
 * The page has settled: no widget still loading, every chart on it drawn, and nothing still saying
 * "Loading" (a page's first data).
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll('section.widget')];
    const charts = [...document.querySelectorAll('.chart')];
    return (
      widgets.every((w) => w.getAttribute('data-state') !== 'loading') &&
      charts.every((c) => c.getAttribute('data-drawn') === 'true' && c.querySelector('svg')) &&
      !document.querySelector('.loading')
    );
  });
}

/** axe-core's WCAG 2.1 AA violations on the page as it is, described one per rule. */
async function violations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const options = { runOnly: { type: 'tag', values: WCAG_21_AA }, resultTypes: ['violations'] };
  const result = (await page.evaluate(`axe.run(document, ${JSON.stringify(options)})`)) as { violations: AxeViolation[] };
  return result.violations;
}

const describe = (where: string, v: AxeViolation) =>
  `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.helpUrl}\n` +
  v.nodes.map((n) => `    ${n.target.map(String).join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`).join('\n');

/**
 * Checks the page in light, then dark (the system's setting, which the app and its charts follow),
 * and back to light; the violations are added to `found`, described. axe leaves the charts' SVG
 * text "to review" (it finds no background behind it): lowContrast() measures that text.
 */
async function check(page: Page, where: string, found: string[]): Promise<void> {
  await settled(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The charts redraw on the scheme's change event; two frames see it painted.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await settled(page);
    for (const v of await violations(page)) found.push(describe(`${where} ${scheme}`, v));
    for (const f of await lowContrast(page)) found.push(`${where} ${scheme}: text under 4.5:1 (3:1 large), ${f}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const noViolations = (found: string[]) => assert.equal(found.length, 0, `axe-core, WCAG 2.1 AA:\n${found.join('\n')}`);

test('axe, WCAG 2.1 AA: sign-in, the dashboards list, settings and a page not found', { skip, timeout: 90_000 }, async () => {
  const found: string[] = [];
  const { page, problems, close } = await newPage();
  await page.goto(web.server!.url + '/');
  await page.getByLabel('Access token').waitFor();
  await check(page, 'sign-in', found);
  await page.getByLabel('Access token').fill(web.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: /^(Dashboards|Start here)$/ }).waitFor();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
  await check(page, '/dashboards', found);
  await page.getByText('Getting started').click();
  await check(page, '/dashboards (the guide open)', found);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByRole('cell', { name: 'first start' }).first().waitFor();
  await check(page, '/settings', found);
  problems.assertNone();

  // The page is answered with status 404, which Chromium logs.
  problems.forgive(/status of 404/);
  await page.goto(web.server!.url + '/no-such-page');
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await check(page, 'page not found', found);
  noViolations(found);
  problems.assertNone();
  await close();
});

test('axe, WCAG 2.1 AA: a dashboard with every kind of widget (chart, pie, table, KPI, retention, text), and in full screen', {
  skip,
  timeout: 90_000,
}, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Every widget' });
  const live = { data_source: 'live_insight' };
  const widgets = [
    { title: 'Revenue', widget_type: 'kpi', insight_code: 'revenue_kpi', display_size: 'small' },
    { title: 'Monthly revenue', widget_type: 'chart', insight_code: 'revenue', granularity: 'month', display_size: 'medium' },
    { title: 'By channel', widget_type: 'chart', insight_code: 'revenue_by_channel', chart_hint_override: { chart_type: 'pie' } },
    { title: 'By country', widget_type: 'table', insight_code: 'revenue_by_country', display_size: 'medium' },
  ];
  for (const w of widgets) await api('POST', `/dashboards/${dash.id}/widgets`, { ...live, ...w });
  const cohort = (await api<{ code: string; kind: string }[]>('GET', '/insights')).find((i) => i.kind === 'cohort');
  assert.ok(cohort, 'the demo model has a cohort insight');
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Retention',
    widget_type: 'table',
    insight_code: cohort.code,
    display_size: 'full',
  });
  await api('POST', `/dashboards/${dash.id}/text-blocks`, {
    body: '## How to read this\n\nRevenue is **net** of refunds; see [the guide](https://example.com/guide).',
  });

  const found: string[] = [];
  const { page, problems, close } = await signedIn();
  await page.goto(`${web.server!.url}/dashboards/${dash.id}`);
  await page.getByRole('region', { name: 'Text: How to read this' }).waitFor();
  // Five widgets and the text block, each a section.widget.
  await page.waitForFunction(() => document.querySelectorAll('section.widget[data-state="ready"]').length === 6);
  await page.getByRole('region', { name: 'Retention', exact: true }).locator('table.retention tbody tr').first().waitFor();
  await check(page, 'dashboard', found);
  await page.getByRole('button', { name: 'Full screen' }).click();
  await page.getByRole('button', { name: 'Exit full screen' }).waitFor();
  await check(page, 'dashboard in full screen', found);
  noViolations(found);
  problems.assertNone();
  await close();
});

test('axe, WCAG 2.1 AA: chat with an answer, insights with a result, explore with a query result', { skip, timeout: 90_000 }, async () => {
  const found: string[] = [];
  const { page, problems, close } = await signedIn();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  await page.getByRole('list', { name: 'Example questions' }).getByRole('button').first().waitFor();
  await check(page, '/chat', found);
  const question = 'revenue per month this year';
  await page.getByRole('textbox', { name: 'Ask a question' }).fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: `Answer to “${question}”` });
  await answer.locator('.chart[data-drawn] svg').waitFor();
  await answer.locator('table tbody tr').first().waitFor();
  await check(page, '/chat (an answer)', found);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights' }).click();
  await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
  await check(page, '/insights', found);
  await page.goto(`${web.server!.url}/insights/revenue_by_country`);
  await page.locator('.result table tbody tr').first().waitFor();
  await check(page, '/insights/revenue_by_country', found);

  const query = { measures: ['orders.orders'], dimensions: ['customers.country'] };
  await page.goto(`${web.server!.url}/explore?q=${encodeURIComponent(JSON.stringify(query))}`);
  const result = page.getByRole('region', { name: 'Orders by Country' });
  await result.locator('table tbody tr').first().waitFor();
  await result.locator('.chart[data-drawn=true]').waitFor();
  await check(page, '/explore (a result)', found);
  noViolations(found);
  problems.assertNone();
  await close();
});

test('axe, WCAG 2.1 AA: notifications with a channel, a subscription and a delivery in the log', { skip, timeout: 90_000 }, async () => {
  const channel = await api('POST', '/notifications/channels', {
    channel_type: 'webhook',
    config: { webhook_url: 'https://hooks.example.invalid/insights' },
  });
  const sub = await api('POST', '/notifications/subscriptions', {
    insight_code: 'revenue',
    channel_id: channel.id,
    schedule: 'weekly',
    granularity: 'day',
  });
  await api('POST', `/notifications/subscriptions/${sub.id}/send`, {});
  // The delivery to a host that does not resolve fails, and is logged with its reason.
  for (let i = 0; i < 120 && (await api<unknown[]>('GET', '/notifications/logs')).length === 0; i++)
    await new Promise((r) => setTimeout(r, 250));

  const found: string[] = [];
  const { page, problems, close } = await signedIn();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
  await page.getByRole('list', { name: 'Insight subscriptions' }).getByRole('listitem').first().waitFor();
  await page.getByRole('region', { name: 'Delivery log' }).locator('tbody tr').first().waitFor();
  await check(page, '/notifications', found);
  noViolations(found);
  problems.assertNone();
  await close();
});

test('axe, WCAG 2.1 AA: the embedded dashboard and the embedded chat with an answer', { skip, timeout: 90_000 }, async () => {
  const dash = await api('POST', '/dashboards/', { name: 'Embedded' });
  const live = { data_source: 'live_insight' };
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'By country',
    widget_type: 'chart',
    insight_code: 'revenue_by_country',
    widget_filters: { compare: 'previous_period' },
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'By channel',
    widget_type: 'chart',
    insight_code: 'revenue_by_channel',
  });
  await api('POST', `/dashboards/${dash.id}/widgets`, { ...live, title: 'Revenue', widget_type: 'kpi', insight_code: 'revenue_kpi' });
  await api('POST', `/dashboards/${dash.id}/widgets`, {
    ...live,
    title: 'Countries',
    widget_type: 'table',
    insight_code: 'revenue_by_country',
  });
  const key = await api<{ id: string; secret: string }>('POST', '/embed/keys', {
    name: 'a11y',
    allowed_origins: ['https://shop.example.com'],
  });
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: key.id })
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(key.secret));

  const found: string[] = [];
  const { page, problems, close } = await newPage();
  // Every request answers (the page carries its icon inline: no /favicon.ico to miss).
  const failed: string[] = [];
  page.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
  // theme=auto: the page follows the system's scheme, as the app does (the host's theme=light|dark
  // pins the same two palettes).
  const dashboardToken = await sign({ sub: 'ann', resource: `dashboard:${dash.id}`, filters: { country: 'DE' } });
  await page.goto(`${web.server!.url}/embed/dashboards/${dash.id}?key=${key.id}&theme=auto#token=${dashboardToken}`);
  await page.locator('body[data-ready="true"]').waitFor();
  await check(page, 'embedded dashboard', found);

  const chatToken = await sign({ sub: 'ann', resource: 'chat' });
  await page.goto(`${web.server!.url}/embed/chat?key=${key.id}&theme=auto#token=${chatToken}`);
  await check(page, 'embedded chat', found);
  // Beyond WCAG 2.1 AA, axe's best practice: a page a screen reader can jump into by its heading.
  assert.equal(await page.locator('h1').count(), 1, 'the embedded chat has one level-1 heading');
  await page.locator('input').fill('revenue by country last year');
  await page.locator('button').click();
  await page.locator('.answer table').waitFor();
  await check(page, 'embedded chat (an answer)', found);
  noViolations(found);
  assert.deepEqual(failed, []);
  problems.assertNone();
  await close();
});
