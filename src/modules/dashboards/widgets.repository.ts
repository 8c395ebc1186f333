import type { Db } from '../../db/index.ts';
import type { ChartHint, DataRow } from '../../lib/chart.schemas.ts';
import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { ChartHintOverride, DataSource, DisplaySize, SnapshotColumn, WidgetType } from './widgets.schemas.ts';

export interface WidgetRecord {
  id: string;
  tenant_id: string;
  dashboard_id: string;
  title: string;
  widget_type: WidgetType;
  display_size: DisplaySize;
  data_source: DataSource;
  insight_code: string | null;
  /** A live widget's semantic query, instead of an insight code. */
  query: SemanticQuery | null;
  granularity: string | null;
  widget_filters: Record<string, unknown> | null;
  ignored_filters: string[] | null;
  snapshot_data: DataRow[] | null;
  snapshot_columns: SnapshotColumn[] | null;
  snapshot_chart_hint: ChartHint | null;
  snapshot_question: string | null;
  chart_hint: ChartHint | null;
  chart_hint_override: ChartHintOverride | null;
  created_at: Date;
  updated_at: Date;
  last_refreshed_at: Date | null;
}

export type WidgetChanges = Partial<Omit<WidgetRecord, 'id' | 'tenant_id' | 'dashboard_id' | 'data_source' | 'created_at'>>;

const COLUMNS = `w.id, w.tenant_id, w.dashboard_id, w.title, w.widget_type, w.display_size, w.data_source, w.insight_code, w.query,
  w.granularity, w.widget_filters, w.ignored_filters, w.snapshot_data, w.snapshot_chart_hint, w.snapshot_question, w.chart_hint,
  w.chart_hint_override, w.created_at, w.updated_at, w.last_refreshed_at, w.snapshot_columns`;

