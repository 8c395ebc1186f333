// The demo warehouse generator. JS plans how many orders fall on each day (growth, seasonality,
// weekly cycle, noise); the rows themselves are generated inside the engine with SQL, from a
// 32-bit integer hash of each row's sequence number. Integer arithmetic only, so DuckDB and
// PostgreSQL produce the very same rows, and 10M orders take seconds, not a JS loop.
import { newId } from '../../lib/ids.ts';
import { ADJECTIVES, BRANDS, CATEGORIES, HOURS, profileFor, type TenantProfile } from './profiles.ts';
import { warehouseDdl, type DemoSeeded, type DialectName, type SeedOptions, type Warehouse } from '../warehouse.ts';

export type { DemoSeeded, SeedOptions } from '../warehouse.ts';

export const DEFAULT_SEED_ROWS = 200_000;
export const DEFAULT_TENANTS = ['demo', 'acme'];

const DAY_MS = 86_400_000;

/** A deterministic hash for the plan's noise (JS side only). */
function noise(n: number): number {
  let x = (n ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

interface DayPlan {
  tenantNo: number;
  dayNo: number;
  day: string;
  n: number;
  firstSeq: number;
}

function dayWeight(p: TenantProfile, tenantNo: number, dayNo: number, t: number): number {
  const d = new Date(dayNo * DAY_MS);
  const doy = Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS);
  const growth = (1 + p.growthPerYear) ** (t / 365);
  // Yearly cycle peaking in December, a summer dip, and the Black Friday / Cyber Monday week.
  const season = 1 + 0.18 * Math.cos((2 * Math.PI * (doy - 350)) / 365) + (d.getUTCMonth() === 10 && d.getUTCDate() >= 24 ? 0.45 : 0);
  const weekly = p.weekly[(d.getUTCDay() + 6) % 7];
  const jitter = 0.9 + 0.2 * noise(dayNo * 31 + tenantNo);
  return growth * season * weekly * jitter;
}

/** Orders per tenant and day; each tenant's counts sum exactly to its share of the rows. */
export function planDays(profiles: TenantProfile[], rows: number, endDay: string, days: number): { plans: DayPlan[]; perTenant: number[] } {
  const endNo = Math.floor(Date.parse(`${endDay}T00:00:00Z`) / DAY_MS);
  const totalWeight = profiles.reduce((s, p) => s + p.weight, 0);
  const perTenant: number[] = [];
  let assigned = 0;
  profiles.forEach((p, i) => {
    const n = i === profiles.length - 1 ? rows - assigned : Math.round((rows * p.weight) / totalWeight);
    perTenant.push(n);
    assigned += n;
  });
  const plans: DayPlan[] = [];
  let seq = 1;
  profiles.forEach((p, tenantNo) => {
    const weights: number[] = [];
    for (let t = 0; t < days; t++) weights.push(dayWeight(p, tenantNo, endNo - days + 1 + t, t));
    const sum = weights.reduce((a, b) => a + b, 0);
    let cum = 0;
    let given = 0;
    for (let t = 0; t < days; t++) {
      cum += weights[t];
      const upTo = Math.round((cum / sum) * perTenant[tenantNo]);
      const n = upTo - given;
      given = upTo;
      const dayNo = endNo - days + 1 + t;
      plans.push({ tenantNo, dayNo, day: new Date(dayNo * DAY_MS).toISOString().slice(0, 10), n, firstSeq: seq });
      seq += n;
    }
  });
  return { plans, perTenant };
}

/** Deterministic price for a product of a category, in cents, skewed towards cheap items. */
function productRows(profiles: TenantProfile[]): { sql: string; count: number } {
  const values: string[] = [];
  profiles.forEach((p, tenantNo) => {
    for (let i = 0; i < p.products; i++) {
      const r = (k: number) => noise(tenantNo * 1_000_003 + i * 7 + k);
      const cat = CATEGORIES[Math.floor(r(1) * CATEGORIES.length)];
      const brand = BRANDS[Math.floor(r(2) * BRANDS.length)];
      const adj = ADJECTIVES[Math.floor(r(3) * ADJECTIVES.length)];
      const noun = cat.nouns[Math.floor(r(4) * cat.nouns.length)];
      const price = Math.round(cat.minCents + (cat.maxCents - cat.minCents) * r(5) * r(5));
      const name = `${brand} ${adj} ${noun} ${100 + i}`.replace(/'/g, "''");
      values.push(
        `(${tenantNo * 1_000_000 + i + 1}, '${p.id.replace(/'/g, "''")}', ${tenantNo}, '${name}', ` +
          `'${cat.name.replace(/'/g, "''")}', '${brand}', ${price})`,
      );
    }
  });
  return { sql: values.join(',\n'), count: values.length };
}

interface Sql {
  xor(a: string, b: string): string;
  div(a: string, b: string): string;
  /** ts (TIMESTAMP or DATE) + seconds → TIMESTAMP */
  addSeconds(ts: string, secs: string): string;
  /** rows of `table` expanded by 0 … n-1 as column `name` */
  expand(table: string, alias: string, n: string, name: string): string;
  hashFunction: string;
  dropHash: string;
  text: string;
  finish: string;
}

const MIX = (x: string, d: Sql) => `((${d.xor(`(${x}) >> 16`, x)} * 73244475) % 4294967296)`;

const SQL: Record<Exclude<DialectName, 'clickhouse'>, Sql> = {
  duckdb: {
    xor: (a, b) => `xor(${a}, ${b})`,
    div: (a, b) => `((${a}) // (${b}))`,
    addSeconds: (ts, s) => `(CAST(${ts} AS TIMESTAMP) + to_seconds(CAST(${s} AS BIGINT)))`,
    expand: (t, a, n, name) => `${t} ${a}, range(${n}) AS r_${name}(${name})`,
    get hashFunction() {
      return (
        `CREATE OR REPLACE TEMP MACRO ins_mix(x) AS ${MIX('x', this)};\n` +
        `CREATE OR REPLACE TEMP MACRO ins_h(x) AS ` +
        `${this.xor('ins_mix(ins_mix((x) % 4294967296)) >> 16', 'ins_mix(ins_mix((x) % 4294967296))')};`
      );
    },
    dropHash: 'DROP MACRO IF EXISTS ins_h; DROP MACRO IF EXISTS ins_mix;',
    text: 'VARCHAR',
    finish: '',
  },
  postgres: {
    xor: (a, b) => `((${a}) # (${b}))`,
    div: (a, b) => `((${a}) / (${b}))`,
    addSeconds: (ts, s) => `(CAST(${ts} AS timestamp) + make_interval(secs => ${s}))`,
    expand: (t, a, n, name) => `${t} ${a} CROSS JOIN LATERAL generate_series(0, ${n} - 1) AS ${name}`,
    // PL/pgSQL keeps the three mixing rounds as variables; an SQL expression would repeat x eight times.
    get hashFunction() {
      return `CREATE OR REPLACE FUNCTION ins_h(x bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE y bigint := x % 4294967296;
BEGIN
  y := (((y >> 16) # y) * 73244475) % 4294967296;
  y := (((y >> 16) # y) * 73244475) % 4294967296;
  RETURN (y >> 16) # y;
END $f$;`;
    },
    dropHash: 'DROP FUNCTION IF EXISTS ins_h(bigint);',
    text: 'text',
    // Scans by tenant and time, and the item → order join; statistics so the planner picks hash joins.
    finish: `CREATE INDEX IF NOT EXISTS orders_tenant_time ON orders (tenant_id, ordered_at);
CREATE INDEX IF NOT EXISTS order_items_tenant_order ON order_items (tenant_id, order_id);
CREATE INDEX IF NOT EXISTS orders_tenant_order ON orders (tenant_id, order_id);
CREATE INDEX IF NOT EXISTS web_sessions_tenant_day ON web_sessions (tenant_id, day);
ANALYZE orders; ANALYZE order_items; ANALYZE products; ANALYZE customers; ANALYZE web_sessions;`,
  },
};

/** CASE mapping a per-mille draw to a label by cumulative weights, per tenant. */
function pick(draw: string, tenantExpr: string, perTenant: [string, number][][]): string {
  const arms = perTenant.map((items, tenantNo) => {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let cum = 0;
    const whens = items.map(([label, w], i) => {
      cum += w;
      const bound = Math.round((cum / total) * 1000);
      return i === items.length - 1 ? `ELSE '${label}'` : `WHEN ${draw} < ${bound} THEN '${label}'`;
    });
    return `WHEN ${tenantExpr} = ${tenantNo} THEN CASE ${whens.join(' ')} END`;
  });
  return `CASE ${arms.join(' ')} END`;
}

function hourCase(draw: string): string {
  let cum = 0;
  const whens = HOURS.map((w, h) => {
    cum += w;
    return h === HOURS.length - 1 ? `ELSE ${h}` : `WHEN ${draw} < ${cum} THEN ${h}`;
  });
  return `CASE ${whens.join(' ')} END`;
}

/** The full generation script for one dialect (one round trip, so temp objects share a session). */
export function seedScript(
  dialect: Exclude<DialectName, 'clickhouse'>,
  opts: SeedOptions,
): { sql: string; version: string; perTenant: Record<string, number> } {
  const d = SQL[dialect];
  const days = opts.days ?? 730;
  const profiles = opts.tenants.map((t, i) => profileFor(t, i));
  const { plans, perTenant } = planDays(profiles, opts.rows, opts.endDay, days);
  const products = productRows(profiles);
  const version = newId();
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const tenantList = profiles.map((p) => q(p.id)).join(', ');
  const tenantFirst = profiles.map((_, i) => plans.find((p) => p.tenantNo === i)!.firstSeq);

  const dayValues = plans
    .filter((p) => p.n > 0)
    .map(
      (p) =>
        `(${p.tenantNo}, ${q(profiles[p.tenantNo].id)}, CAST('${p.day}' AS DATE), ${p.dayNo}, ${p.n}, ${p.firstSeq}, ` +
        `${tenantFirst[p.tenantNo]}, ${Math.max(perTenant[p.tenantNo], 1)}, ` +
        `${Math.max(1, Math.round(perTenant[p.tenantNo] * profiles[p.tenantNo].customerRatio))}, ` +
        `${profiles[p.tenantNo].products})`,
    );
  const weightTotal = (p: TenantProfile) => p.countries.reduce((a, [, w]) => a + w, 0) * p.channels.reduce((a, [, w]) => a + w, 0);
  const allDays = plans.map(
    (p) =>
      `(${p.tenantNo}, ${q(profiles[p.tenantNo].id)}, CAST('${p.day}' AS DATE), ${p.dayNo}, ${p.n}, ${weightTotal(profiles[p.tenantNo])})`,
  );
  const countryValues = profiles.flatMap((p, t) => p.countries.map(([c, w], i) => `(${t}, ${i}, '${c}', ${w})`));
  const channelValues = profiles.flatMap((p, t) => p.channels.map(([c, w, conv], i) => `(${t}, ${i}, '${c}', ${w}, ${conv})`));
  const countryPick = pick(
    '(ins_h(o.customer_id * 16 + 5) % 1000)',
    'o.tenant_no',
    profiles.map((p) => p.countries),
  );
  const channelPick = pick(
    '(o.h2 % 1000)',
    'o.tenant_no',
    profiles.map((p) => p.channels.map(([c, w]) => [c, w] as [string, number])),
  );
  const statusCase = `CASE ${profiles
    .map(
      (p, t) =>
        `WHEN o.tenant_no = ${t} THEN CASE WHEN o.h3 % 1000 < ${p.refundedPermille} THEN 'refunded' WHEN o.h3 % 1000 ` +
        `< ${p.refundedPermille + p.cancelledPermille} THEN 'cancelled' ELSE 'completed' END`,
    )
    .join(' ')} END`;
  const T = d.text;

  const sql = `
${warehouseDdl(dialect)}
${d.hashFunction}
DROP TABLE IF EXISTS gen_days; DROP TABLE IF EXISTS gen_all_days; DROP TABLE IF EXISTS gen_products; DROP TABLE IF EXISTS gen_countries;
DROP TABLE IF EXISTS gen_channels; DROP TABLE IF EXISTS gen_orders; DROP TABLE IF EXISTS gen_lines;
CREATE TEMP TABLE gen_days (tenant_no integer, tenant_id ${T}, day date, day_no bigint, n bigint, first_seq bigint,
  tenant_first bigint, tenant_n bigint, tenant_c bigint, tenant_p bigint);
${dayValues.length ? `INSERT INTO gen_days VALUES ${dayValues.join(',\n')};` : ''}
CREATE TEMP TABLE gen_all_days (tenant_no integer, tenant_id ${T}, day date, day_no bigint, n bigint, wsum bigint);
INSERT INTO gen_all_days VALUES ${allDays.join(',\n')};
CREATE TEMP TABLE gen_products (product_id bigint, tenant_id ${T}, tenant_no integer, name ${T}, category ${T}, brand ${T},
  price_cents bigint);
INSERT INTO gen_products VALUES ${products.sql};
CREATE TEMP TABLE gen_countries (tenant_no integer, idx integer, country ${T}, w bigint);
INSERT INTO gen_countries VALUES ${countryValues.join(', ')};
CREATE TEMP TABLE gen_channels (tenant_no integer, idx integer, channel ${T}, w bigint, conv bigint);
INSERT INTO gen_channels VALUES ${channelValues.join(', ')};

-- One row per order: its sequence number and independent hash streams.
CREATE TEMP TABLE gen_orders AS
SELECT e.seq, e.tenant_no, e.tenant_id, e.day, e.p, e.tenant_n, e.tenant_c, e.tenant_p,
  ins_h(e.seq * 16 + 1) AS h1, ins_h(e.seq * 16 + 2) AS h2, ins_h(e.seq * 16 + 3) AS h3,
  ins_h(e.seq * 16 + 4) AS h4, ins_h(e.seq * 16 + 5) AS h5, ins_h(e.seq * 16 + 6) AS h6, ins_h(e.seq * 16 + 7) AS h7
FROM (SELECT g.tenant_no, g.tenant_id, g.day, g.tenant_n, g.tenant_c, g.tenant_p,
        g.first_seq + k AS seq, g.first_seq + k - g.tenant_first AS p
      FROM ${d.expand('gen_days', 'g', 'g.n', 'k')}) e;

-- Repeat customers: order p picks among the customers acquired so far (the pool grows with p).
-- Country belongs to the customer, channel and status to the order; 1–4 lines per order.
CREATE TEMP TABLE gen_lines AS
SELECT o.seq, o.tenant_id, o.tenant_no, o.h7, o.customer_id, o.ordered_at, o.channel, o.status, line,
  gp.product_id, gp.price_cents,
  CASE WHEN ((lh >> 20) % 100) < 80 THEN 1 WHEN ((lh >> 20) % 100) < 95 THEN 2 ELSE 3 END AS quantity
FROM (
  SELECT o.*, line, ins_h(o.seq * 16 + 8 + line) AS lh
  FROM ${d.expand(
    `(SELECT gen_orders.*,
      gen_orders.tenant_no * 1000000000
        + (gen_orders.h1 % (${d.div('gen_orders.p * gen_orders.tenant_c', 'gen_orders.tenant_n')} + 1)) + 1 AS customer_id,
      ${d.addSeconds('gen_orders.day', `${hourCase('(gen_orders.h4 % 1000)')} * 3600 + gen_orders.h5 % 3600`)} AS ordered_at,
      ${channelPick.replace(/o\./g, 'gen_orders.')} AS channel,
      ${statusCase.replace(/o\./g, 'gen_orders.')} AS status,
      CASE WHEN gen_orders.h6 % 100 < 60 THEN 1 WHEN gen_orders.h6 % 100 < 85 THEN 2 WHEN gen_orders.h6 % 100 < 95 THEN 3
        ELSE 4 END AS lines
    FROM gen_orders)`,
    'o',
    'o.lines',
    'line',
  )}
) o
-- A long tail: product rank grows with the square of a uniform draw.
JOIN gen_products gp ON gp.product_id = o.tenant_no * 1000000
  + ${d.div(`${d.div('(o.lh % 1000000) * (o.lh % 1000000)', '1000000')} * o.tenant_p`, '1000000')} + 1;

BEGIN;
DELETE FROM orders WHERE tenant_id IN (${tenantList});
DELETE FROM order_items WHERE tenant_id IN (${tenantList});
DELETE FROM products WHERE tenant_id IN (${tenantList});
DELETE FROM customers WHERE tenant_id IN (${tenantList});
DELETE FROM web_sessions WHERE tenant_id IN (${tenantList});

INSERT INTO products SELECT product_id, tenant_id, name, category, brand FROM gen_products;

INSERT INTO order_items
SELECT seq, tenant_id, product_id, quantity, CAST(price_cents / 100.0 AS DECIMAL(10,2)) FROM gen_lines ORDER BY seq, line;

-- Discounts: 20% of orders get 10% off, 5% get 20% off.
INSERT INTO orders
SELECT seq, tenant_id, customer_id, ordered_at, ${countryPick}, channel, status, items,
  CAST((gross - discount) / 100.0 AS DECIMAL(12,2)), CAST(discount / 100.0 AS DECIMAL(12,2))
FROM (
  SELECT seq, tenant_id, tenant_no, customer_id, ordered_at, channel, status, items, gross,
    ${d.div('gross * CASE WHEN h7 % 100 < 20 THEN 10 WHEN h7 % 100 < 25 THEN 20 ELSE 0 END', '100')} AS discount
  FROM (SELECT seq, min(tenant_id) AS tenant_id, min(tenant_no) AS tenant_no, min(customer_id) AS customer_id,
          min(ordered_at) AS ordered_at, min(channel) AS channel, min(status) AS status, min(h7) AS h7,
          CAST(sum(quantity) AS BIGINT) AS items, CAST(sum(quantity * price_cents) AS BIGINT) AS gross
        FROM gen_lines GROUP BY seq) a
) o
ORDER BY ordered_at, seq;

INSERT INTO customers
SELECT customer_id, min(tenant_id), ${d.addSeconds(
    'min(ordered_at)',
    `-((ins_h(customer_id * 16 + 9) % 60) * 86400 + ins_h(customer_id * 16 + 10) % 86400)`,
  )}, min(country)
FROM orders WHERE tenant_id IN (${tenantList}) GROUP BY customer_id;

-- Sessions per day, country and channel: the day's orders over the channel's conversion, ±10%.
INSERT INTO web_sessions
SELECT g.tenant_id, g.day, c.country, ch.channel,
  CAST(${d.div(
    `g.n * c.w * ch.w * 10 * (900 + ins_h(g.day_no * 4096 + g.tenant_no * 256 + c.idx * 16 + ch.idx) % 200)`,
    'g.wsum * ch.conv',
  )} + 1 + ins_h(g.day_no * 4096 + g.tenant_no * 256 + c.idx * 16 + ch.idx + 7) % 7 AS integer)
FROM gen_all_days g
JOIN gen_countries c ON c.tenant_no = g.tenant_no
JOIN gen_channels ch ON ch.tenant_no = g.tenant_no
ORDER BY g.day, g.tenant_no, c.idx, ch.idx;

DELETE FROM warehouse_meta;
INSERT INTO warehouse_meta VALUES (1, '${version}',
  CAST('${opts.now.toISOString().replace('T', ' ').replace('Z', '')}' AS TIMESTAMP), ${opts.rows},
  '${opts.tenants.join(',').replace(/'/g, "''")}', CAST('${opts.endDay}' AS DATE));
COMMIT;

DROP TABLE gen_lines; DROP TABLE gen_orders; DROP TABLE gen_days; DROP TABLE gen_all_days; DROP TABLE gen_products;
DROP TABLE gen_countries; DROP TABLE gen_channels;
${d.dropHash}
${d.finish}
`;
  return { sql, version, perTenant: Object.fromEntries(profiles.map((p, i) => [p.id, perTenant[i]])) };
}

/** (Re)generates the demo data of the given tenants; other tenants' rows stay (each engine's seedDemo). */
export function seedDemo(warehouse: Warehouse, opts: SeedOptions): Promise<DemoSeeded> {
  return warehouse.seedDemo(opts);
}

/** seedDemo of an engine that runs the generator's script itself (DuckDB, PostgreSQL). */
export async function seedByScript(
  warehouse: Pick<Warehouse, 'exec'>,
  dialect: Exclude<DialectName, 'clickhouse'>,
  opts: SeedOptions,
): Promise<DemoSeeded> {
  const { sql, version, perTenant } = seedScript(dialect, opts);
  await warehouse.exec(sql);
  return { version, perTenant };
}

/** True when the warehouse holds no seeded data yet (first start). */
export async function warehouseIsEmpty(warehouse: Warehouse): Promise<boolean> {
  return (await warehouse.version()) === undefined;
}

/**
 * First start: generates the demo data only into an empty warehouse. Returns what was done, or
 * undefined when the warehouse already held data.
 */
export async function seedDemoIfEmpty(
  warehouse: Warehouse,
  now: Date,
): Promise<{ rows: number; tenants: string[]; ms: number } | undefined> {
  if (!(await warehouseIsEmpty(warehouse))) return undefined;
  const started = Date.now();
  await seedDemo(warehouse, { rows: DEFAULT_SEED_ROWS, tenants: DEFAULT_TENANTS, endDay: now.toISOString().slice(0, 10), now });
  return { rows: DEFAULT_SEED_ROWS, tenants: DEFAULT_TENANTS, ms: Date.now() - started };
}
