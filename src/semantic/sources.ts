// The warehouse tables as the semantic layer sees them. Qualified columns only; the tenant
// predicate sits in each FROM so no query can read across tenants.
import type { SourceDef, SourceName } from './types.ts';

export const SOURCES: Record<SourceName, SourceDef> = {
  orders: {
    name: 'orders',
    from: 'orders o',
    tenantScope: ['o.tenant_id'],
    time: { column: 'o.ordered_at', type: 'timestamp' },
    columns: { revenue: 'o.revenue', discount: 'o.discount', items: 'o.items', status: 'o.status' },
    filters: { country: 'o.country', channel: 'o.channel' },
    dimensions: { country: 'o.country', channel: 'o.channel' },
  },
  order_items: {
    name: 'order_items',
    from:
      'order_items i JOIN orders o ON o.order_id = i.order_id AND o.tenant_id = :tenant ' +
      'JOIN products p ON p.product_id = i.product_id AND p.tenant_id = :tenant',
    tenantScope: ['i.tenant_id'],
    time: { column: 'o.ordered_at', type: 'timestamp' },
    columns: { quantity: 'i.quantity', unit_price: 'i.unit_price', status: 'o.status' },
    filters: { country: 'o.country', channel: 'o.channel', category: 'p.category' },
    dimensions: { product_id: 'p.product_id', product_name: 'p.name', category: 'p.category', brand: 'p.brand' },
  },
  // Each customer's first completed order: "new" customers are counted where it falls.
  first_orders: {
    name: 'first_orders',
    from:
      '(SELECT o.customer_id, o.ordered_at, o.country, o.channel, ' +
      'row_number() OVER (PARTITION BY o.customer_id ORDER BY o.ordered_at, o.order_id) AS rn ' +
      "FROM orders o WHERE o.tenant_id = :tenant AND o.status = :completed) f",
    tenantScope: [],
    fixedWhere: 'f.rn = 1',
    binds: { completed: 'completed' },
    time: { column: 'f.ordered_at', type: 'timestamp' },
    columns: { customer_id: 'f.customer_id', rn: 'f.rn' },
    filters: { country: 'f.country', channel: 'f.channel' },
    dimensions: { country: 'f.country', channel: 'f.channel' },
  },
  web_sessions: {
    name: 'web_sessions',
    from: 'web_sessions s',
    tenantScope: ['s.tenant_id'],
    time: { column: 's.day', type: 'date' },
    columns: { sessions: 's.sessions' },
    filters: { country: 's.country', channel: 's.channel' },
    dimensions: { country: 's.country', channel: 's.channel' },
  },
};