const JSON_COLUMNS = new Set([
  'query',
  'widget_filters',
  'ignored_filters',
  'snapshot_data',
  'snapshot_columns',
  'snapshot_chart_hint',
  'chart_hint',
  'chart_hint_override',
]);
/** The fields a PATCH may change (data_source is fixed at creation). */
export const EDITABLE_FIELDS = [
  'title',
  'widget_type',
  'display_size',
  'insight_code',
  'query',
  'granularity',
  'widget_filters',
  'ignored_filters',
  'snapshot_data',
  'snapshot_columns',
  'snapshot_chart_hint',
  'snapshot_question',
  'chart_hint',
  'chart_hint_override',
] as const;
const UPDATABLE = [...EDITABLE_FIELDS, 'updated_at', 'last_refreshed_at'] as const;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export class WidgetsRepository {
  constructor(
    private readonly db: Db,
    /** Called after this repository changed a dashboard's widget_ids: its reads in memory are stale. */
    private readonly dashboardsChanged: (tenantId: string, dashboardId: string) => void = () => {},
  ) {}

  /** The dashboard's widgets in its widget_ids order. */
  async listForDashboard(tenantId: string, dashboardId: string): Promise<WidgetRecord[]> {
    return this.db.query<WidgetRecord>(
      `SELECT ${COLUMNS} FROM dashboard_widgets w JOIN dashboards d ON d.id = w.dashboard_id
        WHERE w.tenant_id = $1 AND w.dashboard_id = $2
        ORDER BY array_position(d.widget_ids, w.id), w.id`,
      [tenantId, dashboardId],
    );
  }

  async find(tenantId: string, dashboardId: string, id: string): Promise<WidgetRecord | undefined> {
    const rows = await this.db.query<WidgetRecord>(
      `SELECT ${COLUMNS} FROM dashboard_widgets w WHERE w.tenant_id = $1 AND w.dashboard_id = $2 AND w.id = $3`,
      [tenantId, dashboardId, id],
    );
    return rows[0];
  }

  /** Inserts the widget and appends it to the dashboard's widget_ids atomically; false when the dashboard is gone. */
  async insert(w: WidgetRecord): Promise<boolean> {
    try {
      return await this.insertRow(w);
    } finally {
      this.dashboardsChanged(w.tenant_id, w.dashboard_id);
    }
  }

  // One statement, so one transaction: the dashboard row is locked (and widget_ids appended to) in
  // the WITH before the widget is inserted, as every widget_ids writer locks it first; no dashboard,
  // no row (docs/performance.md §18).
  private async insertRow(w: WidgetRecord): Promise<boolean> {
    const rows = await this.db.query(
      `WITH dashboard AS (
         UPDATE dashboards SET widget_ids = array_append(widget_ids, $1::text), updated_at = $16
          WHERE tenant_id = $2 AND id = $3 RETURNING id
       )
       INSERT INTO dashboard_widgets (id, tenant_id, dashboard_id, title, widget_type, display_size, data_source,
         insight_code, granularity, widget_filters, snapshot_data, snapshot_chart_hint, snapshot_question, chart_hint,
         chart_hint_override, created_at, updated_at, last_refreshed_at, ignored_filters, query, snapshot_columns)
       SELECT $1, $2, dashboard.id, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13, $14::jsonb, $15::jsonb, $16, $17,
         $18, $19::jsonb, $20::jsonb, $21::jsonb
         FROM dashboard
       RETURNING id`,
      [
        w.id,
        w.tenant_id,
        w.dashboard_id,
        w.title,
        w.widget_type,
        w.display_size,
        w.data_source,
        w.insight_code,
        w.granularity,
        json(w.widget_filters),
        json(w.snapshot_data),
        json(w.snapshot_chart_hint),
        w.snapshot_question,
        json(w.chart_hint),
        json(w.chart_hint_override),
        w.created_at,
        w.updated_at,
        w.last_refreshed_at,
        json(w.ignored_filters),
        json(w.query),
        json(w.snapshot_columns),
      ],
    );
    return rows.length > 0;
  }

  /** Applies the changes and returns the updated widget, or undefined when it does not exist. */
  async update(tenantId: string, dashboardId: string, id: string, changes: WidgetChanges): Promise<WidgetRecord | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [tenantId, dashboardId, id];
    for (const col of UPDATABLE) {
      if (!(col in changes)) continue;
      const value = changes[col];
      params.push(JSON_COLUMNS.has(col) ? json(value) : value);
      sets.push(`${col} = $${params.length}${JSON_COLUMNS.has(col) ? '::jsonb' : ''}`);
    }
    if (sets.length === 0) return this.find(tenantId, dashboardId, id);
    const rows = await this.db.query<WidgetRecord>(
      `UPDATE dashboard_widgets w SET ${sets.join(', ')}
        WHERE w.tenant_id = $1 AND w.dashboard_id = $2 AND w.id = $3 RETURNING ${COLUMNS}`,
      params,
    );
    return rows[0];
  }

  /** Removes the widget and its entry in widget_ids atomically; false when it does not exist. */
  async delete(tenantId: string, dashboardId: string, id: string, at: Date): Promise<boolean> {
    try {
      return await this.deleteRow(tenantId, dashboardId, id, at);
    } finally {
      this.dashboardsChanged(tenantId, dashboardId);
    }
  }

  // One statement: the dashboard row is locked first (its widget_ids loses the id), as every
  // widget_ids writer does, then the widget goes; neither happens without the other's row.
  private async deleteRow(tenantId: string, dashboardId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db.query(
      `WITH dashboard AS (
         UPDATE dashboards SET widget_ids = array_remove(widget_ids, $3::text), updated_at = $4
          WHERE tenant_id = $1 AND id = $2 AND $3 = ANY (widget_ids)
            AND EXISTS (SELECT 1 FROM dashboard_widgets WHERE tenant_id = $1 AND dashboard_id = $2 AND id = $3)
          RETURNING id
       )
       DELETE FROM dashboard_widgets w USING dashboard
        WHERE w.tenant_id = $1 AND w.dashboard_id = dashboard.id AND w.id = $3
       RETURNING w.id`,
      [tenantId, dashboardId, id, at],
    );
    return rows.length > 0;
  }
}
