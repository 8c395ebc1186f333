-- The delivery queue: one row per (subscription, slot, channel). The unique key makes enqueueing
-- idempotent (INSERT … ON CONFLICT DO NOTHING), so instances that tick together enqueue a slot once.
-- Workers claim with FOR UPDATE SKIP LOCKED and hold a lease; a row left 'running' past its lease
-- (the worker died) is claimed again. No foreign keys: a delivery outlives nothing it points to,
-- the worker cancels it when its subscription or channel is gone.
CREATE TABLE deliveries (
  id                text PRIMARY KEY,
  tenant_id         text NOT NULL,
  subscription_kind text NOT NULL CHECK (subscription_kind IN ('insight', 'dashboard')),
  subscription_id   text NOT NULL,
  slot_at           timestamptz NOT NULL,
  channel_id        text NOT NULL,
  -- 'manual' (send-now) is sent even while the subscription is inactive; 'schedule' is not.
  trigger           text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  status            text NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'cancelled')),
  -- Attempts started so far (a claim counts one, so a worker that dies mid-send uses one up).
  attempt           integer NOT NULL DEFAULT 0,
  run_at            timestamptz NOT NULL,
  lease_until       timestamptz,
  locked_by         text,
  last_error        text,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  UNIQUE (subscription_kind, subscription_id, slot_at, channel_id)
);
CREATE INDEX deliveries_pending_idx ON deliveries (run_at) WHERE status = 'pending';
CREATE INDEX deliveries_running_idx ON deliveries (lease_until) WHERE status = 'running';

-- One row per attempt per channel. Kept when the subscription, channel or dashboard is deleted,
-- so it copies what it shows (names, type) and the subscription's owner (members see their own).
CREATE TABLE delivery_logs (
  id                 text PRIMARY KEY,
  tenant_id          text NOT NULL,
  delivery_id        text NOT NULL,
  subscription_kind  text NOT NULL,
  subscription_id    text NOT NULL,
  subscription_owner text NOT NULL,
  insight_name       text NOT NULL,
  channel_id         text NOT NULL,
  channel_type       text NOT NULL,
  sent_at            timestamptz NOT NULL,
  status             text NOT NULL CHECK (status IN ('success', 'failed')),
  error_message      text,
  attempt            integer NOT NULL,
  UNIQUE (delivery_id, attempt)
);
CREATE INDEX delivery_logs_tenant_idx ON delivery_logs (tenant_id, id DESC);
CREATE INDEX delivery_logs_subscription_idx ON delivery_logs (tenant_id, subscription_id, id DESC);
