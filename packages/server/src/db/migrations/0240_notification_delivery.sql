-- 0240: what the notification engine (notifications/README.md) needs of the send history beyond
-- the seeds' columns, all additive: the rendered title (the body is already kept), when a
-- waiting send is due (a rule's waitFor, or a rule over its rate limit), and the event delivery
-- it came from, so an event handled again after a crash never records a send twice.
ALTER TABLE notification_send_history ADD COLUMN IF NOT EXISTS title text;
ALTER TABLE notification_send_history ADD COLUMN IF NOT EXISTS send_at timestamptz;
ALTER TABLE notification_send_history ADD COLUMN IF NOT EXISTS delivery_key text;
ALTER TABLE notification_send_history ADD COLUMN IF NOT EXISTS recipient text;

-- one row per rule and event delivery
CREATE UNIQUE INDEX IF NOT EXISTS notification_send_history_delivery_idx
  ON notification_send_history (notification_id, delivery_key) WHERE delivery_key IS NOT NULL;
-- the repeat interval: the rule's last send about this resource and event
CREATE INDEX IF NOT EXISTS notification_send_history_repeat_idx
  ON notification_send_history (notification_id, resource_id, source_event, created_at DESC);
-- the waiting sends that are due
CREATE INDEX IF NOT EXISTS notification_send_history_due_idx
  ON notification_send_history (send_at) WHERE status = 'pending';
-- active silences by time
CREATE INDEX IF NOT EXISTS notification_silences_from_idx ON notification_silences ("from");
