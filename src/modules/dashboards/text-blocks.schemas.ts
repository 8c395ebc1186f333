// Markdown text blocks of a dashboard (extension): headings, notes and links beside the widgets.
import { Type, type Static } from 'typebox';
import { ResourceId, Timestamp } from '../../lib/schemas.ts';
import { DISPLAY_SIZES } from './widgets.schemas.ts';

export const MAX_TEXT_BLOCK_CHARS = 10_000;

const Body = Type.String({
  minLength: 1,
  maxLength: MAX_TEXT_BLOCK_CHARS,
  description: 'Markdown (CommonMark); raw HTML is shown as text, links only http(s), mailto and relative',
});
const Size = Type.Enum([...DISPLAY_SIZES], { description: "The width in the dashboard's grid, as a widget's display_size" });
const Position = Type.Integer({
  minimum: 0,
  maximum: 1000,
  description: 'Shown before the widget at this index of widget_ids; the number of widgets or more: after the last one',
});

export const TextBlockSchema = Type.Object(
  {
    id: Type.String(),
    dashboard_id: Type.String(),
    body: Type.String(),
    display_size: Size,
    position: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'DashboardTextBlock', description: 'A markdown text block of a dashboard (extension)' },
);
export type TextBlockView = Static<typeof TextBlockSchema>;

export const CreateTextBlockBody = Type.Object(
  {
    body: Body,
    display_size: Type.Optional(Size),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);
export type CreateTextBlockInput = Static<typeof CreateTextBlockBody>;

export const PatchTextBlockBody = Type.Partial(CreateTextBlockBody, { additionalProperties: false });
export type PatchTextBlockInput = Static<typeof PatchTextBlockBody>;

export const TextBlockParams = Type.Object({ id: ResourceId, bid: ResourceId });
