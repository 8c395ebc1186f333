import { Type, type Static } from 'typebox';
import { CHANNEL_TYPES } from '../../adapters/delivery/types.ts';
import { Nullable, Timestamp } from '../../lib/schemas.ts';
import { CompareSchema, CountrySchema, MAX_FILTER_VALUES } from '../../lib/chart.schemas.ts';

export const ChannelTypeSchema = Type.Enum([...CHANNEL_TYPES], { description: 'Channel type' });
export const ScheduleSchema = Type.Enum(['daily', 'weekly', 'monthly'], { description: 'How often a subscription sends' });
export const ScheduleTimeSchema = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'HH:mm, read in `timezone` (UTC unless set)',
});
export const TimezoneSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name (e.g. Europe/Berlin) in which schedule_time and cron are read; default UTC',
});
export const CronSchema = Type.String({
  minLength: 9,
  maxLength: 200,
  description: '5-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`; when set it decides the slots',
});
export const ThresholdConditionSchema = Type.Object(
  {
    op: Type.Enum(['above', 'below', 'change_above', 'change_below'], {
      description:
        'above/below compare the headline value (or, on a breakdown or top insight, each row); change_* its change ' +
        'against the previous window, in percent',
    }),
    value: Type.Number({ description: 'The threshold (a percentage for change_*)' }),
    measure: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "A measure of the insight; default the chart's first" }),
    ),
  },
  { additionalProperties: false, title: 'ThresholdCondition', description: 'Alert: the slot sends only when this holds' },
);
export const AnomalyConditionSchema = Type.Object(
  {
    kind: Type.Literal('anomaly'),
    measure: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "A measure of the insight; default the chart's first" }),
    ),
    sensitivity: Type.Optional(
      Type.Enum(['low', 'medium', 'high'], {
        description: 'How far from the usual a value must lie: low 5, medium 4 (default), high 3 robust standard deviations',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'AnomalyCondition',
    description:
      "Alert when the last complete period lies outside what the measure's own history predicts (per value on a " +
      'breakdown or a split series; docs/notifications.md)',
  },
);
export const ConditionSchema = Type.Union([ThresholdConditionSchema, AnomalyConditionSchema], {
  description: 'Alert: a threshold (op, value) or an anomaly ({kind: "anomaly"}); the slot sends only when it holds',
});
export const NotifySchema = Type.Enum(['every_time', 'on_change'], {
  description: 'every_time: each slot where the condition holds; on_change: only when it becomes true after being false',
});
const DayOfWeek = Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday; weekly only' });
const DayOfMonth = Type.Integer({
  minimum: 1,
  maximum: 31,
  description: '1 … 31; monthly only (29–31 fall on the last day of shorter months)',
});
const NextRunAt = Nullable(Type.String({ format: 'date-time', description: 'The next slot (UTC); null while inactive' }));

/** The insight's other filters (beside the contract's `country`): a value, or several (any of them). */
const SubscriptionFilters = Type.Record(
  Type.String({ pattern: '^[a-z][a-z0-9_]{0,62}$' }),
  Type.Union([
    Type.String({ minLength: 1, maxLength: 200 }),
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_FILTER_VALUES }),
  ]),
  { description: "The insight's filters other than country, as execute takes them: a value or a list each", maxProperties: 20 },
);

export const InsightSubscriptionSchema = Type.Object(
  {
    id: Type.String(),
    insight_code: Type.String(),
    insight_name: Type.String(),
    channel_id: Type.String(),
    channel_type: ChannelTypeSchema,
    schedule: ScheduleSchema,
    schedule_time: ScheduleTimeSchema,
    schedule_day_of_week: Nullable(DayOfWeek),
    schedule_day_of_month: Nullable(DayOfMonth),
    granularity: Type.String(),
    country: Nullable(Type.String()),
    filters: Nullable(SubscriptionFilters),
    compare: Nullable(CompareSchema),
    is_active: Type.Boolean(),
    created_at: Timestamp,
    next_run_at: NextRunAt,
    timezone: TimezoneSchema,
    cron: Nullable(CronSchema),
    condition: Nullable(ConditionSchema),
    notify: NotifySchema,
    last_checked_at: Nullable(Type.String({ format: 'date-time', description: 'When the condition was last evaluated at a slot' })),
    last_condition_met: Nullable(Type.Boolean({ description: 'Whether it held then' })),
  },
  { title: 'InsightSubscription' },
);
export type InsightSubscriptionView = Static<typeof InsightSubscriptionSchema>;

