// The built-in question parser as pure functions: no app, no database.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelWords } from '../../../src/modules/chat/chat.catalog.ts';
import { demoModel } from '../../../src/semantic/model.ts';
import { findTimeRange, parseQuestion, type ParserInsight, type StructuredQuery } from '../../../src/modules/chat/parser/index.ts';

const ALL = ['day', 'week', 'month', 'quarter', 'year'];
const catalog: ParserInsight[] = [
  ...['revenue', 'orders_count', 'average_order_value', 'new_customers', 'refund_rate', 'conversion_rate'].map((code) => ({
    code,
    kind: 'timeseries' as const,
    granularities: ALL,
    filters: ['country', 'channel'],
  })),
  { code: 'revenue_by_country', kind: 'breakdown', granularities: [], filters: ['country', 'channel'], maxLimit: 250 },
  { code: 'revenue_by_channel', kind: 'breakdown', granularities: [], filters: ['country', 'channel'], maxLimit: 50 },
  { code: 'top_products', kind: 'breakdown', granularities: [], filters: ['country', 'channel', 'category'], maxLimit: 100 },
  { code: 'top_categories', kind: 'breakdown', granularities: [], filters: ['country', 'channel', 'category'], maxLimit: 100 },
  { code: 'revenue_kpi', kind: 'kpi', granularities: ALL, filters: ['country', 'channel'] },
  { code: 'orders_kpi', kind: 'kpi', granularities: ALL, filters: ['country', 'channel'] },
];
const today = '2026-04-15'; // a Wednesday
const categories = ['Electronics', 'Home & Kitchen', 'Pet Supplies', 'Toys'];
// The parser knows only what the model says: the demo model's words (its measures' synonyms,
// value_synonyms: "app" is mobile, "gadgets" Electronics).
const words = modelWords(demoModel());
const parse = (q: string, previous?: StructuredQuery) => parseQuestion(q, { today, catalog, categories, previous, words });
const query = (q: string, previous?: StructuredQuery): StructuredQuery => {
  const r = parse(q, previous);
  assert.equal(r.kind, 'query', `"${q}" did not map`);
  return (r as { query: StructuredQuery }).query;
};
const range = (q: string) => {
  const m = findTimeRange(q, today);
  return m && [m.range.from, m.range.to];
};

