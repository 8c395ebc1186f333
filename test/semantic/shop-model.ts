// A model the service never saw: shops, their sales and the sales' lines (one-to-many), with
// ids shared between tenants t1 and t2, and its data, worked out by hand in the tests.
export const SHOP_MODEL = `
cubes:
  - name: shops
    sql_table: shops
    tenant_column: org
    dimensions:
      - { name: region, type: string, sql: region, title: Region }
  - name: sales
    sql_table: sales
    tenant_column: org
    joins:
      - { name: shops, relationship: many_to_one, sql: "{CUBE}.shop_id = {shops}.id" }
    measures:
      - { name: amount, type: sum, sql: amount, format: money }
      - { name: tickets, type: count }
      - { name: big_tickets, type: count, filters: [{ sql: "{CUBE}.amount >= 50" }] }
    dimensions:
      - { name: sold_at, type: time, sql: sold_at }
      - { name: region, type: string, sql: "{shops}.region" }
    segments:
      - { name: not_tiny, sql: "{CUBE}.amount > 1 OR {CUBE}.amount IS NULL" }
  - name: sale_lines
    sql_table: sale_lines
    tenant_column: org
    joins:
      - { name: sales, relationship: many_to_one, sql: "{CUBE}.sale_id = {sales}.id" }
    measures:
      - { name: quantity, type: sum, sql: qty, format: integer }
      - { name: per_ticket, type: number, sql: "{quantity} / NULLIF({sales.tickets}, 0)" }
insights:
  - code: by_region
    kind: breakdown
    measures: [sales.amount, sale_lines.quantity]
    dimension: shops.region
    time_dimension: sales.sold_at
    filters: [shops.region]
  - code: units_per_ticket
    kind: timeseries
    measures: [sale_lines.per_ticket]
    time_dimension: sales.sold_at
    granularities: [month]
  - code: amount_kpi
    kind: kpi
    measures: [sales.amount]
    time_dimension: sales.sold_at
    segments: [sales.not_tiny]
  - code: per_ticket_kpi
    kind: kpi
    measures: [sale_lines.per_ticket]
    time_dimension: sales.sold_at
  - code: best_regions
    kind: top
    measures: [sales.big_tickets]
    dimension: sales.region
    time_dimension: sales.sold_at
    default_limit: 1
`;

export const DATA = `
  CREATE TABLE shops (org VARCHAR, id INTEGER, region VARCHAR);
  CREATE TABLE sales (org VARCHAR, id INTEGER, shop_id INTEGER, sold_at TIMESTAMP, amount DECIMAL(10,2));
  CREATE TABLE sale_lines (org VARCHAR, sale_id INTEGER, qty INTEGER);
  INSERT INTO shops VALUES ('t1', 1, 'North'), ('t1', 2, 'South'), ('t2', 1, 'North');
  INSERT INTO sales VALUES ('t1', 1, 1, TIMESTAMP '2026-03-02 10:00:00', 100.00), ('t1', 2, 2, TIMESTAMP '2026-03-03 11:00:00', 50.00),
    ('t1', 3, 1, TIMESTAMP '2026-02-10 09:00:00', 10.00), ('t1', 4, 2, TIMESTAMP '2026-03-31 23:59:59', 0.50),
    ('t2', 1, 1, TIMESTAMP '2026-03-02 10:00:00', 1000.00);
  INSERT INTO sale_lines VALUES ('t1', 1, 1), ('t1', 1, 2), ('t1', 1, 3), ('t1', 2, 4), ('t1', 3, 1), ('t1', 3, 1), ('t2', 1, 99);
`;
