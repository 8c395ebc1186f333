// POST /api/v1/dashboards/{id}/widgets/{wid}/refresh: runs a live widget's insight with the filter
// precedence of widget-source.ts and records the new chart_hint and last_refreshed_at.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ResourceId, READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import { ExecuteResponse } from '../insights/insights.schemas.ts';
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
            "The filters are the dashboard's, one state for all its widgets: what the insight does not take or the widget ignores (ignored_filters) is skipped instead of refused",
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
  (widgets: WidgetsService): FastifyPluginAsyncTypebox =>
  async (app) => {
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