describe('question parser', () => {
  test('time phrases, relative to today, ends capped at today', () => {
    assert.deepEqual(range('last 7 days'), ['2026-04-09', '2026-04-15']);
    assert.deepEqual(range('the past two weeks'), ['2026-04-02', '2026-04-15']);
    assert.deepEqual(range('last week'), ['2026-04-06', '2026-04-12']);
    assert.deepEqual(range('this week'), ['2026-04-13', '2026-04-15']);
    assert.deepEqual(range('last month'), ['2026-03-01', '2026-03-31']);
    assert.deepEqual(range('last quarter'), ['2026-01-01', '2026-03-31']);
    assert.deepEqual(range('this year'), ['2026-01-01', '2026-04-15']);
    assert.deepEqual(range('last year'), ['2025-01-01', '2025-12-31']);
    assert.deepEqual(range('in 2025'), ['2025-01-01', '2025-12-31']);
    assert.deepEqual(range('since march'), ['2026-03-01', '2026-04-15']);
    assert.deepEqual(range('in may'), ['2025-05-01', '2025-05-31'], 'a month not yet begun this year is last year’s');
    assert.deepEqual(range('yesterday'), ['2026-04-14', '2026-04-14']);
    assert.deepEqual(range('last 3 months'), ['2026-01-16', '2026-04-15']);
    assert.deepEqual(range('q4'), ['2025-10-01', '2025-12-31']);
    assert.deepEqual(range('q2'), ['2026-04-01', '2026-04-15']);
    assert.deepEqual(range('from november to february'), ['2025-11-01', '2026-02-28']);
    assert.deepEqual(range('between 2024-02-01 and 2024-02-29'), ['2024-02-01', '2024-02-29']);
    assert.deepEqual(range('this year compared to last year'), ['2026-01-01', '2026-04-15'], 'the first phrase wins');
    assert.equal(range('may i see the numbers'), undefined, '"may" alone is a verb');
    assert.equal(range('top 5 products'), undefined);
    assert.deepEqual(range('last weekend'), ['2026-04-11', '2026-04-12']);
    assert.deepEqual(range('the last 24 hours'), ['2026-04-14', '2026-04-15']);
    assert.deepEqual(range('the past fortnight'), ['2026-04-02', '2026-04-15']);
    assert.deepEqual(range('in january and february'), ['2026-01-01', '2026-02-28']);
  });

  test('metric words and synonyms choose the insight; totals choose the KPI', () => {
    assert.equal(query('turnover by month').insight_code, 'revenue');
    assert.equal(query('GMV per day').insight_code, 'revenue');
    assert.equal(query('basket size by week').insight_code, 'average_order_value');
    assert.equal(query('AOV').insight_code, 'average_order_value');
    assert.equal(query('first-time buyers').insight_code, 'new_customers');
    assert.equal(query('returns last month').insight_code, 'refund_rate');
    assert.equal(query('conversion this week').insight_code, 'conversion_rate');
    assert.equal(query('how many orders last week').insight_code, 'orders_kpi');
    assert.equal(query('orders per day last week').insight_code, 'orders_count');
    assert.equal(query('total revenue this year').insight_code, 'revenue_kpi');
    assert.equal(query('sales by country').insight_code, 'revenue_by_country');
    assert.equal(query('which channel sells best').insight_code, 'revenue_by_channel');
    assert.equal(query('best sellers').insight_code, 'top_products');
    assert.equal(query('which product categories sell best').insight_code, 'top_categories');
    assert.equal(
      query('How much did we sell to customers in Germany?').insight_code,
      'revenue_kpi',
      '"customers" alone yields to a sales word',
    );
    assert.equal(query('how many customers in France').insight_code, 'new_customers');
    assert.equal(query('how many sessions did we have').insight_code, 'conversion_rate');
    assert.equal(query('How are we doing?').insight_code, 'revenue_kpi');
  });

  test('countries by name, adjective or code; channels; categories; granularity; top-N', () => {
    assert.deepEqual(query('Revenue in Germany by week'), { insight_code: 'revenue', granularity: 'week', filters: { country: 'DE' } });
    assert.deepEqual(query('German sales').filters, { country: 'DE' });
    assert.deepEqual(query('orders from FR').filters, { country: 'FR' });
    assert.deepEqual(query('revenue in the UK').filters, { country: 'GB' });
    assert.deepEqual(query('revenue is it up').filters, undefined, 'IT as a word is not Italy');
    assert.deepEqual(query('orders on the mobile app').filters, { channel: 'mobile' });
    assert.deepEqual(query('amazon orders').filters, { channel: 'marketplace' });
    assert.deepEqual(query('in-store revenue').filters, { channel: 'retail' });
    assert.deepEqual(query('top 3 products in pet supplies'), {
      insight_code: 'top_products',
      filters: { category: 'Pet Supplies' },
      limit: 3,
    });
    assert.deepEqual(query('top ten products in the kitchen category'), {
      insight_code: 'top_products',
      filters: { category: 'Home & Kitchen' },
      limit: 10,
    });
    assert.deepEqual(
      query('revenue from toys'),
      { insight_code: 'top_categories', filters: { category: 'Toys' } },
      'revenue of a category is its breakdown row',
    );
    assert.equal(query('quarterly sales').granularity, 'quarter');
    assert.deepEqual(query('revenue yoy'), { insight_code: 'revenue_kpi', compare: 'previous_year' }, 'YoY compares; it is no granularity');
    assert.equal(query('top 500 products').limit, 100, 'clamped to the insight maximum');
    assert.deepEqual(
      query('compare mobile and web revenue'),
      { insight_code: 'revenue_by_channel', filters: { channel: ['mobile', 'web'] } },
      'two channels ask for the breakdown of those two',
    );
  });

  test('comparisons and several values: the questions of docs/chat.md', () => {
    const cases: [string, Record<string, unknown>][] = [
      [
        'sales this week vs last week',
        { insight_code: 'revenue_kpi', date_from: '2026-04-13', date_to: '2026-04-15', compare: 'previous_period' },
      ],
      ['orders per month compared with last year', { insight_code: 'orders_count', granularity: 'month', compare: 'previous_year' }],
      ['revenue MoM', { insight_code: 'revenue_kpi', date_from: '2026-04-01', date_to: '2026-04-15', compare: 'previous_period' }],
      [
        'AOV month over month',
        {
          insight_code: 'average_order_value',
          granularity: 'month',
          date_from: '2026-04-01',
          date_to: '2026-04-15',
          compare: 'previous_period',
        },
      ],
      [
        'YTD revenue vs last year',
        { insight_code: 'revenue_kpi', date_from: '2026-01-01', date_to: '2026-04-15', compare: 'previous_year' },
      ],
      ['Spain vs Italy sales by week', { insight_code: 'revenue', granularity: 'week', filters: { country: ['ES', 'IT'] } }],
      [
        'mobile and marketplace revenue per month',
        { insight_code: 'revenue', granularity: 'month', filters: { channel: ['mobile', 'marketplace'] } },
      ],
      ['revenue in Spain, Italy and Portugal', { insight_code: 'revenue_by_country', filters: { country: ['ES', 'IT', 'PT'] } }],
      [
        'revenue by country this year vs last year',
        { insight_code: 'revenue_by_country', date_from: '2026-01-01', date_to: '2026-04-15', compare: 'previous_year' },
      ],
      [
        'top products last month compared to the previous month',
        { insight_code: 'top_products', date_from: '2026-03-01', date_to: '2026-03-31', compare: 'previous_period' },
      ],
      // A window, not a comparison: no comparing word before "last year".
      ['revenue last year', { insight_code: 'revenue', date_from: '2025-01-01', date_to: '2025-12-31' }],
      ['average order value over the last year', { insight_code: 'average_order_value', date_from: '2025-04-16', date_to: '2026-04-15' }],
    ];
    for (const [q, want] of cases) assert.deepEqual(query(q), want, q);
  });

  test('what an insight does not take is dropped with a note', () => {
    const ex = parse('top 5 products excluding electronics');
    assert.ok(ex.kind === 'query');
    if (ex.kind === 'query') {
      assert.deepEqual(ex.query, { insight_code: 'top_products', limit: 5 }, 'an exclusion never becomes the filter');
      assert.match(ex.notes.join(), /excluding a category is not supported/);
    }
    const r = parse('refund rate by week for electronics');
    assert.equal(r.kind, 'query');
    if (r.kind !== 'query') return;
    assert.deepEqual(r.query, { insight_code: 'refund_rate', granularity: 'week' });
    assert.match(r.notes.join(' '), /category filter \(Electronics\) does not apply/);
    const b = parse('top products by month');
    assert.ok(b.kind === 'query' && b.query.granularity === undefined && /no month breakdown/.test(b.notes.join()));
  });

  test('follow-ups change the last query', () => {
    const first = query('Revenue in Germany last quarter');
    assert.deepEqual(first, { insight_code: 'revenue', filters: { country: 'DE' }, date_from: '2026-01-01', date_to: '2026-03-31' });
    const fr = query('and in France?', first);
    assert.deepEqual(fr, { ...first, filters: { country: 'FR' } });
    const monthly = query('by month instead', fr);
    assert.deepEqual(monthly, { ...fr, granularity: 'month' });
    assert.deepEqual(query('what about orders?', monthly), { ...monthly, insight_code: 'orders_count' });
    assert.deepEqual(query('and for all countries?', monthly), {
      insight_code: 'revenue',
      granularity: 'month',
      date_from: '2026-01-01',
      date_to: '2026-03-31',
    });
    const kpi = query('how many orders last week');
    assert.deepEqual(query('and revenue?', kpi), { insight_code: 'revenue_kpi', date_from: '2026-04-06', date_to: '2026-04-12' });
    assert.deepEqual(query('by day instead', kpi), {
      insight_code: 'orders_count',
      granularity: 'day',
      date_from: '2026-04-06',
      date_to: '2026-04-12',
    });
    assert.deepEqual(query('and the week before?', kpi).date_from, '2026-03-30');
    const top = query('top 5 products last month');
    assert.deepEqual(query('top 10 instead', top).limit, 10);
    // a full new question starts afresh
    assert.deepEqual(query('conversion rate this week', monthly), {
      insight_code: 'conversion_rate',
      date_from: '2026-04-13',
      date_to: '2026-04-15',
    });
    assert.equal(parse('thanks!', monthly).kind, 'unmatched');
  });

  test('questions about nothing in the catalog do not map', () => {
    for (const q of [
      'hello',
      'Tell me a joke',
      'What is the capital of France?',
      'How do I reset my password?',
      'show me something interesting',
    ]) {
      assert.equal(parse(q).kind, 'unmatched', q);
    }
  });
});

