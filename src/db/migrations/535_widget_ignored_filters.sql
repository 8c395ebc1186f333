-- A widget may opt out of some of its dashboard's filters (the preset and the filter bar): the names
-- of those filter dimensions, or `date` for the date range (docs/web.md "Filter bar").
ALTER TABLE dashboard_widgets ADD COLUMN ignored_filters jsonb;
