import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildTestApp, call, type TestApp } from '../../helpers/app.ts';
import { ManualClock } from '../../../src/lib/clock.ts';
import { FakeProviders } from '../../fakes/llm-providers.ts';

// Revenue in the demo model is money in EUR without decimals (docs/model.md "currency").
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR', minimumFractionDigits: 0, maximumFractionDigits: 0 });
const TODAY = '2026-04-15';

describe('chat', () => {
  let t: TestApp;
  let fake: FakeProviders;
  let owner: string;
  let member: string;
  let otherUser: string;
  let otherTenant: string;
  const logLines: string[] = [];

  before(async () => {
    fake = await new FakeProviders().start();
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logLines.push(String(chunk));
        cb();
      },
    });
    t = await buildTestApp({
      env: fake.env(),
      clock: new ManualClock(new Date(`${TODAY}T10:00:00.000Z`)),
      deps: { logger: { level: 'warn', stream } },
    });
    t.app.services.connectors.timeoutMs = 5000;
    owner = await t.login({ tenant: 'demo', user: 'olga', role: 'owner' });
    member = await t.login({ tenant: 'demo', user: 'max', role: 'member' });
    otherUser = await t.login({ tenant: 'demo', user: 'nina', role: 'member' });
    otherTenant = await t.login({ tenant: 'acme', user: 'olga', role: 'owner' });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  const execute = async (code: string, params: Record<string, string | number>) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    const res = await call(t, owner, 'GET', `/api/v1/insights/${code}/execute?${qs}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.data.data;
  };

  test("without a connector the parser answers, with the engine's own rows and figures", async () => {
    const res = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'Revenue by week in the last 3 months' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.success, true);
    const d = res.data.data;
    assert.equal(d.answered_by, 'parser');
    assert.equal(d.insight_code, 'revenue');
    assert.deepEqual(d.query, { insight_code: 'revenue', granularity: 'week', date_from: '2026-01-16', date_to: TODAY });
    assert.equal(d.chart_hint.type, 'line');
    assert.equal(d.chart_hint.x_axis, 'period');
    assert.match(d.history_id, /^[0-9a-f-]{36}$/);
    const direct = await execute('revenue', { granularity: 'week', date_from: '2026-01-16', date_to: TODAY });
    assert.deepEqual(d.rows, direct.rows);
    const total = direct.rows.reduce((s: number, r: any) => s + r.revenue, 0);
    assert.ok(total > 0);
    assert.ok(d.reply_text.includes(`total ${money.format(total)}`), d.reply_text);
    // best and worst are read over the weeks wholly inside the window
    const plus6 = (p: string) => new Date(Date.parse(`${p}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
    const full = direct.rows.filter((r: any) => r.period >= '2026-01-16' && plus6(r.period) <= TODAY);
    assert.ok(full.length >= 10 && full.length < direct.rows.length);
    const best = full.reduce((a: any, b: any) => (b.revenue > a.revenue ? b : a));
    const worst = full.reduce((a: any, b: any) => (b.revenue < a.revenue ? b : a));
    assert.ok(
      d.reply_text.includes(
        `Best full week: ${best.period} (${money.format(best.revenue)}); worst: ${worst.period} (${money.format(worst.revenue)})`,
      ),
      d.reply_text,
    );
  });

  test("follow-ups change the conversation's last query; history is per user and tenant", async () => {
    const first = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'Revenue in Germany last quarter by month' });
    const id = first.data.data.history_id;
    assert.deepEqual(first.data.data.query.filters, { country: 'DE' });
    const fr = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'and in France?', history_id: id });
    assert.equal(fr.statusCode, 200);
    assert.equal(fr.data.data.history_id, id);
    assert.deepEqual(fr.data.data.query, {
      insight_code: 'revenue',
      granularity: 'month',
      filters: { country: 'FR' },
      date_from: '2026-01-01',
      date_to: '2026-03-31',
    });
    assert.match(fr.data.data.reply_text, /in France \(FR\)/);
    const weekly = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'by week instead', history_id: id });
    assert.equal(weekly.data.data.query.granularity, 'week');
    assert.deepEqual(weekly.data.data.query.filters, { country: 'FR' });

    // The same id from anyone else is their own, new conversation: the follow-up finds no previous
    // query to change, so nothing of max's conversation leaks into the answer.
    for (const who of [otherUser, otherTenant, owner]) {
      const res = await call(t, who, 'POST', '/api/v1/ai/chat', { message: 'and in Spain?', history_id: id });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.data.history_id, id);
      assert.notEqual(res.data.data.query?.granularity, 'week', JSON.stringify(res.data.data.query));
      assert.notEqual(res.data.data.query?.insight_code, 'revenue', JSON.stringify(res.data.data.query));
    }

    const rows = await t.db.query(
      "SELECT role, tenant_id FROM chat_messages WHERE conversation_id = $1 AND user_id = 'max' ORDER BY created_at, role DESC",
      [id],
    );
    assert.equal(rows.length, 6);
    assert.ok(rows.every((r: any) => r.tenant_id === 'demo'));
    const conv = await t.db.query(
      'SELECT tenant_id, user_id, last_query FROM chat_conversations WHERE id = $1 ORDER BY tenant_id, user_id',
      [id],
    );
    assert.deepEqual(
      conv.map((c: any) => `${c.tenant_id}/${c.user_id}`),
      ['acme/olga', 'demo/max', 'demo/nina', 'demo/olga'],
    );
    assert.equal(conv.find((c: any) => c.user_id === 'max')!.last_query.granularity, 'week');
  });

  test('a history_id the caller chooses starts a conversation under that id; follow-ups continue it', async () => {
    const id = 'client-made 42:abc';
    const first = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'Revenue in Germany last quarter by month', history_id: id });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.data.data.history_id, id);
    assert.deepEqual(first.data.data.query.filters, { country: 'DE' });
    const next = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'and in France?', history_id: id });
    assert.equal(next.data.data.history_id, id);
    assert.deepEqual(next.data.data.query.filters, { country: 'FR' });
    assert.equal(next.data.data.query.insight_code, 'revenue');
  });

  test('history_id is 1-128 printable characters, else a 400 naming it', async () => {
    for (const bad of ['', 'x'.repeat(129), 'tab\there', 'line\nbreak', 'é', 'a\u0000b']) {
      const res = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'revenue', history_id: bad });
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      assert.equal(res.data.errors[0].path, '/body/history_id');
    }
    const longest = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'revenue', history_id: '~'.repeat(128) });
    assert.equal(longest.statusCode, 200);
  });

  test('KPI and breakdown answers state value, change and the leader', async () => {
    const kpi = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'total revenue last month' });
    const k = kpi.data.data;
    assert.equal(k.insight_code, 'revenue_kpi');
    const row = k.rows[0];
    assert.ok(k.reply_text.includes(money.format(row.value)), k.reply_text);
    assert.ok(k.reply_text.includes(money.format(row.previous_value)), k.reply_text);
    assert.equal(k.chart_hint.type, 'kpi');

    const top = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'top 3 products last month' });
    const p = top.data.data;
    assert.equal(p.insight_code, 'top_products');
    assert.equal(p.rows.length, 3);
    assert.equal(p.query.limit, 3);
    assert.ok(
      p.reply_text.includes(`${p.rows[0].product_name} (${p.rows[0].category}) leads with ${money.format(p.rows[0].revenue)}`),
      p.reply_text,
    );

    const cat = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'sales of electronics this year' });
    // Composed from the model: the revenue of the category's items, not a top list of it.
    assert.deepEqual(
      cat.data.data.query.filters,
      [{ member: 'products.category', operator: 'equals', values: ['Electronics'] }],
      "the category is matched against the tenant's own categories",
    );
    assert.deepEqual(cat.data.data.query.measures, ['order_items.revenue']);
  });

  test('comparisons: the query carries compare and lists; the reply states both figures and the change in words', async () => {
    // A user of its own: chat is rate-limited per user, and the other tests count on owner's budget.
    const asker = await t.login({ tenant: 'demo', user: 'cmp', role: 'member' });
    const pct = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    const ytd = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'YTD revenue vs last year' })).data.data;
    assert.deepEqual(ytd.query, {
      insight_code: 'revenue_kpi',
      granularity: 'month',
      date_from: '2026-01-01',
      date_to: '2026-04-15',
      compare: 'previous_year',
    });
    const r = ytd.rows[0];
    assert.deepEqual([r.previous_period_from, r.previous_period_to], ['2025-01-01', '2025-04-15']);
    const same = await execute('revenue_kpi', { date_from: '2026-01-01', date_to: '2026-04-15', compare: 'previous_year' });
    assert.deepEqual(ytd.rows, same.rows, 'the rows execute gives');
    const words = `${r.change_pct > 0 ? 'up' : 'down'} ${pct.format(Math.abs(r.change_pct))} % on last year`;
    assert.ok(ytd.reply_text.includes(words), ytd.reply_text);
    assert.ok(ytd.reply_text.includes(money.format(r.value)) && ytd.reply_text.includes(money.format(r.previous_value)), ytd.reply_text);

    const series = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'orders per month compared with last year' })).data.data;
    assert.equal(series.query.compare, 'previous_year');
    const last = series.rows.at(-1);
    assert.ok('orders_previous' in last && 'orders_change_pct' in last);
    assert.ok(
      series.reply_text.includes(
        `${last.orders_change_pct > 0 ? 'up' : 'down'} ${pct.format(Math.abs(last.orders_change_pct))} % on last year`,
      ),
      series.reply_text,
    );

    const two = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'Spain vs Italy sales by week' })).data.data;
    assert.deepEqual(two.query.filters, { country: ['ES', 'IT'] });
    assert.equal(two.chart_hint.series, 'country');
    assert.deepEqual([...new Set(two.rows.map((x: { country: string }) => x.country))], ['ES', 'IT']);
    assert.match(two.reply_text, /in Spain \(ES\) and Italy \(IT\)/);
  });

  test('honest answers: what the model lacks is refused by name with what can be asked; a value with no rows is answered', async () => {
    const asker = await t.login({ tenant: 'demo', user: 'honest', role: 'member' });
    const roas = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'return on ad spend by campaign' })).data;
    assert.equal(roas.success, true);
    assert.deepEqual([roas.data.insight_code, roas.data.query, roas.data.rows], [null, null, []]);
    assert.match(
      roas.data.reply_text,
      /^I have no return on ad spend in this data model, so I cannot answer that\. I can show revenue, orders, average order value/,
    );
    assert.ok(roas.data.alternatives.length > 0 && roas.data.alternatives.length <= 3);
    assert.ok(!/\d/.test(roas.data.reply_text), 'no figures in a refusal');
    for (const [message, pattern] of [
      ['revenue by campaign last month', /^I cannot break this down by campaign/],
      ['orders by minute today', /^I cannot show it by minute: the finest period I have is a day/],
      ['revenue next quarter', /^"next quarter" has not happened yet/],
    ] as const) {
      const r = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message })).data.data;
      assert.equal(r.insight_code, null, message);
      assert.match(r.reply_text, pattern, message);
    }
    // Japan is a country the demo shop never sold to: answered, with the filter kept.
    const japan = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'sales in Japan last month' })).data.data;
    assert.equal(japan.insight_code, 'revenue');
    assert.deepEqual(japan.query.filters, { country: 'JP' });
    assert.equal(japan.reply_text, 'No revenue in Japan (JP) from 2026-03-01 to 2026-03-31: the data has none for this selection.');
    const plain = (await call(t, asker, 'POST', '/api/v1/ai/chat', { message: 'revenue last month' })).data.data;
    assert.deepEqual(plain.alternatives, []);
  });

  test('German, French and Spanish: data.language, a reply in that language with its number and date formats', async () => {
    const asker = await t.login({ tenant: 'demo', user: 'polyglot', role: 'member' });
    const ask = async (message: string) => (await call(t, asker, 'POST', '/api/v1/ai/chat', { message })).data.data;
    const de = await ask('Gesamtumsatz letzten Monat im Vergleich zum Vorjahr');
    assert.equal(de.language, 'de');
    assert.deepEqual(de.query, {
      insight_code: 'revenue_kpi',
      granularity: 'month',
      date_from: '2026-03-01',
      date_to: '2026-03-31',
      compare: 'previous_year',
    });
    const r = de.rows[0];
    const deMoney = new Intl.NumberFormat('de-DE', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    const dePct = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 });
    assert.ok(de.reply_text.startsWith('Umsatz vom 01.03.2026 bis 31.03.2026: '), de.reply_text);
    assert.ok(de.reply_text.includes(deMoney.format(r.value)) && de.reply_text.includes(deMoney.format(r.previous_value)), de.reply_text);
    assert.ok(
      de.reply_text.includes(`${dePct.format(Math.abs(r.change_pct))} % ${r.change_pct > 0 ? 'mehr' : 'weniger'} als im Vorjahr`),
      de.reply_text,
    );

    const fr = await ask("Chiffre d'affaires par pays en Allemagne et en France cette année");
    assert.equal(fr.language, 'fr');
    assert.equal(fr.insight_code, 'revenue_by_country');
    assert.deepEqual(fr.query.filters, { country: ['DE', 'FR'] });
    const frMoney = new Intl.NumberFormat('fr-FR', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    assert.ok(fr.reply_text.includes(frMoney.format(fr.rows[0].revenue)), fr.reply_text);
    assert.match(fr.reply_text, /^Chiffre d'affaires par pays pour Allemagne \(DE\) et France \(FR\) du 1 janv\. 2026 au 15 avr\. 2026 : /);

    const es = await ask('Ventas por campaña');
    assert.equal(es.language, 'es');
    assert.equal(es.insight_code, null);
    assert.match(es.reply_text, /^No puedo desglosarlo por «campaña»/);

    const en = await ask('revenue last month');
    assert.equal(en.language, 'en');

    // What can be asked, in the question's language, the model's titles in it.
    const help = await ask('Hallo, wie geht es dir heute?');
    assert.equal(help.language, 'de');
    assert.equal(help.insight_code, null);
    assert.match(
      help.reply_text,
      /^Diese Frage konnte ich keinen Daten zuordnen\. Ich kann Fragen beantworten zu: Umsatz, Bestellungen, Durchschnittlicher Bestellwert, Neukunden, Rückerstattungsquote, /,
    );
    assert.match(help.reply_text, /nach Tag, Woche, Monat, Quartal oder Jahr/);
  });

  test('a question that matches nothing: success, no rows, what can be asked with examples', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'Tell me a joke' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.success, true);
    assert.deepEqual(res.data.data.rows, []);
    assert.equal(res.data.data.insight_code, null);
    assert.equal(res.data.data.query, null);
    assert.match(res.data.data.reply_text, /For example: "Revenue by week in the last 3 months"/);
    assert.equal(typeof res.data.data.chart_hint.type, 'string');
    assert.equal(typeof res.data.data.chart_hint.x_axis, 'string');
  });

  test('a question the engine cannot run as asked is an answer saying why, not an error', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'daily revenue since 1990' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.data.data.rows, []);
    assert.equal(res.data.data.query, null);
    assert.match(res.data.data.reply_text, /I read this as revenue, but it cannot run as asked \(.*3660/);
  });

  test('bad bodies are 400 naming the field', async () => {
    const res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: '', extra: 1 });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.data.errors.map((e: any) => e.path).sort(), ['/body/extra', '/body/message']);
    assert.equal((await call(t, undefined, 'POST', '/api/v1/ai/chat', { message: 'revenue' })).statusCode, 401);
  });

  const CONNECTORS = [
    { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' },
    { provider: 'vendor_b', api_key: 'sk-ant-api03-good-0123456789abcdef' },
    { provider: 'vendor_c', api_key: 'AIzaSy-good-0123456789abcdefgh' },
    { provider: 'router', api_key: 'sk-or-v1-good-0123456789abcdef' },
    { provider: 'custom', api_key: 'local-good-token', model: 'my-llama' },
  ];

  test("with an active connector the LLM chooses the query through each protocol's tool call", async () => {
    // A question the parser cannot map, so only the LLM can have chosen the query.
    const llmQuery = {
      insight_code: 'orders_count',
      granularity: 'month',
      filters: { country: 'DE', channel: 'mobile' },
      date_from: '2026-01-01',
      date_to: '2026-03-31',
    };
    fake.toolArgs = llmQuery;
    for (const c of CONNECTORS) {
      const saved = await call(t, owner, 'POST', '/api/v1/ai/connectors', {
        ...c,
        ...(c.provider === 'custom' ? { base_url: fake.customBaseUrl } : {}),
      });
      assert.equal(saved.statusCode, 201);
      fake.requests = [];
      const res = await call(t, member, 'POST', '/api/v1/ai/chat', {
        message: 'How are the Munich phone folks doing, quarter gone, per month?',
      });
      assert.equal(res.statusCode, 200, res.body);
      const d = res.data.data;
      assert.equal(d.answered_by, c.provider);
      assert.deepEqual(d.query, llmQuery);
      assert.equal(d.rows.length, 3);
      assert.deepEqual(
        d.rows,
        (
          await execute('orders_count', {
            granularity: 'month',
            country: 'DE',
            channel: 'mobile',
            date_from: '2026-01-01',
            date_to: '2026-03-31',
          })
        ).rows,
      );

      assert.equal(fake.requests.length, 1, c.provider);
      const r = fake.requests[0];
      const body = r.body;
      if (c.provider === 'vendor_b') {
        assert.equal(r.headers['x-api-key'], c.api_key);
        assert.equal(body.tools[0].name, 'run_insight');
        assert.ok(body.tools[0].input_schema.properties.insight_code.enum.length >= 12);
        assert.equal(body.tools[1].name, 'query');
        assert.deepEqual(body.tool_choice, { type: 'any' });
        assert.match(body.system, new RegExp(`Today is ${TODAY}`));
      } else if (c.provider === 'vendor_c') {
        assert.equal(r.headers['x-goog-api-key'], c.api_key);
        assert.equal(body.tools[0].functionDeclarations[0].name, 'run_insight');
        assert.equal(body.tools[0].functionDeclarations[0].parameters.additionalProperties, undefined);
        assert.equal(body.tools[0].functionDeclarations[1].name, 'query');
        assert.equal(body.toolConfig.functionCallingConfig.mode, 'ANY');
        assert.match(body.systemInstruction.parts[0].text, /revenue_by_country/);
      } else {
        assert.equal(r.headers.authorization, `Bearer ${c.api_key}`);
        assert.equal(body.tools[0].type, 'function');
        assert.equal(body.tools[0].function.name, 'run_insight');
        assert.equal(body.tools[1].function.name, 'query');
        assert.deepEqual(body.tool_choice, 'required');
        assert.equal(body.messages[0].role, 'system');
        assert.equal(body.messages.at(-1).content, 'How are the Munich phone folks doing, quarter gone, per month?');
      }
    }
  });

  test('the LLM may call the query tool: checked by the planner, run once, answered with the query that ran', async () => {
    const member = await t.login({ tenant: 'demo', user: 'tools', role: 'member' });
    const semantic = {
      measures: ['orders.orders'],
      dimensions: ['orders.channel'],
      time: { dimension: 'orders.ordered_at', date_from: '2026-03-01', date_to: '2026-03-31' },
      filters: [{ member: 'orders.orders', operator: 'gt', values: ['50'] }],
    };
    const truth = await call(t, owner, 'POST', '/api/v1/query', { ...semantic, filters: [{ ...semantic.filters[0], values: [50] }] });
    assert.equal(truth.statusCode, 200, truth.body);
    for (const c of CONNECTORS) {
      fake.toolArgs = { $tool: 'query', ...semantic };
      await call(t, owner, 'POST', '/api/v1/ai/connectors', { ...c, ...(c.provider === 'custom' ? { base_url: fake.customBaseUrl } : {}) });
      const d = (await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'Busy channels in March?' })).data.data;
      assert.equal(d.answered_by, c.provider);
      assert.equal(d.insight_code, null);
      assert.deepEqual(d.query, truth.data.data.query);
      assert.deepEqual(d.rows, truth.data.data.rows);
    }
    // Orders do not reach the category (no join): the planner refuses it, the parser answers instead.
    fake.toolArgs = { $tool: 'query', measures: ['orders.orders'], dimensions: ['products.category'] };
    const parsed = (await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'revenue last month' })).data.data;
    assert.equal(parsed.answered_by, 'parser');
    assert.equal(parsed.insight_code, 'revenue');
    assert.match(logLines.join(''), /query: .*not reachable|query: .*reach/);
  });

  test('follow-ups give the LLM the previous query and the conversation', async () => {
    fake.toolArgs = { insight_code: 'revenue', filters: { country: 'FR' } };
    const first = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'French revenue' });
    fake.requests = [];
    fake.toolArgs = { insight_code: 'revenue', granularity: 'month', filters: { country: 'FR' } };
    const next = await call(t, member, 'POST', '/api/v1/ai/chat', { message: 'monthly please', history_id: first.data.data.history_id });
    assert.equal(next.data.data.query.granularity, 'month');
    const body = fake.requests[0].body;
    assert.match(body.messages[0].content, /last query was \{"insight_code":"revenue","filters":\{"country":"FR"\}\}/);
    assert.deepEqual(
      body.messages.slice(1).map((m: any) => m.role),
      ['user', 'assistant', 'user'],
    );
  });

  test('on any provider failure, timeout or invalid arguments the parser answers instead', async () => {
    const question = 'orders per week on mobile last month';
    const parserQuery = {
      insight_code: 'orders_count',
      granularity: 'week',
      filters: { channel: 'mobile' },
      date_from: '2026-03-01',
      date_to: '2026-03-31',
    };
    const cases: { connector: Record<string, string>; args?: unknown }[] = [
      { connector: { provider: 'vendor_a', api_key: 'sk-proj-bad-0123456789abcdef' } },
      { connector: { provider: 'vendor_b', api_key: 'sk-ant-api03-busy-0123456789' } },
      { connector: { provider: 'vendor_c', api_key: 'AIzaSy-good-0123456789abcdefgh', model: 'slow-model' } },
      { connector: { provider: 'router', api_key: 'sk-or-v1-good-0123456789abcdef', model: 'boom-model' } },
      { connector: { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' }, args: { insight_code: 'weather' } },
      {
        connector: { provider: 'vendor_b', api_key: 'sk-ant-api03-good-0123456789abcdef' },
        args: { insight_code: 'top_products', granularity: 'week' },
      },
      {
        connector: { provider: 'vendor_c', api_key: 'AIzaSy-good-0123456789abcdefgh' },
        args: { insight_code: 'revenue', filters: { channel: 'telepathy' } },
      },
      { connector: { provider: 'router', api_key: 'sk-or-v1-good-0123456789abcdef' }, args: { insight_code: 'top_products', limit: 5000 } },
      {
        connector: { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' },
        args: { insight_code: 'revenue', date_from: '2026-02-30' },
      },
      { connector: { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' }, args: '{not json' },
      { connector: { provider: 'vendor_b', api_key: 'sk-ant-api03-good-0123456789abcdef' }, args: 'no-call' },
      {
        connector: { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' },
        args: { insight_code: 'revenue', date_from: '1990-01-01', date_to: '2026-01-01' },
      },
      { connector: { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef', model: 'odd-model' } },
      { connector: { provider: 'vendor_b', api_key: 'sk-ant-api03-good-0123456789abcdef', model: 'odd-model' } },
      { connector: { provider: 'vendor_c', api_key: 'AIzaSy-good-0123456789abcdefgh', model: 'odd-model' } },
    ];
    for (const c of cases) {
      fake.toolArgs = c.args ?? { insight_code: 'revenue' };
      t.app.services.connectors.timeoutMs = c.connector.model === 'slow-model' ? 400 : 5000;
      assert.equal((await call(t, owner, 'POST', '/api/v1/ai/connectors', c.connector)).statusCode, 201);
      fake.requests = [];
      const res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: question });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(fake.requests.length, 1, 'the provider was asked');
      assert.equal(res.data.data.answered_by, 'parser', JSON.stringify(c));
      assert.deepEqual(res.data.data.query, parserQuery, JSON.stringify(c));
    }
    // a stored key that no longer opens (master key changed): no call, the parser answers
    await call(t, owner, 'POST', '/api/v1/ai/connectors', { provider: 'vendor_a', api_key: 'sk-proj-good-0123456789abcdef' });
    await t.db.query(
      `UPDATE ai_connectors SET api_key_sealed = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' WHERE tenant_id = 'demo' AND provider = 'vendor_a'`,
    );
    fake.requests = [];
    const sealed = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: question });
    assert.equal(sealed.statusCode, 200);
    assert.equal(sealed.data.data.answered_by, 'parser');
    assert.equal(fake.requests.length, 0);

    const logs = logLines.join('');
    assert.match(logs, /chat fell back to the built-in parser/);
    assert.match(logs, /refused the API key/);
    for (const c of cases) assert.ok(!logs.includes(c.connector.api_key), 'a key reached the log');
  });

  test('deleting the active connector returns chat to the parser', async () => {
    for (const p of ['vendor_a', 'vendor_b', 'vendor_c', 'router', 'custom']) await call(t, owner, 'DELETE', `/api/v1/ai/connectors/${p}`);
    fake.requests = [];
    const res = await call(t, owner, 'POST', '/api/v1/ai/chat', { message: 'revenue yesterday' });
    assert.equal(res.data.data.answered_by, 'parser');
    assert.equal(fake.requests.length, 0);
  });
});

describe('chat rate limit', () => {
  test('per user, 429 with Retry-After, other users unaffected, resets after the minute', async () => {
    const clock = new ManualClock(new Date('2026-04-15T10:00:00.000Z'));
    const t = await buildTestApp({ env: { INSIGHTS_CHAT_RATE_LIMIT: '3' }, clock });
    try {
      const a = await t.login({ tenant: 'demo', user: 'a', role: 'member' });
      const a2 = await t.login({ tenant: 'demo', user: 'a', role: 'member' }); // same user, second token
      const b = await t.login({ tenant: 'demo', user: 'b', role: 'member' });
      for (let i = 0; i < 2; i++) assert.equal((await call(t, a, 'POST', '/api/v1/ai/chat', { message: 'revenue' })).statusCode, 200);
      assert.equal((await call(t, a2, 'POST', '/api/v1/ai/chat', { message: 'revenue' })).statusCode, 200);
      clock.advance(20_000);
      const limited = await call(t, a2, 'POST', '/api/v1/ai/chat', { message: 'revenue' });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.data.code, 'RATE_LIMITED');
      assert.equal(limited.headers['retry-after'], '40');
      assert.equal((await call(t, b, 'POST', '/api/v1/ai/chat', { message: 'revenue' })).statusCode, 200);
      clock.advance(40_000);
      assert.equal((await call(t, a, 'POST', '/api/v1/ai/chat', { message: 'revenue' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
