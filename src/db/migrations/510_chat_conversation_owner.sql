-- A conversation id is the client's as much as ours (chat front ends make one up for the first
-- message), so it is unique only per owner: the same history_id sent by two users of a tenant, or
-- by two tenants, names two conversations. The key becomes (tenant_id, user_id, id), and messages
-- carry the owner so they reference it.
ALTER TABLE chat_messages ADD COLUMN user_id text;
UPDATE chat_messages m SET user_id = c.user_id FROM chat_conversations c WHERE c.id = m.conversation_id;
ALTER TABLE chat_messages ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_conversation_id_fkey;
ALTER TABLE chat_conversations DROP CONSTRAINT chat_conversations_pkey;
ALTER TABLE chat_conversations ADD PRIMARY KEY (tenant_id, user_id, id);
ALTER TABLE chat_messages
  ADD CONSTRAINT chat_messages_conversation_fkey FOREIGN KEY (tenant_id, user_id, conversation_id)
  REFERENCES chat_conversations (tenant_id, user_id, id) ON DELETE CASCADE;
DROP INDEX chat_messages_conversation_idx;
CREATE INDEX chat_messages_conversation_idx ON chat_messages (tenant_id, user_id, conversation_id, created_at);
