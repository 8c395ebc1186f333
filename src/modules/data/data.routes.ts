import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { withErrors } from '../../lib/schemas.ts';
import { LoadBody, LoadQuery, LoadResponse, TableParams, TablesResponse } from './data.schemas.ts';
import type { DataService } from './data.service.ts';
import { saveUpload, Upload, UPLOAD_MEDIA_TYPES, type UploadMediaType } from './data.upload.ts';

export const dataRoutes =
  (data: DataService, options: { maxBytes: number; maxRows: number }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['data'];
    // Only upload bodies here, and none of them is buffered: the parser streams each to a temp file
    // within INSIGHTS_DATA_MAX_BYTES (the app's small JSON limit does not apply to this plugin).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(Object.keys(UPLOAD_MEDIA_TYPES), (req, payload, done) => {
      const mediaType = String(req.headers['content-type']).split(';')[0].trim().toLowerCase() as UploadMediaType;
      const length = req.headers['content-length'];
      saveUpload(payload, {
        mediaType,
        encoding: req.headers['content-encoding'],
        maxBytes: options.maxBytes,
        maxRows: options.maxRows,
        declaredLength: length === undefined ? undefined : Number(length),
      }).then(
        (upload) => done(null, upload),
        (err) => done(err as Error),
      );
    });
    const validatorCompiler = app.validatorCompiler!;

    app.post(
      '/api/v1/data/:table',
      {
        schema: {
          tags,
          summary: "Load a CSV, NDJSON or JSON body into a table for the caller's tenant (owner, admin)",
          description:
            'All or nothing: a row that does not fit is a 400 naming its line and column, and nothing is kept. Only a ' +
            'table that a cube of the model reads (404 otherwise). The first load of a table creates it with the ' +
            'columns the model reads, typed as the model reads them; other columns of the file are not stored. ' +
            'See docs/data.md.',
          params: TableParams,
          querystring: LoadQuery,
          body: LoadBody,
          response: withErrors({ 200: LoadResponse }, 403, 404, 413, 415),
        },
        // The body is the Upload the parser wrote, not text to validate; params and query are
        // validated as everywhere else.
        config: { streamsBody: true },
        validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
        // Role and table name before the body is read, so a refused upload is never stored.
        preParsing: async (req, _reply, payload) => {
          data.checkLoad(req.auth, (req.params as { table: string }).table);
          return payload;
        },
        // The temp file goes before the answer does, whether the load ran or the request failed
        // after the body was stored (a bad query string).
        onError: async (req) => {
          if (req.body instanceof Upload) await req.body.remove();
        },
      },
      async (req, reply) => {
        const upload = req.body as unknown;
        if (!(upload instanceof Upload)) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the data as ${Object.keys(UPLOAD_MEDIA_TYPES).join(', ')}.`);
        }
        // A client that goes away before the answer cancels its load (waiting or running, before
        // its commit): the response's 'close' comes before 'finish' only then.
        const cancel = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished)
            cancel.abort(new AppError('BAD_REQUEST', 'The client went away; the load was cancelled and nothing was kept.'));
        };
        reply.raw.once('close', onClose);
        try {
          const { mode = 'append', ...read } = req.query;
          return await data.load(req.auth, req.params.table, mode, upload, cancel.signal, read);
        } finally {
          reply.raw.off('close', onClose);
          await upload.remove();
        }
      },
    );

    app.get(
      '/api/v1/data/tables',
      {
        schema: {
          tags,
          summary: "The model's tables, with the caller's tenant's row count and time range of each",
          response: withErrors({ 200: TablesResponse }),
        },
      },
      async (req) => ({ tables: await data.tables(req.auth) }),
    );
  };
