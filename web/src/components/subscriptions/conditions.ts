// An insight subscription's alert condition: its kinds in the form's words, and in a list's.
import type { Insight, InsightSubscription } from '../../types.ts';

export type Condition = NonNullable<InsightSubscription['condition']>;
export type Threshold = Extract<Condition, { op: unknown }>;
/** A threshold's op, or 'anomaly' for an anomaly condition (the form's one select). */
export type Op = Threshold['op'] | 'anomaly';

export const OPS: [Op, string][] = [
  ['above', 'When the value is above'],
  ['below', 'When the value is below'],
  ['change_above', 'When the change is above (%)'],
  ['change_below', 'When the change is below (%)'],
  ['anomaly', 'When unusual for its history (anomaly)'],
];

const OP_WORDS: Record<Threshold['op'], string> = {
  above: 'above',
  below: 'below',
  change_above: 'change above',
  change_below: 'change below',
};

/** "Alert: revenue above 10000, only when it starts to hold". */
export function describeCondition(s: Pick<InsightSubscription, 'condition' | 'notify'>, insight?: Insight): string {
  const c = s.condition;
  if (!c) return '';
  const m = c.measure ?? (insight?.kind === 'kpi' ? undefined : insight?.measures[0]?.name);
  const label = insight?.measures.find((x) => x.name === m)?.label ?? m ?? 'value';
  const when = s.notify === 'on_change' ? ', only when it starts to hold' : '';
  if ('kind' in c) return `alert: unusual ${label} (${c.sensitivity ?? 'medium'} sensitivity)${when}`;
  const unit = c.op.startsWith('change_') ? ' %' : '';
  return `alert: ${label} ${OP_WORDS[c.op]} ${c.value}${unit}${when}`;
}
