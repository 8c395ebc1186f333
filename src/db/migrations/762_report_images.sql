-- Charts of the reports sent to Slack, Microsoft Teams and Google Chat (docs/channels.md "Charts in
-- chat tools"): those tools show an image only by URL, fetched without our credentials, so each
-- chart is kept here under an unguessable id and served on INSIGHTS_PUBLIC_URL until it expires.
CREATE TABLE report_images (
  id          text PRIMARY KEY,
  tenant_id   text NOT NULL,
  png         bytea NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX report_images_expires_idx ON report_images (expires_at);
