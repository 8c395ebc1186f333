// GET /api/v1/dashboards/{id}/pdf: the dashboard as the PDF its reports attach (application/pdf).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ResourceId, withErrors } from '../../lib/schemas.ts';
import { dashboardFilterQuery } from '../dashboards/dashboard-filter-query.ts';
import type { DashboardPdfService } from './dashboard-pdf.ts';

const PdfResponse = Type.Unsafe<Buffer>({
  description: 'The dashboard as a PDF, one page per widget group, as its scheduled reports attach it',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
});

export const dashboardPdfRoutes =
  (pdfs: DashboardPdfService, filters: { name: string; label: string }[]): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/dashboards/:id/pdf',
      {
        schema: {
          tags: ['dashboards'],
          operationId: 'downloadDashboardPdf',
          summary:
            'The dashboard as a PDF (the one its reports attach); query filters replace its default view for every widget that takes them',
          params: Type.Object({ id: ResourceId }),
          // A filter state for the whole dashboard (the web app's filter bar); none: its default view.
          querystring: dashboardFilterQuery(filters),
          response: withErrors({ 200: PdfResponse }, 404, 503),
        },
      },
      async (req, reply) => {
        const query = req.query as Record<string, unknown>;
        const pdf = await pdfs.render(
          req.auth,
          req.params.id,
          Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)),
        );
        return reply.type('application/pdf').header('Content-Disposition', `attachment; filename="${pdf.filename}"`).send(pdf.content);
      },
    );
  };
