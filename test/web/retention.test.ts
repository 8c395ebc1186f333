// The starter dashboard's cohort widget (the demo's customer_retention) in headless Chromium: the
// retention triangle, a row per cohort with its size, a column per period since, each cell the
// retention in percent of the widget's own answer, shaded by it with text that keeps a contrast
// of at least 4.5:1, in the light and the dark theme.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEB_APP_SKIP, signInPage, snapAll, watchConsole, webApp } from '../helpers/browser.ts';
import { formatValue } from '../../src/lib/charts/number-format.ts';
import { contrast } from '../helpers/contrast.ts';

const skip = WEB_APP_SKIP;
const web = webApp('insights-webr-');
const { api } = web;

// Run in the page, which gets tsx's __name helper (tsx names the functions it compiles with it).
// A cell's background is a see-through mix: what the eye sees is it over the first opaque ancestor's.

interface Drawn {
  headers: string[];
  rows: { cohort: string; size: string; cells: { text: string; background: string; color: string }[] }[];
}

function readTable(el: Element): Drawn {
  const rgba = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number);
  const under = (node: Element) => {
    for (let n = node.parentElement; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if ((c[3] ?? 1) === 1) return c;
    }
    return [255, 255, 255];
  };
  const seen = (td: Element) => {
    const [r, g, b, a = 1] = rgba(getComputedStyle(td).backgroundColor);
    const base = under(td);
    return 'rgb(' + [r, g, b].map((v, i) => Math.round(v * a + base[i] * (1 - a))).join(', ') + ')';
  };
  return {
    headers: [...el.querySelectorAll('thead th')].map((th) => th.textContent ?? ''),
    rows: [...el.querySelectorAll('tbody tr')].map((tr) => ({
      cohort: tr.querySelector('th')?.textContent ?? '',
      size: tr.querySelectorAll('td')[0]?.textContent ?? '',
      cells: [...tr.querySelectorAll('td')].slice(1).map((td) => ({
        text: td.textContent ?? '',
        background: seen(td),
        color: getComputedStyle(td).color,
      })),
    })),
  };
}

test('the starter dashboard draws customer retention as a shaded triangle', { skip, timeout: 120_000 }, async () => {
  const starter = (await api<{ id: string; name: string }[]>('GET', '/dashboards/')).find((d) => d.name === 'Start here');
  assert.ok(starter, 'the demo seed made the starter dashboard');
  const detail = await api<{ widgets: { id: string; title: string; insight_code: string }[] }>('GET', `/dashboards/${starter.id}`);
  const widget = detail.widgets.find((w) => w.insight_code === 'customer_retention');
  assert.ok(widget, 'the starter has a cohort widget');
  const data = await api<{ data: { rows: { cohort: string; period: number; retention: number; size: number }[] } }>(
    'GET',
    `/dashboards/${starter.id}/widgets/${widget.id}/data`,
  );
  const cohorts = new Map<string, { size: number; retention: number[] }>();
  for (const r of data.data.rows) {
    const c = cohorts.get(r.cohort) ?? { size: r.size, retention: [] };
    cohorts.set(r.cohort, c);
    c.retention[r.period] = r.retention;
  }
  assert.ok(cohorts.size >= 2, `${cohorts.size} cohorts`);
  const width = Math.max(...[...cohorts.values()].map((c) => c.retention.length));

  const context = await web.browser!.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  const problems = watchConsole(page);
  await signInPage(page, web.server!.url, web.token);
  await page.goto(`${web.server!.url}/dashboards/${starter.id}`);
  const region = page.getByRole('region', { name: widget.title });
  const table = region.locator('table.retention');
  await table.waitFor();
  await snapAll(page, 'retention');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const drawn: Drawn = await table.evaluate(readTable);
    assert.deepEqual(drawn.headers, ['Cohort', 'Cohort size', ...Array.from({ length: width }, (_, i) => String(i))]);
    assert.deepEqual(
      drawn.rows.map((r) => r.cohort),
      [...cohorts.keys()],
      'a row per cohort, oldest first',
    );
    const shades = new Set<string>();
    for (const row of drawn.rows) {
      const c = cohorts.get(row.cohort)!;
      assert.equal(row.size, formatValue(c.size, { type: 'integer' }));
      assert.equal(row.cells.length, width);
      row.cells.forEach((cell, p) => {
        if (c.retention[p] === undefined) return assert.equal(cell.text, '', `${row.cohort} has no period ${p} yet`);
        assert.equal(cell.text, formatValue(c.retention[p], { type: 'percent', decimals: 1 }), `${row.cohort} period ${p}`);
        assert.ok(contrast(cell.background, cell.color) >= 4.5, `${scheme}: ${cell.color} on ${cell.background}`);
        shades.add(`${c.retention[p]}|${cell.background}`);
      });
    }
    // Shaded by value: period 0 (100 %) and a lower retention are drawn in different colours.
    const byValue = new Map([...shades].map((s) => s.split('|') as [string, string]));
    assert.ok(new Set(byValue.values()).size > 1, `${scheme}: ${[...shades].join(', ')}`);
  }
  problems.assertNone();
  await context.close();
});