describe('honest answers', () => {
  test('a measure, grouping, period or window the model cannot answer is refused, naming it', () => {
    const cases: [string, string, string][] = [
      ['return on ad spend by campaign', 'measure', 'return on ad spend'],
      ['ROAS last month', 'measure', 'roas'],
      ['gross margin by month', 'measure', 'gross margin'],
      ['customer lifetime value', 'measure', 'customer lifetime value'],
      ['revenue by campaign', 'dimension', 'campaign'],
      ['orders per city last year', 'dimension', 'city'],
      ['sales broken down by brand', 'dimension', 'brand'],
      ['orders by hour yesterday', 'granularity', 'hour'],
      ['hourly revenue', 'granularity', 'hourly'],
      ['revenue next month', 'future', 'next month'],
      ['revenue forecast for Q3', 'future', 'forecast'],
      ['revenue in 2030', 'future', 'in 2030'],
    ];
    for (const [q, reason, term] of cases) {
      const r = parse(q);
      assert.equal(r.kind, 'refused', q);
      if (r.kind === 'refused') assert.deepEqual([r.refusal.reason, r.refusal.term], [reason, term], q);
    }
    // The demo's own words are never refused: returns are the refund rate, sessions the conversion rate.
    assert.equal(query('returns last month').insight_code, 'refund_rate');
    assert.equal(query('sessions by channel').insight_code, 'conversion_rate');
    assert.equal(query('top 5 products by revenue').insight_code, 'top_products');
  });

  test('a term the model defines is answered: churn and MRR in a subscription model', () => {
    const words = {
      insights: [
        {
          code: 'churn',
          kind: 'timeseries' as const,
          measures: ['churn', 'churned accounts'],
          dimensions: [],
          measure: 'churned',
          names: ['churn'],
        },
        {
          code: 'mrr',
          kind: 'timeseries' as const,
          measures: ['mrr', 'monthly recurring revenue'],
          dimensions: [],
          measure: 'mrr',
          names: ['mrr'],
        },
      ],
      filters: [],
    };
    const cat: ParserInsight[] = ['churn', 'mrr'].map((code) => ({ code, kind: 'timeseries', granularities: ALL, filters: [] }));
    const r = parseQuestion('churn by month', { today, catalog: cat, categories: [], words });
    assert.ok(r.kind === 'query' && r.query.insight_code === 'churn');
    assert.ok(parseQuestion('MRR last year', { today, catalog: cat, categories: [], words }).kind === 'query');
    assert.equal(parseQuestion('ROAS last year', { today, catalog: cat, categories: [], words }).kind, 'refused');
  });

  test('two insights matched equally: the first answers, saying so; the other is an alternative', () => {
    const words = {
      insights: [
        {
          code: 'gross_sales',
          kind: 'timeseries' as const,
          measures: ['gross sales', 'sales volume'],
          dimensions: [],
          measure: 'gross',
          names: ['gross sales'],
        },
        {
          code: 'net_sales',
          kind: 'timeseries' as const,
          measures: ['net sales', 'sales volume'],
          dimensions: [],
          measure: 'net',
          names: ['net sales'],
        },
      ],
      filters: [],
    };
    const cat: ParserInsight[] = ['gross_sales', 'net_sales'].map((code) => ({
      code,
      kind: 'timeseries',
      granularities: ALL,
      filters: [],
    }));
    const r = parseQuestion('sales volume by month', { today, catalog: cat, categories: [], words });
    assert.ok(r.kind === 'query');
    if (r.kind === 'query') {
      assert.equal(r.query.insight_code, 'gross_sales');
      assert.deepEqual(r.alternatives, [{ insight_code: 'net_sales', granularity: 'month' }]);
      assert.match(r.notes.join(' '), /matches gross sales and net sales equally; this is gross sales/);
    }
    // Named whole, there is no tie.
    const named = parseQuestion('net sales by month', { today, catalog: cat, categories: [], words });
    assert.ok(named.kind === 'query' && named.query.insight_code === 'net_sales' && !named.alternatives);
  });
});

