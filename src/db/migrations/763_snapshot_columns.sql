-- A snapshot keeps the columns of the answer it was taken from (names, titles, order, types,
-- currency, decimals): its rows' keys alone lose the order (jsonb sorts them) and the formats.
ALTER TABLE dashboard_widgets ADD COLUMN snapshot_columns jsonb;
