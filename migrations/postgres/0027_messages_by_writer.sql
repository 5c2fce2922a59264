-- A person's own messages, for the copy of their data (GET /api/me/export): read by the
-- account that wrote them, not by scanning every message.
CREATE INDEX messages_by_writer ON messages (user_id, id) WHERE user_id IS NOT NULL;
