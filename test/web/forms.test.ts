// The notification forms in headless Chromium against the real `insights serve`: channel names,
// and subscriptions with a time zone, a cron expression (its next runs and its problem next to the
// field) and an alert condition, kept after a reload and shown again when edited. By accessible
// names, no console errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { WEB_APP_SKIP, signInPage, snapAll, watchConsole, webApp } from '../helpers/browser.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webf-');
const { api } = web;

async function signedIn(
  timezoneId: string,
): Promise<{ page: Page; problems: ReturnType<typeof watchConsole>; close: () => Promise<void> }> {
  const context = await web.browser!.newContext({ viewport: { width: 1280, height: 900 }, timezoneId, locale: 'en-GB' });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, web.token);
  return { page, problems, close: () => context.close() };
}

/** The text of what a field points to with aria-describedby. */
async function described(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join('\n');
}

test('channel names: given on create, shown in the list and picked by name in the forms', { skip, timeout: 90_000 }, async () => {
  await api('POST', '/dashboards/', { name: 'Weekly numbers' });
  const { page, problems, close } = await signedIn('UTC');
  try {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
    await page.getByLabel('Channel type').selectOption('webhook');
    await page.getByLabel('Name (optional)').fill('Sales team hook');
    await page.getByLabel('Webhook URL (https)').fill('https://hooks.example.invalid/sales');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const channels = page.getByRole('list', { name: 'Channels' });
    await channels.getByText('Sales team hook', { exact: true }).waitFor();
    // An unnamed one keeps the derived label.
    await page.getByLabel('Channel type').selectOption('email');
    await page.getByLabel('E-mail address').fill('ops@example.com');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await channels.getByText('E-mail: ops@example.com', { exact: true }).waitFor();
    // Renamed in place: the new name everywhere, still one channel.
    await page.getByRole('button', { name: 'Edit E-mail: ops@example.com' }).click();
    await page.getByRole('form', { name: 'Edit E-mail: ops@example.com' }).getByLabel('Name (optional)').fill('Ops inbox');
    await page.getByRole('form', { name: 'Edit E-mail: ops@example.com' }).getByRole('button', { name: 'Save' }).click();
    await channels.getByText('Ops inbox', { exact: true }).waitFor();
    const listed = await api<{ name: string | null; config: Record<string, string> }[]>('GET', '/notifications/channels');
    assert.deepEqual(listed.map((c) => c.name).sort(), ['Ops inbox', 'Sales team hook']);
    // The subscription forms offer the channels by name.
    const options = await page.getByLabel('Channel', { exact: true }).locator('option').allInnerTexts();
    assert.deepEqual([...options].sort(), ['Ops inbox', 'Sales team hook']);
    const sendTo = await page.getByRole('group', { name: 'Send to' }).innerText();
    assert.match(sendTo, /Ops inbox/);
    assert.match(sendTo, /Sales team hook/);
    problems.assertNone();
  } finally {
    await close();
  }
});

