import { Type, type Static, type TSchema } from 'typebox';
import { CompareSchema, RelativeRangeSchema, GranularitySchema, IsoDateSchema, MAX_FILTER_VALUES } from '../../lib/chart.schemas.ts';
import { Nullable, PageQuery, ResourceId, Timestamp } from '../../lib/schemas.ts';
import { WidgetSchema } from './widgets.schemas.ts';

/** A filter value, or several (any of them), as execute takes them. */
const oneOrMore = <T extends TSchema>(value: T) => Type.Union([value, Type.Array(value, { minItems: 1, maxItems: MAX_FILTER_VALUES })]);

/**
 * A preset's filters: the date range or dates, compare and granularity, and any filter dimension of
 * the model (a value or several), checked against the model when written (dashboards.service.ts).
 */
export const PresetFiltersSchema = Type.Object(
  {
    compare: Type.Optional(CompareSchema),
    range: Type.Optional(RelativeRangeSchema),
    date_from: Type.Optional(IsoDateSchema),
    date_to: Type.Optional(IsoDateSchema),
    granularity: Type.Optional(GranularitySchema),
  },
  {
    additionalProperties: oneOrMore(Type.String({ minLength: 1, maxLength: 200 })),
    maxProperties: 50,
    description: "Any filter dimension of the model's insights (country, channel, …) takes a value or a list of values",
  },
);
export type PresetFilters = Static<typeof PresetFiltersSchema>;

export const PresetSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    filters: PresetFiltersSchema,
  },
  { title: 'GlobalFilterPreset' },
);
export type GlobalFilterPreset = Static<typeof PresetSchema>;

/** A preset as sent by a client: the id may be left out and is then generated. */
export const PresetInputSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    filters: Type.Optional(PresetFiltersSchema),
  },
  { additionalProperties: false },
);
export type PresetInput = Static<typeof PresetInputSchema>;

const Email = Type.String({ format: 'email', maxLength: 320 });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 5000 });
const Presets = Type.Array(PresetInputSchema, { maxItems: 50 });
const Emails = Type.Array(Email, { maxItems: 500 });

export const DashboardSchema = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    created_by: Type.String({ description: 'User id of the creator' }),
    created_by_name: Type.String(),
    is_shared: Type.Boolean({ description: 'Visible to every member of the tenant' }),
    shared_with_emails: Type.Array(Type.String(), { description: 'Lower-cased e-mail addresses that may view it' }),
    widget_ids: Type.Array(Type.String(), { description: 'Widget order' }),
    global_filter_presets: Type.Array(PresetSchema),
    active_preset_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Dashboard' },
);
export type DashboardView = Static<typeof DashboardSchema>;

export const DashboardDetailSchema = Type.Object(
  {
    ...DashboardSchema.properties,
    widgets: Type.Array(WidgetSchema, { description: 'The widgets, in widget_ids order' }),
  },
  { title: 'DashboardDetail' },
);

export const CreateDashboardBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Nullable(Description)),
    is_shared: Type.Optional(Type.Boolean({ default: false })),
    shared_with_emails: Type.Optional(Nullable(Emails)),
    global_filter_presets: Type.Optional(Presets),
    active_preset_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  },
  { additionalProperties: false },
);
export type CreateDashboardInput = Static<typeof CreateDashboardBody>;

export const PatchDashboardBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Nullable(Description)),
    is_shared: Type.Optional(Type.Boolean()),
    shared_with_emails: Type.Optional(Nullable(Emails)),
    global_filter_presets: Type.Optional(Presets),
    active_preset_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    widget_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 1000, description: 'A new order of the same widgets' })),
  },
  { additionalProperties: false },
);
export type PatchDashboardInput = Static<typeof PatchDashboardBody>;

export const DashboardParams = Type.Object({ id: ResourceId });
export const DashboardListQuery = Type.Object(PageQuery);