describe('languages', () => {
  test('the language is told apart by its words; English stays English', async () => {
    const { detectLanguage } = await import('../../../src/modules/chat/language/languages.ts');
    assert.equal(detectLanguage('Umsatz nach Woche in diesem Quartal'), 'de');
    assert.equal(detectLanguage("Chiffre d'affaires par semaine ce trimestre"), 'fr');
    assert.equal(detectLanguage('Ventas por semana este trimestre'), 'es');
    assert.equal(detectLanguage('revenue by week this quarter'), 'en');
    assert.equal(detectLanguage('top 5 products'), 'en');
  });

  test('German, French and Spanish grammar, months, numbers and CLDR country names read as English', () => {
    const cases: [string, string, StructuredQuery][] = [
      [
        'Umsatz nach Woche in diesem Quartal',
        'de',
        { insight_code: 'revenue', granularity: 'week', date_from: '2026-04-01', date_to: '2026-04-15' },
      ],
      [
        'Bestellungen pro Monat im Vergleich zum Vorjahr',
        'de',
        { insight_code: 'orders_count', granularity: 'month', compare: 'previous_year' },
      ],
      [
        'Umsatz in Frankreich seit März',
        'de',
        { insight_code: 'revenue', filters: { country: 'FR' }, date_from: '2026-03-01', date_to: '2026-04-15' },
      ],
      ['Umsatz in den letzten 30 Tagen', 'de', { insight_code: 'revenue', date_from: '2026-03-17', date_to: '2026-04-15' }],
      [
        'Ventes en Espagne le mois dernier',
        'fr',
        { insight_code: 'revenue', filters: { country: 'ES' }, date_from: '2026-03-01', date_to: '2026-03-31' },
      ],
      [
        "Commandes par mois par rapport à l'année dernière",
        'fr',
        { insight_code: 'orders_count', granularity: 'month', compare: 'previous_year' },
      ],
      ['Top 5 des produits en janvier', 'fr', { insight_code: 'top_products', date_from: '2026-01-01', date_to: '2026-01-31', limit: 5 }],
      [
        'Ventas en Italia y Alemania por semana',
        'es',
        { insight_code: 'revenue', granularity: 'week', filters: { country: ['IT', 'DE'] } },
      ],
      ['Pedidos por mes frente al año pasado', 'es', { insight_code: 'orders_count', granularity: 'month', compare: 'previous_year' }],
      ['Nuevos clientes desde febrero', 'es', { insight_code: 'new_customers', date_from: '2026-02-01', date_to: '2026-04-15' }],
    ];
    for (const [q, language, want] of cases) {
      const r = parse(q);
      assert.equal(r.language, language, q);
      assert.ok(r.kind === 'query', q);
      if (r.kind === 'query') assert.deepEqual(r.query, want, q);
    }
  });

  test("numbers written either way, and refusals named in the question's words", async () => {
    const { toEnglish } = await import('../../../src/modules/chat/language/languages.ts');
    assert.match(toEnglish('Umsatz über 1.234,5 Euro', 'de'), /1234\.5/);
    assert.match(toEnglish('ventes de plus de 1 234,5 euros', 'fr'), /1234\.5/);
    assert.match(toEnglish('ventas de 12,5', 'es'), /12\.5/);
    const r = parse('Umsatz nach Kampagne');
    assert.ok(r.kind === 'refused' && r.language === 'de');
    if (r.kind === 'refused') assert.deepEqual([r.refusal.reason, r.refusal.term], ['dimension', 'Kampagne']);
    const f = parse('ventas el próximo mes');
    assert.ok(f.kind === 'refused' && f.refusal.term === 'el próximo mes');
  });

  test("a model's titles and synonyms per language: its words are read in that language", () => {
    const words = {
      insights: [{ code: 'mrr', kind: 'timeseries' as const, measures: ['mrr'], dimensions: [], measure: 'mrr', names: ['mrr'] }],
      filters: [],
    };
    const cat: ParserInsight[] = [{ code: 'mrr', kind: 'timeseries', granularities: ALL, filters: [] }];
    const translations = {
      key: 't',
      tables: {
        de: [['wiederkehrender umsatz', 'mrr']] as [string, string][],
        es: [['ingresos recurrentes', 'mrr']] as [string, string][],
      },
    };
    const de = parseQuestion('Wiederkehrender Umsatz nach Monat', { today, catalog: cat, categories: [], words, translations });
    assert.ok(de.kind === 'query' && de.query.insight_code === 'mrr' && de.query.granularity === 'month' && de.language === 'de');
    const es = parseQuestion('Ingresos recurrentes por trimestre', { today, catalog: cat, categories: [], words, translations });
    assert.ok(es.kind === 'query' && es.query.insight_code === 'mrr' && es.query.granularity === 'quarter');
  });
});

