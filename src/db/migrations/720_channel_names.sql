-- A channel's optional name (an extension of the contract's NotificationChannel): what people call
-- it ("Sales team on Slack"), shown in the app and picked in subscription forms. NULL = no name;
-- the app then shows a label derived from the type and config, as before.
ALTER TABLE notification_channels ADD COLUMN name text;
