// Generated from GET /api/v1/openapi.json by `npm run web:types`: do not edit.
/* eslint-disable */
export interface paths {
    "/api/v1/ai/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask a question in plain language; the numbers come from the insight engine */
        post: operations["chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List AI connectors (keys masked) */
        get: operations["listConnectors"];
        put?: never;
        /** Save an AI connector (overwrites the provider) and make it the active one */
        post: operations["saveConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/connectors/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a connector */
        delete: operations["deleteConnector"];
        options?: never;
        head?: never;
        /** Activate or deactivate a connector */
        patch: operations["setConnectorActive"];
        trace?: never;
    };
    "/api/v1/ai/connectors/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test a connection with a real minimal request (10 s timeout) */
        post: operations["testConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API tokens (masked) */
        get: operations["listApiTokens"];
        put?: never;
        /** Create an API token */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API token */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the dashboards you may view (newest first) */
        get: operations["listDashboards"];
        put?: never;
        /** Create a dashboard (owner or admin) */
        post: operations["createDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard with its widgets (in widget_ids order) */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        /** Delete a dashboard with its widgets and subscriptions */
        delete: operations["deleteDashboard"];
        options?: never;
        head?: never;
        /** Update a dashboard: name, description, sharing, filter presets, widget order */
        patch: operations["updateDashboard"];
        trace?: never;
    };
    "/api/v1/dashboards/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard as a PDF (the one its reports attach); query filters replace its default view for every widget that takes them */
        get: operations["downloadDashboardPdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a dashboard's subscriptions */
        get: operations["listSubscriptionsOfDashboard"];
        put?: never;
        /** Schedule a dashboard report */
        post: operations["createDashboardSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}/text-blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard's markdown text blocks (extension), by position; anyone who may view the dashboard */
        get: operations["listDashboardTextBlocks"];
        put?: never;
        /** Add a markdown text block (extension); owners, admins and the dashboard’s creator */
        post: operations["createDashboardTextBlock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}/text-blocks/{bid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a text block (extension) */
        delete: operations["deleteDashboardTextBlock"];
        options?: never;
        head?: never;
        /** Change a text block’s markdown, size or position (extension) */
        patch: operations["updateDashboardTextBlock"];
        trace?: never;
    };
    "/api/v1/dashboards/{id}/widgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard's widgets, in widget_ids order */
        get: operations["listWidgets"];
        put?: never;
        /** Add a widget (appended to widget_ids); body up to 5 MiB */
        post: operations["createWidget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}/widgets/{wid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a widget (removed from widget_ids) */
        delete: operations["deleteWidget"];
        options?: never;
        head?: never;
        /** Update a widget (data_source cannot change) */
        patch: operations["updateWidget"];
        trace?: never;
    };
    "/api/v1/dashboards/{id}/widgets/{wid}/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A widget's data, read-only (extension): anyone who may view the dashboard; records nothing. No query: the dashboard's default view (its active preset); a filter state replaces it for the widget, skipping what its insight does not take or it ignores */
        get: operations["getWidgetData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}/widgets/{wid}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refresh a live widget: run its insight (preset < widget_filters < body) and record the hint */
        post: operations["refreshWidget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/starter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The starter dashboard ("Start here") made from the insight catalog
         * @description 201 with a new one: two KPIs, a time series, two breakdowns and a top list, the first insights of each kind. 200 with the tenant's starter when it still exists (asking twice makes no second copy). Owners and admins. 409 when the model has no insights.
         */
        post: operations["postDashboardsStarter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the dashboard subscriptions you manage */
        get: operations["listDashboardSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/subscriptions/{subId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a dashboard subscription (its delivery logs stay) */
        delete: operations["deleteDashboardSubscription"];
        options?: never;
        head?: never;
        /** Switch a dashboard subscription on or off */
        patch: operations["setDashboardSubscriptionActive"];
        trace?: never;
    };
    "/api/v1/dashboards/subscriptions/{subId}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the report now to every channel of the subscription */
        post: operations["sendDashboardSubscriptionNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data/{table}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Load a CSV, NDJSON or JSON body into a table for the caller's tenant (owner, admin)
         * @description All or nothing: a row that does not fit is a 400 naming its line and column, and nothing is kept. Only a table that a cube of the model reads (404 otherwise). The first load of a table creates it with the columns the model reads, typed as the model reads them; other columns of the file are not stored. See docs/data.md.
         */
        post: operations["postData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data/tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The model's tables, with the caller's tenant's row count and time range of each */
        get: operations["getDataTables"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask chat as the embed token's viewer */
        post: operations["postEmbedChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/dashboards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An embed token's dashboard: live widgets and locked filters */
        get: operations["getEmbedDashboards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/dashboards/{id}/filter-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The values the viewer may pick for each of the dashboard's unlocked filters */
        get: operations["getEmbedDashboardsFilterValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/dashboards/{id}/widgets/{wid}/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A widget's data for the embed token's viewer */
        get: operations["getEmbedDashboardsWidgetsData"];
        put?: never;
        /** A widget's data for the embed token's viewer (choices in the body) */
        post: operations["postEmbedDashboardsWidgetsData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List embedding keys (secrets masked) */
        get: operations["getEmbedKeys"];
        put?: never;
        /** Create an embedding key (the secret is shown once) */
        post: operations["postEmbedKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an embedding key at once */
        delete: operations["deleteEmbedKeys"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the secret; the previous one verifies for 24 h more */
        post: operations["postEmbedKeysRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The insight catalog */
        get: operations["listInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/insights/{code}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run a catalog insight */
        get: operations["executeInsight"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/insights/filters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The filter dimensions of the catalog with their values in the caller's data (for pickers) */
        get: operations["getInsightsFilters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Not offered (405): the MCP endpoint sends no server-initiated stream */
        get: operations["getMcp"];
        put?: never;
        /** Model Context Protocol (Streamable HTTP, stateless): one JSON-RPC message per request; tools act as the caller */
        post: operations["postMcp"];
        /** Not offered (405): the MCP endpoint keeps no session to end */
        delete: operations["deleteMcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a query may name: the cubes' measures, dimensions and segments, the joins, the insights */
        get: operations["getModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/model/dimensions/{member}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dimension's values in the caller's data (at most 1,000), optionally those containing q */
        get: operations["getModelDimensionsValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notification channels (secrets masked) */
        get: operations["listChannels"];
        put?: never;
        /**
         * Create a notification channel
         * @description A webhook channel gets a Standard Webhooks signing secret, returned in plaintext in this answer only (config.signing_secret).
         */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a channel (its insight subscriptions go, dashboard subscriptions drop it; logs stay) */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /** Replace the config of a channel (resets is_verified), or rename it */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/api/v1/notifications/channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a real test message through the channel
         * @description 200 and is_verified = true when the upstream accepted it; 502 problem (UPSTREAM_FAILED) with its reason, and is_verified = false, otherwise; 409 when the channel's secrets were sealed under another master key.
         */
        post: operations["testChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts, newest first (Link rel="next" announces the next page) */
        get: operations["listDeliveryLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List insight subscriptions */
        get: operations["listInsightSubscriptions"];
        put?: never;
        /** Subscribe a channel to an insight */
        post: operations["createInsightSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a subscription (its delivery logs stay) */
        delete: operations["deleteInsightSubscription"];
        options?: never;
        head?: never;
        /** Switch a subscription on or off */
        patch: operations["setInsightSubscriptionActive"];
        trace?: never;
    };
    "/api/v1/notifications/subscriptions/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send now: stored before the answer, delivered at once through the queue */
        post: operations["sendInsightSubscriptionNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask any question the model can answer: measures by dimensions, filtered, over a window (docs/query.md) */
        post: operations["postQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/report-images/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chart of a report sent to Slack, Teams or Google Chat (public: its random id is the capability; kept 30 days) */
        get: operations["getReportImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What is running: package version, commit, Node.js, warehouse dialect (any authenticated caller) */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AIConnector */
        AIConnector: {
            /** @description first 4 + **** + last 4; **** when shorter than 12 */
            api_key_masked: string;
            base_url: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            is_active: boolean;
            model: string | null;
            model_label: string | null;
            /**
             * @description AI provider code
             * @enum {unknown}
             */
            provider: "vendor_a" | "vendor_b" | "vendor_c" | "router" | "custom";
        };
        /** AIConnectorTestResponse */
        AIConnectorTestResponse: {
            latency_ms: number | null;
            message: string;
            success: boolean;
        };
        /**
         * AnomalyCondition
         * @description Alert when the last complete period lies outside what the measure's own history predicts (per value on a breakdown or a split series; docs/notifications.md)
         */
        AnomalyCondition: {
            /** @enum {string} */
            kind: "anomaly";
            /** @description A measure of the insight; default the chart's first */
            measure?: string;
            /**
             * @description How far from the usual a value must lie: low 5, medium 4 (default), high 3 robust standard deviations
             * @enum {unknown}
             */
            sensitivity?: "low" | "medium" | "high";
        };
        /** ApiToken */
        ApiToken: {
            attributes: {
                [key: string]: string[];
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            email: string | null;
            id: string;
            name: string;
            revoked_at: string | null;
            role: "owner" | "admin" | "member";
            tenant_id: string;
            token_masked: string;
            user_id: string;
            user_name: string;
        };
        /** ChannelTestResult */
        ChannelTestResult: {
            latency_ms: number | null;
            message: string;
            success: boolean;
        };
        /**
         * ChartHint
         * @description How to draw rows as a chart
         */
        ChartHint: {
            series?: string;
            title?: string;
            type: components["schemas"]["ChartType"];
            x_axis: string;
            y_axis?: string[];
        };
        /**
         * ChartHintOverride
         * @description chart_type wins over chart_hint.type when rendering
         */
        ChartHintOverride: {
            chart_type?: components["schemas"]["ChartType"];
        };
        /**
         * ChartType
         * @description Chart type
         * @enum {unknown}
         */
        ChartType: "line" | "bar" | "stacked_bar" | "area" | "pie" | "scatter" | "table" | "kpi";
        /** ChatResult */
        ChatResult: {
            data: {
                /** @description Other queries that answer the question as well (the reply says which one was chosen), or, when it cannot be answered, the closest that can be asked */
                alternatives: components["schemas"]["StructuredQuery"][];
                /** @description "parser" (built-in) or the provider of the active AI connector that chose the query */
                answered_by: string;
                chart_hint: components["schemas"]["ChartHint"];
                /** @description The rows' columns, as execute returns them, titled in `language`; empty when nothing ran */
                columns: {
                    currency?: string;
                    decimals?: number;
                    /** @description The column's title in the answer's language (the model's title in it, when it gives one) */
                    label: string;
                    name: string;
                    /** @description As in the execute response: date, string, integer, money, percent, number, boolean */
                    type: string;
                }[];
                history_id: string;
                /** @description null when the question matched nothing */
                insight_code: string | null;
                /**
                 * @description The language the question was read in and reply_text is written in (ISO 639-1)
                 * @enum {unknown}
                 */
                language: "en" | "de" | "fr" | "es";
                /** @description The query that ran: the insight's (with insight_code) when an insight means exactly the question, else the semantic query composed from the model (POST /api/v1/query takes it as is); null when nothing ran */
                query: components["schemas"]["StructuredQuery"] | components["schemas"]["SemanticQuery"] | null;
                reply_text: string;
                rows: components["schemas"]["DataRow"][];
            };
            success: boolean;
        };
        /** CreatedApiToken */
        CreatedApiToken: {
            attributes: {
                [key: string]: string[];
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            email: string | null;
            id: string;
            name: string;
            revoked_at: string | null;
            role: "owner" | "admin" | "member";
            tenant_id: string;
            /** @description The plaintext token: shown once, never stored */
            token: string;
            token_masked: string;
            user_id: string;
            user_name: string;
        };
        /** CreatedEmbedKey */
        CreatedEmbedKey: {
            allowed_origins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            created_by: string;
            id: string;
            jwks_url: string | null;
            name: string;
            previous_secret_valid_until: string | null;
            rotated_at: string | null;
            /** @description The HS256 signing secret: shown once, by create and rotate */
            secret: string;
            secret_masked: string;
            tenant_id: string;
        };
        /** Dashboard */
        Dashboard: {
            active_preset_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            /** @description User id of the creator */
            created_by: string;
            created_by_name: string;
            description: string | null;
            global_filter_presets: components["schemas"]["GlobalFilterPreset"][];
            id: string;
            /** @description Visible to every member of the tenant */
            is_shared: boolean;
            name: string;
            /** @description Lower-cased e-mail addresses that may view it */
            shared_with_emails: string[];
            tenant_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            updated_at: string;
            /** @description Widget order */
            widget_ids: string[];
        };
        /** DashboardDetail */
        DashboardDetail: {
            active_preset_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            /** @description User id of the creator */
            created_by: string;
            created_by_name: string;
            description: string | null;
            global_filter_presets: components["schemas"]["GlobalFilterPreset"][];
            id: string;
            /** @description Visible to every member of the tenant */
            is_shared: boolean;
            name: string;
            /** @description Lower-cased e-mail addresses that may view it */
            shared_with_emails: string[];
            tenant_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            updated_at: string;
            /** @description Widget order */
            widget_ids: string[];
            /** @description The widgets, in widget_ids order */
            widgets: components["schemas"]["DashboardWidget"][];
        };
        /** DashboardSubscription */
        DashboardSubscription: {
            /** @description Whether reports carry the whole dashboard as a PDF */
            attach_pdf: boolean;
            channel_ids: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            cron: string | null;
            dashboard_id: string;
            dashboard_name: string;
            id: string;
            is_active: boolean;
            next_run_at: string | null;
            /**
             * @description How often a subscription sends
             * @enum {unknown}
             */
            schedule: "daily" | "weekly" | "monthly";
            schedule_day_of_month: number | null;
            schedule_day_of_week: number | null;
            /** @description HH:mm, read in `timezone` (UTC unless set) */
            schedule_time: string;
            /** @description IANA time zone name (e.g. Europe/Berlin) in which schedule_time and cron are read; default UTC */
            timezone: string;
        };
        /**
         * DashboardTextBlock
         * @description A markdown text block of a dashboard (extension)
         */
        DashboardTextBlock: {
            body: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            dashboard_id: string;
            /**
             * @description The width in the dashboard's grid, as a widget's display_size
             * @enum {unknown}
             */
            display_size: "small" | "medium" | "large" | "full";
            id: string;
            position: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            updated_at: string;
        };
        /**
         * DashboardWidget
         * @description A widget of a dashboard
         */
        DashboardWidget: {
            chart_hint: components["schemas"]["ChartHint"] | null;
            chart_hint_override: components["schemas"]["ChartHintOverride"] | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            dashboard_id: string;
            /**
             * @description Fixed at creation
             * @enum {unknown}
             */
            data_source: "live_insight" | "snapshot";
            /** @enum {unknown} */
            display_size: "small" | "medium" | "large" | "full";
            granularity: string | null;
            id: string;
            ignored_filters: string[] | null;
            insight_code: string | null;
            last_refreshed_at: string | null;
            query: components["schemas"]["SemanticQuery"] | null;
            snapshot_chart_hint: components["schemas"]["ChartHint"] | null;
            snapshot_columns: components["schemas"]["SnapshotColumn"][] | null;
            snapshot_data: components["schemas"]["DataRow"][] | null;
            snapshot_question: string | null;
            title: string;
            widget_filters: {
                [key: string]: unknown;
            } | null;
            /** @enum {unknown} */
            widget_type: "chart" | "table" | "kpi";
        };
        /**
         * DataRow
         * @description Column name → value
         */
        DataRow: {
            [key: string]: string | number | boolean | null;
        };
        /** DeliveryLog */
        DeliveryLog: {
            /** @description Which attempt of this delivery (1 … 5) */
            attempt: number;
            channel_id: string;
            /** @enum {unknown} */
            channel_type: "messenger" | "webhook" | "email" | "slack" | "teams" | "google_chat";
            error_message: string | null;
            id: string;
            /** @description The insight's name, or the dashboard's for a dashboard report */
            insight_name: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            sent_at: string;
            /** @enum {unknown} */
            status: "success" | "failed";
            subscription_id: string;
            /** @enum {unknown} */
            subscription_kind: "insight" | "dashboard";
        };
        /** EmbeddedDashboard */
        EmbeddedDashboard: {
            description: string | null;
            id: string;
            locked_filters: {
                [key: string]: string | string[];
            };
            name: string;
            widgets: {
                chart_hint_override: unknown;
                display_size: string;
                filters: string[];
                granularity: string | null;
                id: string;
                insight_code: string;
                title: string;
                widget_type: string;
            }[];
        };
        /** EmbedKey */
        EmbedKey: {
            allowed_origins: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            created_by: string;
            id: string;
            jwks_url: string | null;
            name: string;
            previous_secret_valid_until: string | null;
            rotated_at: string | null;
            secret_masked: string;
            tenant_id: string;
        };
        /** ExecuteResponse */
        ExecuteResponse: {
            data: {
                cached: boolean;
                chart_hint: components["schemas"]["ChartHint"];
                columns: {
                    /** @description A money column's ISO 4217 code, from the measure's format */
                    currency?: string;
                    /** @description Decimals to show, from the measure's format */
                    decimals?: number;
                    label: string;
                    name: string;
                    /** @description date, string, integer, money, percent (4.98 is 4.98 %), number, boolean: from the model */
                    type: string;
                }[];
                /**
                 * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
                 * @enum {unknown}
                 */
                compare?: "previous_period" | "previous_year";
                /** @description A filter's value, or its values when several were given */
                filters: {
                    [key: string]: string | string[];
                };
                generated_at: string;
                granularity: string | null;
                insight_code: string;
                insight_name: string;
                period: {
                    from: string;
                    to: string;
                };
                /** @description With compare: the window the rows were compared with */
                previous_period?: {
                    from: string;
                    to: string;
                };
                query?: components["schemas"]["SemanticQuery"];
                row_count: number;
                rows: {
                    [key: string]: string | number | boolean | null;
                }[];
            };
            /** @enum {boolean} */
            success: true;
        };
        /** FilterOptions */
        FilterOptions: {
            /** @description Its title in the model */
            label: string;
            /** @description False when no breakdown of the model lists this dimension: any value may be typed */
            listed: boolean;
            /** @description The dimension it stands for (cube.dimension): a query widget takes it when its measures reach it */
            member?: string;
            /** @description The execute parameter (country) */
            name: string;
            /** @description Its values in the caller's data, sorted (only those containing q when given) */
            values: string[];
        };
        /** GlobalFilterPreset */
        GlobalFilterPreset: {
            /** @description Any filter dimension of the model's insights (country, channel, …) takes a value or a list of values */
            filters: {
                /**
                 * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
                 * @enum {unknown}
                 */
                compare?: "previous_period" | "previous_year";
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC)
                 */
                date_from?: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD (UTC)
                 */
                date_to?: string;
                granularity?: components["schemas"]["Granularity"];
                /**
                 * @description A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter are the whole calendar period before
                 * @enum {unknown}
                 */
                range?: "last_7_days" | "last_30_days" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "year_to_date";
            } & {
                [key: string]: string | string[];
            };
            id: string;
            name: string;
        };
        /**
         * Granularity
         * @description Time granularity (week = ISO week, Monday)
         * @enum {unknown}
         */
        Granularity: "day" | "week" | "month" | "quarter" | "year";
        /** Insight */
        Insight: {
            chart_hint: components["schemas"]["ChartHint"];
            code: string;
            default_granularity: string | null;
            default_limit: number | null;
            description: string;
            dimensions: {
                label: string;
                name: string;
            }[];
            filters: string[];
            granularities: string[];
            /**
             * @description timeseries, breakdown, top, kpi or cohort
             * @enum {unknown}
             */
            kind: "timeseries" | "breakdown" | "top" | "kpi" | "cohort";
            measures: {
                label: string;
                name: string;
                type: string;
            }[];
            name: string;
            /** @description Query parameters execute accepts for this insight */
            parameters: string[];
            /** @description Other words for it, from the model */
            synonyms: string[];
        };
        /** InsightSubscription */
        InsightSubscription: {
            channel_id: string;
            /**
             * @description Channel type
             * @enum {unknown}
             */
            channel_type: "messenger" | "webhook" | "email" | "slack" | "teams" | "google_chat";
            compare: ("previous_period" | "previous_year") | null;
            condition: (components["schemas"]["ThresholdCondition"] | components["schemas"]["AnomalyCondition"]) | null;
            country: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            cron: string | null;
            filters: {
                [key: string]: string | string[];
            } | null;
            granularity: string;
            id: string;
            insight_code: string;
            insight_name: string;
            is_active: boolean;
            last_checked_at: string | null;
            last_condition_met: boolean | null;
            next_run_at: string | null;
            /**
             * @description every_time: each slot where the condition holds; on_change: only when it becomes true after being false
             * @enum {unknown}
             */
            notify: "every_time" | "on_change";
            /**
             * @description How often a subscription sends
             * @enum {unknown}
             */
            schedule: "daily" | "weekly" | "monthly";
            schedule_day_of_month: number | null;
            schedule_day_of_week: number | null;
            /** @description HH:mm, read in `timezone` (UTC unless set) */
            schedule_time: string;
            /** @description IANA time zone name (e.g. Europe/Berlin) in which schedule_time and cron are read; default UTC */
            timezone: string;
        };
        /**
         * JsonRpcMessage
         * @description A JSON-RPC 2.0 request, notification or response of the Model Context Protocol
         */
        JsonRpcMessage: {
            error?: {
                code: number;
                data?: unknown;
                message: string;
            };
            id?: string | number;
            /** @enum {string} */
            jsonrpc: "2.0";
            method?: string;
            params?: {
                [key: string]: unknown;
            };
            result?: {
                [key: string]: unknown;
            };
        };
        /**
         * JsonRpcResponse
         * @description The answer to a JSON-RPC request of the Model Context Protocol
         */
        JsonRpcResponse: {
            error?: {
                code: number;
                data?: unknown;
                message: string;
            };
            id: string | number | null;
            /** @enum {string} */
            jsonrpc: "2.0";
            /** @description e.g. tools/list, or a tools/call result with content, structuredContent and isError */
            result?: {
                [key: string]: unknown;
            };
        };
        /** ModelDescription */
        ModelDescription: {
            cubes: {
                description?: string;
                dimensions: {
                    description?: string;
                    format?: string;
                    /** @description cube.dimension, as a query names it */
                    name: string;
                    synonyms: string[];
                    title: string;
                    /** @description The title per language (en, de, fr, es), when the model gives it so */
                    titles?: {
                        [key: string]: string;
                    };
                    /** @description time, string, number or boolean */
                    type: string;
                    /** @description The only values it takes, when the model says so */
                    values?: string[];
                    /** @description GET /api/v1/model/dimensions/{member}/values lists its values (not a time dimension) */
                    values_listable: boolean;
                }[];
                joins: {
                    cube: string;
                    /** @description many_to_one: the joined cube is reachable from this one */
                    relationship: string;
                }[];
                measures: {
                    /** @description count, count_distinct, sum, avg, min, max or number (over other measures) */
                    aggregation: string;
                    currency?: string;
                    decimals?: number;
                    description?: string;
                    /** @description integer, number, money or percent */
                    format: string;
                    /** @description cube.measure, as a query names it */
                    name: string;
                    synonyms: string[];
                    title: string;
                    /** @description The title per language (en, de, fr, es), when the model gives it so */
                    titles?: {
                        [key: string]: string;
                    };
                }[];
                name: string;
                segments: {
                    description?: string;
                    /** @description cube.segment */
                    name: string;
                    title: string;
                }[];
                title: string;
            }[];
            insights: components["schemas"]["Insight"][];
        };
        /** ModelResponse */
        ModelResponse: {
            data: components["schemas"]["ModelDescription"];
        };
        /**
         * NotificationChannel
         * @description A notification channel
         */
        NotificationChannel: {
            /**
             * @description messenger, webhook, email, slack, teams or google_chat
             * @enum {unknown}
             */
            channel_type: "messenger" | "webhook" | "email" | "slack" | "teams" | "google_chat";
            /** @description Secrets (bot_token, signing_secret, and the webhook_url of slack, teams and google_chat) masked; a webhook signing_secret is shown in plaintext once, in the answer to its creation */
            config: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            created_at: string;
            id: string;
            /** @description true after a successful test; reset by a PATCH of config */
            is_verified: boolean;
            name: string | null;
        };
        /** @description RFC 9457 problem details */
        Problem: {
            code: string;
            detail: string;
            errors?: {
                message: string;
                path: string;
            }[];
            status: number;
            title: string;
            type: string;
        };
        /** QueryColumn */
        QueryColumn: {
            /** @description A money column's ISO 4217 code */
            currency?: string;
            /** @description Decimals to show */
            decimals?: number;
            label: string;
            /** @description The member ("cube.member"); a measure compared adds "<measure>.previous" */
            name: string;
            /** @description date, string, integer, money, percent (4.98 is 4.98 %), number, boolean: from the model */
            type: string;
        };
        /** QueryFilter */
        QueryFilter: {
            /** @description A member of the model as cube.member (GET /api/v1/model lists them) */
            member: string;
            /**
             * @description equals/not_equals: any of/none of values; contains/not_contains/starts_with: case-insensitive text; gt, gte, lt, lte: one value; between: two values, inclusive; set/not_set: no values
             * @enum {unknown}
             */
            operator: "equals" | "not_equals" | "contains" | "not_contains" | "starts_with" | "gt" | "gte" | "lt" | "lte" | "between" | "set" | "not_set";
            /** @description Numbers for numeric members and measures, YYYY-MM-DD dates for time dimensions, text otherwise */
            values?: (string | number | boolean)[];
        };
        /** QueryResponse */
        QueryResponse: {
            data: components["schemas"]["QueryResult"];
        };
        /** QueryResult */
        QueryResult: {
            columns: components["schemas"]["QueryColumn"][];
            query: components["schemas"]["SemanticQuery"];
            /** @description Keyed by member; a time period is its first day (YYYY-MM-DD) under the time dimension */
            rows: {
                [key: string]: string | number | boolean | null;
            }[];
            /** @description Rows of the answer before offset and limit */
            total_rows: number;
        };
        /** QueryTime */
        QueryTime: {
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC)
             */
            date_from?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC)
             */
            date_to?: string;
            /** @description A member of the model as cube.member (GET /api/v1/model lists them) */
            dimension: string;
            granularity?: components["schemas"]["Granularity"];
        };
        /** SemanticQuery */
        SemanticQuery: {
            /**
             * @description Adds <measure>.previous per measure
             * @enum {unknown}
             */
            compare?: "previous_period" | "previous_year";
            /** @description 0–10 dimensions, each reachable from every measure through the joins */
            dimensions?: string[];
            filters?: components["schemas"]["QueryFilter"][];
            /** @description Rows to return, default 1,000 */
            limit?: number;
            /** @description 1–20 measures, cube.measure */
            measures: string[];
            /** @description Rows to skip */
            offset?: number;
            order?: {
                /**
                 * @default asc
                 * @enum {unknown}
                 */
                direction: "asc" | "desc";
                /** @description A member of the model as cube.member (GET /api/v1/model lists them) */
                member: string;
            }[];
            segments?: string[];
            time?: components["schemas"]["QueryTime"];
        };
        /** SendNowResult */
        SendNowResult: {
            deliveries: {
                channel_id: string;
                id: string;
                status: string;
            }[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, milliseconds, Z
             */
            slot_at: string;
            subscription_id: string;
            /** @enum {unknown} */
            subscription_kind: "insight" | "dashboard";
        };
        /** SnapshotColumn */
        SnapshotColumn: {
            currency?: string;
            decimals?: number;
            label: string;
            /** @description The rows' key */
            name: string;
            /** @description As in the execute response: date, string, integer, money, percent, number, boolean */
            type: string;
        };
        /**
         * StructuredQuery
         * @description The structured query that ran, with the window and granularity the engine resolved
         */
        StructuredQuery: {
            /**
             * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
             * @enum {unknown}
             */
            compare?: "previous_period" | "previous_year";
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC)
             */
            date_from?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD (UTC)
             */
            date_to?: string;
            /** @description Filter values by the filter dimension's name, e.g. {"country": "DE"}; a list means any of them ({"country": ["ES", "IT"]}) */
            filters?: {
                [key: string]: string | string[];
            };
            granularity?: components["schemas"]["Granularity"];
            insight_code: string;
            limit?: number;
        };
        /**
         * ThresholdCondition
         * @description Alert: the slot sends only when this holds
         */
        ThresholdCondition: {
            /** @description A measure of the insight; default the chart's first */
            measure?: string;
            /**
             * @description above/below compare the headline value (or, on a breakdown or top insight, each row); change_* its change against the previous window, in percent
             * @enum {unknown}
             */
            op: "above" | "below" | "change_above" | "change_below";
            /** @description The threshold (a percentage for change_*) */
            value: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    chat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Continue this conversation, or start one under this id (the caller's own: 1–128 printable ASCII characters); omit to have one made */
                    history_id?: string;
                    /** @description The question, in English, German, French or Spanish */
                    message: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResult"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIConnector"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    saveConnector: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description plaintext; stored encrypted, never returned */
                    api_key: string;
                    /** @description custom provider only: the OpenAI-compatible API root */
                    base_url?: string;
                    model?: string;
                    /**
                     * @description AI provider code
                     * @enum {unknown}
                     */
                    provider: "vendor_a" | "vendor_b" | "vendor_c" | "router" | "custom";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIConnector"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description AI provider code */
                provider: "vendor_a" | "vendor_b" | "vendor_c" | "router" | "custom";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setConnectorActive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description AI provider code */
                provider: "vendor_a" | "vendor_b" | "vendor_c" | "router" | "custom";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    is_active: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIConnector"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testConnector: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description plaintext; stored encrypted, never returned */
                    api_key: string;
                    /** @description custom provider only: the OpenAI-compatible API root */
                    base_url?: string;
                    model: string;
                    /**
                     * @description AI provider code
                     * @enum {unknown}
                     */
                    provider: "vendor_a" | "vendor_b" | "vendor_c" | "router" | "custom";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIConnectorTestResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiToken"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description User attributes for the model's access filters: a name to a value or a list of values */
                    attributes?: {
                        [key: string]: string | string[];
                    };
                    /** Format: email */
                    email?: string;
                    name: string;
                    role: "owner" | "admin" | "member";
                    user_id: string;
                    user_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiToken"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDashboards: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present when there is a further page: `<url>; rel="next"`, the same request with the cursor of that page */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active_preset_id?: string | null;
                    description?: string | null;
                    global_filter_presets?: {
                        /** @description Any filter dimension of the model's insights (country, channel, …) takes a value or a list of values */
                        filters?: {
                            /**
                             * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
                             * @enum {unknown}
                             */
                            compare?: "previous_period" | "previous_year";
                            /**
                             * Format: date
                             * @description YYYY-MM-DD (UTC)
                             */
                            date_from?: string;
                            /**
                             * Format: date
                             * @description YYYY-MM-DD (UTC)
                             */
                            date_to?: string;
                            granularity?: components["schemas"]["Granularity"];
                            /**
                             * @description A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter are the whole calendar period before
                             * @enum {unknown}
                             */
                            range?: "last_7_days" | "last_30_days" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "year_to_date";
                        } & {
                            [key: string]: string | string[];
                        };
                        id?: string;
                        name: string;
                    }[];
                    /** @default false */
                    is_shared?: boolean;
                    name: string;
                    shared_with_emails?: string[] | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardDetail"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active_preset_id?: string | null;
                    description?: string | null;
                    global_filter_presets?: {
                        /** @description Any filter dimension of the model's insights (country, channel, …) takes a value or a list of values */
                        filters?: {
                            /**
                             * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
                             * @enum {unknown}
                             */
                            compare?: "previous_period" | "previous_year";
                            /**
                             * Format: date
                             * @description YYYY-MM-DD (UTC)
                             */
                            date_from?: string;
                            /**
                             * Format: date
                             * @description YYYY-MM-DD (UTC)
                             */
                            date_to?: string;
                            granularity?: components["schemas"]["Granularity"];
                            /**
                             * @description A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter are the whole calendar period before
                             * @enum {unknown}
                             */
                            range?: "last_7_days" | "last_30_days" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "year_to_date";
                        } & {
                            [key: string]: string | string[];
                        };
                        id?: string;
                        name: string;
                    }[];
                    is_shared?: boolean;
                    name?: string;
                    shared_with_emails?: string[] | null;
                    /** @description A new order of the same widgets */
                    widget_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    downloadDashboardPdf: {
        parameters: {
            query?: {
                /** @description Filter: Category; repeat it for several values */
                category?: string[];
                /** @description Filter: Channel; repeat it for several values */
                channel?: string[];
                /** @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before */
                compare?: "previous_period" | "previous_year";
                /** @description Filter: Country; repeat it for several values */
                country?: string[];
                /** @description YYYY-MM-DD (UTC) */
                date_from?: string;
                /** @description YYYY-MM-DD (UTC) */
                date_to?: string;
                /** @description A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter are the whole calendar period before */
                range?: "last_7_days" | "last_30_days" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "year_to_date";
            };
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard as a PDF, one page per widget group, as its scheduled reports attach it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSubscriptionsOfDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSubscription"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createDashboardSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Attach the whole dashboard as a PDF (default true)
                     * @default true
                     */
                    attach_pdf?: boolean;
                    channel_ids: string[];
                    /** @description 5-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`; when set it decides the slots */
                    cron?: string;
                    dashboard_id: string;
                    dashboard_name: string;
                    /**
                     * @description How often a subscription sends
                     * @enum {unknown}
                     */
                    schedule: "daily" | "weekly" | "monthly";
                    /** @description 1 … 31; monthly only (29–31 fall on the last day of shorter months) */
                    schedule_day_of_month?: number;
                    /** @description 0 = Sunday … 6 = Saturday; weekly only */
                    schedule_day_of_week?: number;
                    /** @description HH:mm, read in `timezone` (UTC unless set) */
                    schedule_time: string;
                    /** @description IANA time zone name (e.g. Europe/Berlin) in which schedule_time and cron are read; default UTC */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSubscription"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDashboardTextBlocks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTextBlock"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createDashboardTextBlock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Markdown (CommonMark); raw HTML is shown as text, links only http(s), mailto and relative */
                    body: string;
                    /**
                     * @description The width in the dashboard's grid, as a widget's display_size
                     * @enum {unknown}
                     */
                    display_size?: "small" | "medium" | "large" | "full";
                    /** @description Shown before the widget at this index of widget_ids; the number of widgets or more: after the last one */
                    position?: number;
                };
            };
        };
        responses: {
            /** @description A markdown text block of a dashboard (extension) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTextBlock"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteDashboardTextBlock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                bid: string;
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateDashboardTextBlock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                bid: string;
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Markdown (CommonMark); raw HTML is shown as text, links only http(s), mailto and relative */
                    body?: string;
                    /**
                     * @description The width in the dashboard's grid, as a widget's display_size
                     * @enum {unknown}
                     */
                    display_size?: "small" | "medium" | "large" | "full";
                    /** @description Shown before the widget at this index of widget_ids; the number of widgets or more: after the last one */
                    position?: number;
                };
            };
        };
        responses: {
            /** @description A markdown text block of a dashboard (extension) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTextBlock"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWidgets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardWidget"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWidget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chart_hint?: components["schemas"]["ChartHint"] | null;
                    chart_hint_override?: components["schemas"]["ChartHintOverride"] | null;
                    /**
                     * @description Fixed at creation
                     * @enum {unknown}
                     */
                    data_source: "live_insight" | "snapshot";
                    /** @enum {unknown} */
                    display_size?: "small" | "medium" | "large" | "full";
                    granularity?: components["schemas"]["Granularity"] | null;
                    ignored_filters?: string[] | null;
                    insight_code?: string | null;
                    query?: components["schemas"]["SemanticQuery"] | null;
                    snapshot_chart_hint?: components["schemas"]["ChartHint"] | null;
                    snapshot_columns?: components["schemas"]["SnapshotColumn"][] | null;
                    snapshot_data?: components["schemas"]["DataRow"][] | null;
                    snapshot_question?: string | null;
                    title: string;
                    widget_filters?: {
                        [key: string]: unknown;
                    } | null;
                    /** @enum {unknown} */
                    widget_type: "chart" | "table" | "kpi";
                };
            };
        };
        responses: {
            /** @description A widget of a dashboard */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardWidget"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWidget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWidget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chart_hint?: components["schemas"]["ChartHint"] | null;
                    chart_hint_override?: components["schemas"]["ChartHintOverride"] | null;
                    /**
                     * @description Fixed at creation
                     * @enum {unknown}
                     */
                    data_source?: "live_insight" | "snapshot";
                    /** @enum {unknown} */
                    display_size?: "small" | "medium" | "large" | "full";
                    granularity?: components["schemas"]["Granularity"] | null;
                    ignored_filters?: string[] | null;
                    insight_code?: string | null;
                    query?: components["schemas"]["SemanticQuery"] | null;
                    snapshot_chart_hint?: components["schemas"]["ChartHint"] | null;
                    snapshot_columns?: components["schemas"]["SnapshotColumn"][] | null;
                    snapshot_data?: components["schemas"]["DataRow"][] | null;
                    snapshot_question?: string | null;
                    title?: string;
                    widget_filters?: {
                        [key: string]: unknown;
                    } | null;
                    /** @enum {unknown} */
                    widget_type?: "chart" | "table" | "kpi";
                };
            };
        };
        responses: {
            /** @description A widget of a dashboard */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardWidget"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWidgetData: {
        parameters: {
            query?: {
                /** @description Filter: Category; repeat it for several values */
                category?: string[];
                /** @description Filter: Channel; repeat it for several values */
                channel?: string[];
                /** @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before */
                compare?: "previous_period" | "previous_year";
                /** @description Filter: Country; repeat it for several values */
                country?: string[];
                /** @description YYYY-MM-DD (UTC) */
                date_from?: string;
                /** @description YYYY-MM-DD (UTC) */
                date_to?: string;
                /** @description A preset of the dashboard to apply instead of the active one; empty: none (the query is the whole state) */
                preset_id?: string;
                /** @description A window relative to today (UTC), resolved when the data is read: last_7_days and last_30_days end today; this_month, this_quarter and year_to_date run from the period start to today; last_month and last_quarter are the whole calendar period before */
                range?: "last_7_days" | "last_30_days" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "year_to_date";
            };
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    refreshWidget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The filters are the dashboard's, one state for all its widgets: what the insight does not take or the widget ignores (ignored_filters) is skipped instead of refused */
                    dashboard_filters?: boolean;
                    filters?: {
                        [key: string]: unknown;
                    } | null;
                    granularity?: string | null;
                    /** @description A preset of the dashboard to apply instead of the active one; null: none (the body's filters are the whole state) */
                    preset_id?: string | null;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postDashboardsStarter: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description No body, or an empty object */
        requestBody?: {
            content: {
                "application/json": Record<string, never> | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDashboardSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSubscription"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteDashboardSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                subId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setDashboardSubscriptionActive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                subId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    is_active: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSubscription"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendDashboardSubscriptionNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                subId: string;
            };
            cookie?: never;
        };
        /** @description No body, or an empty object */
        requestBody?: {
            content: {
                "application/json": Record<string, never> | null;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendNowResult"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postData: {
        parameters: {
            query?: {
                /** @description How text dates are written, tried before detection: D.M.YYYY, M/D/YYYY, D/M/YYYY, MMM D YYYY, YYYY-MM-DD HH:mm… or strptime (%d/%m/%Y). See docs/data.md. */
                date_format?: string;
                /** @description CSV: the field delimiter (one character, or "tab"); detected from the header row when not given */
                delimiter?: string;
                /** @description append adds the rows; replace first removes the caller's tenant's rows (never another tenant's) */
                mode?: "append" | "replace";
            };
            header?: never;
            path: {
                /** @description The table: a lower-case identifier; warehouse_*, pg_*, duckdb_* and reserved SQL words are refused */
                table: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": string;
                "application/x-ndjson": string;
                "text/csv": string;
                "text/tab-separated-values": string;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The file's columns and the types they were read as */
                        columns: {
                            /** @description For text dates read as dates: how they were written (M/D/YYYY, MMM D YYYY…) */
                            date_format?: string;
                            name: string;
                            /** @description As stored: BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP, BOOLEAN… */
                            type: string;
                        }[];
                        /** @enum {unknown} */
                        mode: "append" | "replace";
                        rows_loaded: number;
                        table: string;
                    };
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDataTables: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tables: {
                            /** @description Without the tenant_id column */
                            columns: {
                                name: string;
                                /** @description BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, BOOLEAN… */
                                type: string;
                            }[];
                            name: string;
                            /** @description The caller's tenant's rows */
                            row_count: number;
                            /** @description The earliest and latest value of each DATE/TIMESTAMP column in the caller's tenant's rows (null when it has none) */
                            time_ranges: {
                                column: string;
                                max: string | null;
                                min: string | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postEmbedChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Continue this conversation, or start one under this id (the caller's own: 1–128 printable ASCII characters); omit to have one made */
                    history_id?: string;
                    /** @description The question, in English, German, French or Spanish */
                    message: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResult"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEmbedDashboards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddedDashboard"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEmbedDashboardsFilterValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: string[];
                    };
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEmbedDashboardsWidgetsData: {
        parameters: {
            query?: {
                /** @description Filter: Category; repeat it for several values */
                category?: string[];
                /** @description Filter: Channel; repeat it for several values */
                channel?: string[];
                /** @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before */
                compare?: "previous_period" | "previous_year";
                /** @description Filter: Country; repeat it for several values */
                country?: string[];
                /** @description YYYY-MM-DD, inclusive, UTC */
                date_from?: string;
                /** @description YYYY-MM-DD, inclusive, UTC */
                date_to?: string;
                /** @description day, week (ISO, Monday), month, quarter, year */
                granularity?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postEmbedDashboardsWidgetsData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
                /** @description A UUIDv7 */
                wid: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    filters?: {
                        [key: string]: string | string[];
                    };
                    granularity?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEmbedKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedKey"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postEmbedKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Origins whose pages may frame the embedded pages (CSP frame-ancestors) */
                    allowed_origins: string[];
                    jwks_url?: string | null;
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedEmbedKey"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteEmbedKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postEmbedKeysRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body, or an empty object */
        requestBody?: {
            content: {
                "application/json": Record<string, never> | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedEmbedKey"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInsights: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    executeInsight: {
        parameters: {
            query?: {
                /** @description Filter: Category; repeat it for several values */
                category?: string[];
                /** @description Filter: Channel; repeat it for several values */
                channel?: string[];
                /** @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before */
                compare?: "previous_period" | "previous_year";
                /** @description Filter: Country; repeat it for several values */
                country?: string[];
                /** @description YYYY-MM-DD, inclusive, UTC */
                date_from?: string;
                /** @description YYYY-MM-DD, inclusive, UTC */
                date_to?: string;
                /** @description day, week (ISO, Monday), month, quarter, year */
                granularity?: string;
                limit?: number;
            };
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getInsightsFilters: {
        parameters: {
            query?: {
                /** @description Only this filter dimension */
                name?: string;
                /** @description Only values containing this text (any case) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilterOptions"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON-RPC 2.0 request, notification or response of the Model Context Protocol */
        requestBody: {
            content: {
                "application/json": components["schemas"]["JsonRpcMessage"];
            };
        };
        responses: {
            /** @description The answer to a JSON-RPC request of the Model Context Protocol */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"];
                };
            };
            /** @description The message was a notification or a response: accepted, no body */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getModelDimensionsValues: {
        parameters: {
            query?: {
                /** @description Only values containing this text (any case) */
                q?: string;
            };
            header?: never;
            path: {
                /** @description cube.dimension */
                member: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listChannels: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present when there is a further page: `<url>; rel="next"`, the same request with the cursor of that page */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description messenger, webhook, email, slack, teams or google_chat
                     * @enum {unknown}
                     */
                    channel_type: "messenger" | "webhook" | "email" | "slack" | "teams" | "google_chat";
                    /** @description Keys by type: messenger bot_token + chat_id; email email; webhook webhook_url (https) and, optionally, signing_secret (whsec_…, generated when absent); slack, teams and google_chat webhook_url (the incoming webhook, http(s), a secret). Secrets are returned masked. */
                    config: {
                        [key: string]: string;
                    };
                    /** @description What people call the channel ("Sales team on Slack"); leading and trailing spaces are dropped */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description A notification channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        /** @description config, name or both; a change of name alone keeps is_verified; name null removes it */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replaces the config whole (and resets is_verified); a secret sent back masked keeps the stored one */
                    config?: {
                        [key: string]: string;
                    };
                    name?: string | null;
                };
            };
        };
        responses: {
            /** @description A notification channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body, or an empty object */
        requestBody?: {
            content: {
                "application/json": Record<string, never> | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelTestResult"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDeliveryLogs: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                status?: "success" | "failed";
                subscription_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description Present when there is a further page: `<url>; rel="next"`, the same request with the cursor of that page */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryLog"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInsightSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsightSubscription"][];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createInsightSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    channel_id: string;
                    /**
                     * @description Each row gains <measure>_previous and <measure>_change_pct against the previous period of equal length, or the same period a year before
                     * @enum {unknown}
                     */
                    compare?: "previous_period" | "previous_year";
                    /** @description Alert: a threshold (op, value) or an anomaly ({kind: "anomaly"}); the slot sends only when it holds */
                    condition?: components["schemas"]["ThresholdCondition"] | components["schemas"]["AnomalyCondition"];
                    /** @description ISO 3166-1 alpha-2, upper case */
                    country?: string;
                    /** @description 5-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`; when set it decides the slots */
                    cron?: string;
                    /** @description The insight's filters other than country, as execute takes them: a value or a list each */
                    filters?: {
                        [key: string]: string | string[];
                    };
                    granularity: string;
                    insight_code: string;
                    /**
                     * @description every_time: each slot where the condition holds; on_change: only when it becomes true after being false
                     * @enum {unknown}
                     */
                    notify?: "every_time" | "on_change";
                    /**
                     * @description How often a subscription sends
                     * @enum {unknown}
                     */
                    schedule: "daily" | "weekly" | "monthly";
                    /** @description 1 … 31; monthly only (29–31 fall on the last day of shorter months) */
                    schedule_day_of_month?: number;
                    /** @description 0 = Sunday … 6 = Saturday; weekly only */
                    schedule_day_of_week?: number;
                    /** @description HH:mm, read in `timezone` (UTC unless set) */
                    schedule_time?: string;
                    /** @description IANA time zone name (e.g. Europe/Berlin) in which schedule_time and cron are read; default UTC */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsightSubscription"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteInsightSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setInsightSubscriptionActive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    is_active: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsightSubscription"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendInsightSubscriptionNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A UUIDv7 */
                id: string;
            };
            cookie?: never;
        };
        /** @description No body, or an empty object */
        requestBody?: {
            content: {
                "application/json": Record<string, never> | null;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendNowResult"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one of another tenant or that you may not view */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SemanticQuery"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"];
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReportImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description <id>.png */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chart as a PNG */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        commit: string | null;
                        /** @description The package name */
                        name: string;
                        /** @description The Node.js version serving */
                        node: string;
                        /** @description The package version (package.json) */
                        version: string;
                        /** @description The warehouse dialect: duckdb or postgres */
                        warehouse: string;
                    };
                };
            };
            /** @description RFC 9457 problem details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RFC 9457 problem details */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The server is shutting down or a dependency is unavailable; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
