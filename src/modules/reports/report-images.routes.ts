// GET /api/v1/report-images/{id}.png: a chart of a report sent to a chat tool. Public: the chat
// tool fetches it without credentials; the random id is the capability (report-images.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../lib/errors.ts';
import { withErrors } from '../../lib/schemas.ts';
import type { ReportImages } from './report-images.ts';

const PngResponse = Type.Unsafe<Buffer>({
  description: 'The chart as a PNG',
  content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
});

export const reportImagesRoutes =
  (images: Pick<ReportImages, 'find'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/report-images/:file',
      {
        config: { public: true },
        schema: {
          tags: ['delivery logs'],
          operationId: 'getReportImage',
          summary: 'A chart of a report sent to Slack, Teams or Google Chat (public: its random id is the capability; kept 30 days)',
          security: [],
          params: Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9_-]{22}\\.png$', description: '<id>.png' }) }),
          response: withErrors({ 200: PngResponse }, 404),
        },
      },
      async (req, reply) => {
        const png = await images.find(req.params.file.slice(0, -4));
        if (!png) throw notFound('Image');
        return reply.type('image/png').header('Cache-Control', 'public, max-age=86400, immutable').send(png);
      },
    );
  };
