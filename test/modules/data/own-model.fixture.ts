// A model of a user's own, written from docs/model.md alone, and two tenants' exports for it
// (own-model.test.ts over the API, cli-own-model.test.ts through the command line).

export const SHOP_MODEL = `
cubes:
  - name: orders
    sql_table: orders
    tenant_column: store
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_no = {customers}.customer_no"
    measures:
      - name: revenue
        type: sum
        sql: amount
        format: money
      - name: orders
        type: count
    dimensions:
      - name: sold_at
        type: time
        sql: sold_at
      - name: city
        type: string
        sql: city
  - name: customers
    sql_table: customers
    tenant_column: account
    dimensions:
      - name: segment
        type: string
        sql: segment
  - name: refunds
    sql_table: refunds
    tenant_column: store
    measures:
      - name: refunded
        type: sum
        sql: amount
    dimensions:
      - name: refunded_on
        type: time
        sql: refunded_on
  - name: visits
    sql_table: visits
    tenant_column: store
    measures:
      - name: visits
        type: sum
        sql: n
    dimensions:
      - name: day
        type: time
        sql: day

insights:
  - code: revenue
    kind: timeseries
    measures: [orders.revenue, orders.orders]
    time_dimension: orders.sold_at
    granularities: [month]
    filters: [orders.city]
  - code: revenue_by_segment
    kind: breakdown
    measures: [orders.revenue]
    dimension: customers.segment
    time_dimension: orders.sold_at
  - code: refunds
    kind: kpi
    measures: [refunds.refunded]
    time_dimension: refunds.refunded_on
`;

// Two tenants' exports: north's and south's figures differ, so a mixed-up tenant shows.
export const ORDERS = {
  north:
    'order_no,sold_at,city,amount,customer_no\n1,2025-01-05 10:00:00,Oslo,100.5,7\n2,2025-01-20 12:00:00,Bergen,50,8\n3,2025-02-03 09:30:00,Oslo,20.25,7\n',
  south: 'order_no,sold_at,city,amount,customer_no\n1,2025-01-06 10:00:00,Rome,1000,7\n2,2025-02-07 11:00:00,Milan,3000,9\n',
};
export const CUSTOMERS = {
  north: 'customer_no,segment\n7,retail\n8,wholesale\n',
  south: 'customer_no,segment\n7,wholesale\n9,retail\n',
};