test('insight subscription with a time zone, a cron and an alert condition: kept after reload, shown when edited', {
  skip,
  timeout: 120_000,
}, async () => {
  const { page, problems, close } = await signedIn('America/New_York');
  try {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
    const form = page.getByRole('form', { name: 'New insight subscription' });
    await form.waitFor();
    // A new subscription starts in the browser's time zone.
    assert.equal(await form.getByLabel('Time zone').inputValue(), 'America/New_York');
    await form.getByLabel('Insight', { exact: true }).selectOption('revenue');
    await form.getByLabel('Channel', { exact: true }).selectOption({ label: 'Sales team hook' });
    await form.getByLabel('Time zone').selectOption('Europe/Berlin');
    await form.getByLabel('Schedule', { exact: true }).selectOption('cron');

    // A bad expression: the problem is said next to the field, in the browser and by the service.
    const cron = form.getByLabel('Cron expression');
    await cron.fill('61 8 * * *');
    assert.equal(await cron.getAttribute('aria-invalid'), 'true');
    assert.match(await described(page, 'Cron expression'), /^Cron expression: .+/m);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByRole('alert').waitFor();
    assert.match(await described(page, 'Cron expression'), /Cron expression: /);
    assert.equal((await api<unknown[]>('GET', '/notifications/subscriptions')).length, 0, 'nothing was created');

    // A good one: no problem, and its next runs in words, in the chosen zone.
    await cron.fill('30 7 * * 1-5');
    assert.equal(await cron.getAttribute('aria-invalid'), null);
    const runs = await form.getByRole('list', { name: 'Next runs' }).getByRole('listitem').allInnerTexts();
    assert.equal(runs.length, 3);
    for (const r of runs) assert.match(r, /^(Mon|Tue|Wed|Thu|Fri), .*07:30 CE(S)?T$/, r);
    await snapAll(page, 'subscription-cron');

    // The alert condition.
    await form.getByLabel('Send', { exact: true }).selectOption({ label: 'When the value is above' });
    await form.getByLabel('Measure').selectOption({ label: 'Revenue' });
    await form.getByLabel('Threshold').fill('1500.5');
    await form.getByLabel('Notify').selectOption({ label: 'Only when it starts to hold' });
    await form.getByRole('button', { name: 'Subscribe' }).click();
    const subs = page.getByRole('list', { name: 'Insight subscriptions' });
    await subs.getByRole('listitem').first().waitFor();
    // Subscribed: the form starts over, and the row's next run names its time zone.
    assert.equal(await form.getByLabel('Insight', { exact: true }).inputValue(), '');
    assert.equal(await form.getByLabel('Threshold').count(), 0);
    assert.match(await subs.getByRole('listitem').first().innerText(), /next run: .+ Europe\/Berlin/);

    const [stored] = await api<any[]>('GET', '/notifications/subscriptions');
    assert.equal(stored.timezone, 'Europe/Berlin');
    assert.equal(stored.cron, '30 7 * * 1-5');
    assert.deepEqual(stored.condition, { op: 'above', value: 1500.5, measure: 'revenue' });
    assert.equal(stored.notify, 'on_change');

    // After a reload the row says what it does, and its editor shows the values.
    await page.reload();
    const row = page.getByRole('list', { name: 'Insight subscriptions' }).getByRole('listitem').first();
    // The measure's title comes with the catalog, which may answer after the list.
    await row.getByText(/alert: Revenue above 1500\.5/).waitFor();
    const text = await row.innerText();
    assert.match(text, /Sales team hook/);
    assert.match(text, /Cron 30 7 \* \* 1-5 \(Europe\/Berlin\)/);
    assert.match(text, /alert: Revenue above 1500\.5, only when it starts to hold/);
    await row.getByRole('button', { name: 'Edit Revenue' }).click();
    const edit = page.getByRole('form', { name: 'Edit Revenue' });
    assert.equal(await edit.getByLabel('Insight', { exact: true }).inputValue(), 'revenue');
    assert.equal(await edit.getByLabel('Time zone').inputValue(), 'Europe/Berlin');
    assert.equal(await edit.getByLabel('Schedule', { exact: true }).inputValue(), 'cron');
    assert.equal(await edit.getByLabel('Cron expression').inputValue(), '30 7 * * 1-5');
    assert.equal(await edit.getByLabel('Send', { exact: true }).inputValue(), 'above');
    assert.equal(await edit.getByLabel('Measure').inputValue(), 'revenue');
    assert.equal(await edit.getByLabel('Threshold').inputValue(), '1500.5');
    assert.equal(await edit.getByLabel('Notify').inputValue(), 'on_change');
    assert.equal(
      await edit.getByLabel('Channel', { exact: true }).evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent),
      'Sales team hook',
    );

    await snapAll(page, 'subscription-edit');
    // Saving a change replaces it: one subscription, with the new values.
    await edit.getByLabel('Schedule', { exact: true }).selectOption('weekly');
    await edit.getByLabel('Day of the week').selectOption({ label: 'Wednesday' });
    await edit.getByLabel('Time', { exact: true }).fill('09:15');
    await edit.getByLabel('Threshold').fill('2000');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const after = await api<any[]>('GET', '/notifications/subscriptions');
    assert.equal(after.length, 1);
    assert.equal(after[0].cron, null);
    assert.equal(after[0].schedule, 'weekly');
    assert.equal(after[0].schedule_day_of_week, 3);
    assert.equal(after[0].schedule_time, '09:15');
    assert.equal(after[0].timezone, 'Europe/Berlin');
    assert.equal(after[0].condition.value, 2000);
    assert.match(await row.innerText(), /Weekly on Wednesday at 09:15 Europe\/Berlin/);

    // A dashboard report in a zone and with a cron, kept after a reload.
    await page.reload();
    const report = page.getByRole('form', { name: 'New dashboard report' });
    await report.waitFor();
    await report.getByLabel('Dashboard').selectOption({ label: 'Weekly numbers' });
    await report.getByRole('group', { name: 'Send to' }).getByLabel('Ops inbox').check();
    await report.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await report.getByLabel('Schedule', { exact: true }).selectOption('cron');
    await report.getByLabel('Cron expression').fill('0 9 1 * *');
    await report.getByRole('button', { name: 'Schedule report' }).click();
    await page
      .getByRole('list', { name: 'Dashboard reports' })
      .getByText(/Cron 0 9 1 \* \* \(Asia\/Tokyo\)/)
      .waitFor();
    await page.reload();
    await page
      .getByRole('list', { name: 'Dashboard reports' })
      .getByText(/Cron 0 9 1 \* \* \(Asia\/Tokyo\)/)
      .waitFor();
    // Its editor shows its values; a change is saved.
    await page.getByRole('button', { name: 'Edit Weekly numbers' }).click();
    const editReport = page.getByRole('form', { name: 'Edit Weekly numbers report' });
    assert.equal(await editReport.getByLabel('Time zone').inputValue(), 'Asia/Tokyo');
    assert.equal(await editReport.getByLabel('Cron expression').inputValue(), '0 9 1 * *');
    assert.equal(await editReport.getByRole('group', { name: 'Send to' }).getByLabel('Ops inbox').isChecked(), true);
    assert.equal(await editReport.getByRole('group', { name: 'Send to' }).getByLabel('Sales team hook').isChecked(), false);
    await editReport.getByLabel('Cron expression').fill('0 9 1,15 * *');
    await editReport.getByRole('button', { name: 'Save changes' }).click();
    await editReport.waitFor({ state: 'detached' });
    const reports = await api<any[]>('GET', '/dashboards/subscriptions');
    assert.deepEqual(
      reports.map((r) => [r.cron, r.timezone, r.is_active]),
      [['0 9 1,15 * *', 'Asia/Tokyo', true]],
    );
    problems.forgive(/status of 400/);
    problems.assertNone();
  } finally {
    await close();
  }
});
