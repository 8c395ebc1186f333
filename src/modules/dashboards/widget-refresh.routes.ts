// POST /api/v1/dashboards/{id}/widgets/{wid}/refresh: runs a live widget's insight with the filter
// precedence of widget-source.ts and records the new chart_hint and last_refreshed_at (edit rights).
// GET /api/v1/dashboards/{id}/widgets/{wid}/data (extension): the same data for anyone who may view
// the dashboard, under the filter bar's state as a query; writes nothing.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ResourceId, READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import { ExecuteResponse } from '../insights/insights.schemas.ts';
import { dashboardFilterQuery } from './dashboard-filter-query.ts';
import type { WidgetsService } from './widgets.service.ts';

const RefreshParams = Type.Object({ id: ResourceId, wid: ResourceId });
const RefreshBody = Type.Union([
  Type.Object(
    {
      granularity: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
      filters: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
      dashboard_filters: Type.Optional(
        Type.Boolean({
          description:
            "The filters are the dashboard's, one state for all its widgets: what the insight does not take or the " +
            'widget ignores (ignored_filters) is skipped instead of refused',
        }),
      ),
      preset_id: Type.Optional(
        Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
          description: "A preset of the dashboard to apply instead of the active one; null: none (the body's filters are the whole state)",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

export const widgetRefreshRoutes =
  (widgets: WidgetsService, filters: { name: string; label: string }[]): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/dashboards/:id/widgets/:wid/data',
      {
        schema: {
          tags: ['widgets'],
          operationId: 'getWidgetData',
          summary:
            "A widget's data, read-only (extension): anyone who may view the dashboard; records nothing. No query: " +
            "the dashboard's default view (its active preset); a filter state replaces it for the widget, " +
            'skipping what its insight does not take or it ignores',
          params: RefreshParams,
          querystring: dashboardFilterQuery(filters, {
            preset_id: Type.Optional(
              Type.String({
                maxLength: 100,
                description: 'A preset of the dashboard to apply instead of the active one; empty: none (the query is the whole state)',
              }),
            ),
          }),
          response: withErrors({ 200: ExecuteResponse }, 503),
        },
      },
      async (req) => {
        const { preset_id, ...rest } = req.query as Record<string, unknown>;
        const state = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
        const given = preset_id !== undefined || Object.keys(state).length > 0;
        const data = await widgets.data(
          req.auth,
          req.params.id,
          req.params.wid,
          given ? { preset_id: preset_id ? String(preset_id) : null, filters: state, dashboard_wide: true } : {},
        );
        return { success: true as const, data };
      },
    );
    app.post(
      '/api/v1/dashboards/:id/widgets/:wid/refresh',
      {
        schema: {
          tags: ['widgets'],
          summary: 'Refresh a live widget: run its insight (preset < widget_filters < body) and record the hint',
          params: RefreshParams,
          body: RefreshBody,
          'x-body-optional': true,
          response: withErrors({ 200: ExecuteResponse }, ...READS_WAREHOUSE),
        },
      },
      async (req) => {
        const body = req.body ?? {};
        const data = await widgets.refresh(req.auth, req.params.id, req.params.wid, {
          granularity: body.granularity,
          filters: body.filters,
          preset_id: body.preset_id,
          dashboard_wide: body.dashboard_filters,
        });
        return { success: true as const, data };
      },
    );
  };
