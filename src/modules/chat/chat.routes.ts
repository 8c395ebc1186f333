import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { READS_WAREHOUSE, withErrors } from '../../lib/schemas.ts';
import { ChatBody, ChatResponse } from './chat.schemas.ts';
import type { ChatService } from './chat.service.ts';

export const chatRoutes =
  (chat: ChatService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/ai/chat',
      {
        schema: {
          tags: ['ai'],
          summary: 'Ask a question in plain language; the numbers come from the insight engine',
          body: ChatBody,
          response: withErrors({ 200: ChatResponse }, ...READS_WAREHOUSE),
        },
      },
      async (req) => ({ success: true, data: await chat.ask(req.auth, req.body) }),
    );
  };
