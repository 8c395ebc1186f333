// Keyset paging over time-ordered ids (UUIDv7): newest first, the cursor is the last id seen.
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface Page {
  limit: number;
  cursor?: string;
}

export function pageOf(query: { limit?: number; cursor?: string }): Page {
  return { limit: query.limit ?? 100, cursor: query.cursor };
}

/**
 * Given limit+1 rows fetched, keeps `limit` and, when there were more, announces the next page in
 * a Link header (rel="next") that repeats the request's other query parameters.
 */
export function sendPage<T extends { id: string }>(req: FastifyRequest, reply: FastifyReply, rows: T[], page: Page): T[] {
  if (rows.length <= page.limit) return rows;
  const kept = rows.slice(0, page.limit);
  const url = new URL(req.url, 'http://local');
  url.searchParams.set('cursor', kept[kept.length - 1].id);
  url.searchParams.set('limit', String(page.limit));
  reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
  return kept;
}
