// Chat answers in their language, in headless Chromium against the real `insights serve`: a German
// question gets table headers from the model's German titles and numbers and dates with German
// formats, in the table and the chart; an English one keeps English. By accessible names.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, watchConsole, webApp, signInPage } from '../helpers/browser.ts';

const shots = process.env.SCREENSHOTS;

const skip = WEB_APP_SKIP;
const web = webApp('insights-webc-');

/** Asks in the chat page; resolves with the API's answer once the page has drawn it. */
async function ask(page: Page, question: string): Promise<any> {
  await page.getByRole('textbox', { name: 'Ask a question' }).fill(question);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/ai/chat') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const data = (await (await answered).json()).data;
  await page
    .getByRole('region', { name: `Answer to “${question}”` })
    .locator('table tbody tr')
    .first()
    .waitFor();
  return data;
}

const headers = (region: ReturnType<Page['getByRole']>) => region.locator('table thead th').allInnerTexts();
const column = (region: ReturnType<Page['getByRole']>, n: number) => region.locator(`table tbody tr td:nth-child(${n})`).allInnerTexts();
const clean = (s: string) => s.replace(/[↕▲▼]/g, '').trim();

test('a German answer: German column titles, German number and date formats in table and chart', { skip, timeout: 90_000 }, async () => {
  // The browser itself speaks English: the formats come from the answer's language, not the browser's.
  const context = await web.browser!.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchConsole(page);
  try {
    await signInPage(page, web.server!.url, web.token);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();

    const byCountry = await ask(page, 'Umsatz nach Land dieses Jahr');
    assert.equal(byCountry.language, 'de');
    const region = page.getByRole('region', { name: 'Answer to “Umsatz nach Land dieses Jahr”' });
    assert.deepEqual((await headers(region)).map(clean).slice(0, 3), ['Land', 'Umsatz', 'Bestellungen']);
    const euros = new Intl.NumberFormat('de-DE', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    const cells = await column(region, 2);
    assert.deepEqual(
      cells,
      byCountry.rows.map((r: { revenue: number }) => euros.format(r.revenue)),
    );
    assert.ok(
      cells.every((c) => /\d €$/.test(c.replace(/\u00a0/g, ' '))),
      cells.join(' | '),
    );

    const monthly = await ask(page, 'Umsatz pro Monat dieses Jahr');
    assert.equal(monthly.insight_code, 'revenue');
    const series = page.getByRole('region', { name: 'Answer to “Umsatz pro Monat dieses Jahr”' });
    assert.deepEqual((await headers(series)).map(clean).slice(0, 2), ['Zeitraum', 'Umsatz']);
    const dates = await column(series, 1);
    const deDate = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'UTC' });
    assert.deepEqual(
      dates,
      monthly.rows.map((r: { period: string }) => deDate.format(new Date(`${r.period}T00:00:00Z`))),
    );
    assert.match(dates[0], /^\d\d\.\d\d\.\d{4}$/);
    // The chart: month names of German on the axis, German figures on the value axis.
    await series.locator('.chart svg').first().waitFor();
    const axis = await series.locator('.chart svg text').allTextContents();
    const deMonth = new Intl.DateTimeFormat('de-DE', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const firstMonth = deMonth.format(new Date(`${monthly.rows[0].period}T00:00:00Z`));
    assert.ok(axis.includes(firstMonth), `${firstMonth} in ${axis.join(' | ')}`);
    if (shots) {
      fs.mkdirSync(shots, { recursive: true });
      await series.screenshot({ path: path.join(shots, 'chat-german-1280-light.png') });
    }

    // An English question keeps English titles and figures.
    const english = await ask(page, 'revenue by country this year');
    assert.equal(english.language, 'en');
    const en = page.getByRole('region', { name: 'Answer to “revenue by country this year”' });
    assert.deepEqual((await headers(en)).map(clean).slice(0, 3), ['Country', 'Revenue', 'Orders']);
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', minimumFractionDigits: 0, maximumFractionDigits: 0 });
    assert.deepEqual(
      await column(en, 2),
      english.rows.map((r: { revenue: number }) => usd.format(r.revenue)),
    );
    problems.assertNone();
  } finally {
    await context.close();
  }
});