export const CreateInsightSubscriptionBody = Type.Object(
  {
    insight_code: Type.String({ minLength: 1, maxLength: 200 }),
    channel_id: Type.String({ minLength: 1, maxLength: 200 }),
    schedule: ScheduleSchema,
    granularity: Type.String({ minLength: 1, maxLength: 50 }),
    country: Type.Optional(CountrySchema),
    filters: Type.Optional(SubscriptionFilters),
    compare: Type.Optional(CompareSchema),
    schedule_time: Type.Optional(ScheduleTimeSchema),
    schedule_day_of_week: Type.Optional(DayOfWeek),
    schedule_day_of_month: Type.Optional(DayOfMonth),
    timezone: Type.Optional(TimezoneSchema),
    cron: Type.Optional(CronSchema),
    condition: Type.Optional(ConditionSchema),
    notify: Type.Optional(NotifySchema),
  },
  { additionalProperties: false },
);
export type CreateInsightSubscription = Static<typeof CreateInsightSubscriptionBody>;

export const DashboardSubscriptionSchema = Type.Object(
  {
    id: Type.String(),
    dashboard_id: Type.String(),
    dashboard_name: Type.String(),
    channel_ids: Type.Array(Type.String()),
    schedule: ScheduleSchema,
    schedule_time: ScheduleTimeSchema,
    schedule_day_of_week: Nullable(DayOfWeek),
    schedule_day_of_month: Nullable(DayOfMonth),
    is_active: Type.Boolean(),
    created_at: Timestamp,
    next_run_at: NextRunAt,
    timezone: TimezoneSchema,
    cron: Nullable(CronSchema),
    attach_pdf: Type.Boolean({ description: 'Whether reports carry the whole dashboard as a PDF' }),
  },
  { title: 'DashboardSubscription' },
);
export type DashboardSubscriptionView = Static<typeof DashboardSubscriptionSchema>;

export const CreateDashboardSubscriptionBody = Type.Object(
  {
    dashboard_id: Type.String({ minLength: 1, maxLength: 200 }),
    // Required by the API contract (docs/product.md §1), but the response always shows the dashboard's current name.
    dashboard_name: Type.String({ maxLength: 500 }),
    channel_ids: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50, uniqueItems: true }),
    schedule: ScheduleSchema,
    schedule_time: ScheduleTimeSchema,
    schedule_day_of_week: Type.Optional(DayOfWeek),
    schedule_day_of_month: Type.Optional(DayOfMonth),
    timezone: Type.Optional(TimezoneSchema),
    cron: Type.Optional(CronSchema),
    attach_pdf: Type.Optional(Type.Boolean({ default: true, description: 'Attach the whole dashboard as a PDF (default true)' })),
  },
  { additionalProperties: false },
);
export type CreateDashboardSubscription = Static<typeof CreateDashboardSubscriptionBody>;

export const ToggleBody = Type.Object({ is_active: Type.Boolean() }, { additionalProperties: false });

export const SendNowResponse = Type.Object(
  {
    subscription_id: Type.String(),
    subscription_kind: Type.Enum(['insight', 'dashboard']),
    slot_at: Timestamp,
    deliveries: Type.Array(Type.Object({ id: Type.String(), channel_id: Type.String(), status: Type.String() })),
  },
  { title: 'SendNowResult' },
);
export type SendNowView = Static<typeof SendNowResponse>;