describe('grammar over any model (issue: chat learns the model, not the demo)', () => {
  test('two periods compared are the window and its comparison; "from … to …" is one window', () => {
    assert.deepEqual(query('revenue 2025 vs 2024'), {
      insight_code: 'revenue_kpi',
      date_from: '2025-01-01',
      date_to: '2025-12-31',
      compare: 'previous_year',
    });
    assert.deepEqual(query('compare orders in 2025 with 2024'), {
      insight_code: 'orders_kpi',
      date_from: '2025-01-01',
      date_to: '2025-12-31',
      compare: 'previous_year',
    });
    assert.deepEqual(query('orders in march vs february'), {
      insight_code: 'orders_kpi',
      date_from: '2026-03-01',
      date_to: '2026-03-31',
      compare: 'previous_period',
    });
    assert.deepEqual(query('revenue from 2023 to 2025'), { insight_code: 'revenue', date_from: '2023-01-01', date_to: '2025-12-31' });
    assert.deepEqual(range('movies of 1997'), ['1997-01-01', '1997-12-31']);
    assert.deepEqual(range('in january of 2001'), ['2001-01-01', '2001-01-31']);
  });

  test('a measure the model lacks is refused in the question’s words; the weather gets the help', () => {
    const churn = parse('how many customers churned');
    assert.equal(churn.kind, 'refused');
    assert.equal((churn as { refusal: { term: string } }).refusal.term, 'churned');
    const de = parse('Wie viele Kunden sind abgewandert?');
    assert.equal(de.kind, 'refused');
    assert.equal((de as { refusal: { term: string } }).refusal.term, 'abgewandert');
    assert.equal(parse('what is the weather forecast for tomorrow?').kind, 'unmatched');
    assert.equal(parse('revenue forecast for next month').kind, 'refused');
  });

  test('"how many … do we have" asks about all of the data', () => {
    const r = parse('how many orders do we have');
    assert.equal(r.kind, 'query');
    assert.equal((r as { allData?: boolean }).allData, true);
    assert.equal((parse('how many orders last week') as { allData?: boolean }).allData, undefined);
  });
});
