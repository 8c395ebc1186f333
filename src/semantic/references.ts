// What the system of record stores that names insights by code: live widgets and insight
// subscriptions. `insights model check` warns about those the model does not define (they answer
// 409 INSIGHT_NOT_IN_MODEL until changed). Read only: two SELECTs.

/** What this needs of the system of record: the semantic layer names no database module. */
export interface ReferenceSource {
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export async function insightReferenceWarnings(db: ReferenceSource, codes: ReadonlySet<string>): Promise<string[]> {
  const widgets = await db.query<{
    id: string;
    tenant_id: string;
    title: string;
    insight_code: string;
    dashboard_id: string;
    dashboard: string;
  }>(
    `SELECT w.id, w.tenant_id, w.title, w.insight_code, w.dashboard_id, d.name AS dashboard
       FROM dashboard_widgets w JOIN dashboards d ON d.id = w.dashboard_id
      WHERE w.data_source = 'live_insight' ORDER BY w.tenant_id, d.name, w.title`,
  );
  const subs = await db.query<{ id: string; tenant_id: string; insight_code: string }>(
    'SELECT id, tenant_id, insight_code FROM insight_subscriptions ORDER BY tenant_id, id',
  );
  return [
    ...widgets
      .filter((w) => !codes.has(w.insight_code))
      .map(
        (w) =>
          `widget ${w.id} "${w.title}" of dashboard "${w.dashboard}" (tenant ${w.tenant_id}) uses the insight ` +
          `"${w.insight_code}", which the model does not define`,
      ),
    ...subs
      .filter((s) => !codes.has(s.insight_code))
      .map((s) => `subscription ${s.id} (tenant ${s.tenant_id}) sends the insight "${s.insight_code}", which the model does not define`),
  ];
}
