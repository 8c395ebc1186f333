import type { SemanticQuery } from '../../semantic/query/query.schema.ts';
import type { Db } from '../../db/index.ts';
import type { StructuredQuery } from './parser/index.ts';

export interface ConversationRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  last_query: StructuredQuery | null;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRecord {
  id: string;
  conversation_id: string;
  tenant_id: string;
  user_id: string;
  role: 'user' | 'assistant';
  content: string;
  insight_code: string | null;
  /** The insight's query, or a composed answer's semantic query. */
  query: StructuredQuery | SemanticQuery | null;
  answered_by: string | null;
  created_at: Date;
}

export class ChatRepository {
  constructor(private readonly db: Db) {}

  /** Only the owner's conversation is found: another user's or tenant's id reads as missing. */
  async findConversation(tenantId: string, userId: string, id: string): Promise<ConversationRecord | undefined> {
    const rows = await this.db.query<ConversationRecord>(
      'SELECT id, tenant_id, user_id, last_query, created_at, updated_at FROM chat_conversations WHERE id = $1 AND ' +
        'tenant_id = $2 AND user_id = $3',
      [id, tenantId, userId],
    );
    return rows[0];
  }

  /** The last messages of one owner's conversation, oldest first. */
  async recentMessages(tenantId: string, userId: string, conversationId: string, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db.query<MessageRecord>(
      `SELECT id, conversation_id, tenant_id, user_id, role, content, insight_code, query, answered_by, created_at
         FROM chat_messages WHERE conversation_id = $1 AND tenant_id = $2 AND user_id = $3 ORDER BY created_at DESC, id DESC LIMIT $4`,
      [conversationId, tenantId, userId, limit],
    );
    return rows.reverse();
  }

  /**
   * Stores one exchange (the question and its answer) and the query a follow-up will change, in one
   * statement: the conversation's row in a WITH, the messages after it (one statement is one
   * transaction, and one call where a transaction of four was five: docs/performance.md §18).
   */
  async saveExchange(
    conv: { id: string; tenant_id: string; user_id: string; isNew: boolean; last_query: StructuredQuery | null; at: Date },
    messages: MessageRecord[],
  ): Promise<void> {
    const conversation = conv.isNew
      ? // Two first messages with the same new history_id may race: the second joins the first's.
        'INSERT INTO chat_conversations (id, tenant_id, user_id, last_query, created_at, updated_at) ' +
        'VALUES ($1, $2, $3, $4::jsonb, $5, $5) ON CONFLICT (tenant_id, user_id, id) DO NOTHING'
      : // An unanswerable question keeps the previous query, so "and in France?" still works after it.
        'UPDATE chat_conversations SET last_query = COALESCE($4::jsonb, last_query), updated_at = $5 ' +
        'WHERE id = $1 AND tenant_id = $2 AND user_id = $3';
    const lastQuery = conv.isNew || conv.last_query !== null ? JSON.stringify(conv.last_query) : null;
    const params: unknown[] = [conv.id, conv.tenant_id, conv.user_id, lastQuery, conv.at];
    const rows = messages.map((m) => {
      const at = params.length;
      params.push(
        m.id,
        m.conversation_id,
        m.tenant_id,
        m.user_id,
        m.role,
        m.content,
        m.insight_code,
        m.query === null ? null : JSON.stringify(m.query),
        m.answered_by,
        m.created_at,
      );
      const $ = (k: number) => `$${at + k}`;
      return `(${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${$(8)}::jsonb, ${$(9)}, ${$(10)})`;
    });
    if (!rows.length) {
      await this.db.query(conversation, params);
      return;
    }
    await this.db.query(
      `WITH conversation AS (${conversation})
       INSERT INTO chat_messages (id, conversation_id, tenant_id, user_id, role, content, insight_code, query, answered_by, created_at)
       VALUES ${rows.join(', ')}`,
      params,
    );
  }
}
