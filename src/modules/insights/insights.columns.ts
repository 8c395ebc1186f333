// The columns of an insight's rows, in order, as execute returns them: a time series' period (and
// series), a breakdown's dimensions, the measures and, with compare, each measure's previous
// figure and change; a KPI's fixed layout.
import type { InsightParams } from '../../semantic/query/insight-query.ts';
import type { ColumnType, InsightDefinition, OutputColumn } from '../../semantic/types.ts';

export function outputColumns(def: InsightDefinition, q?: Pick<InsightParams, 'series' | 'compare'>): OutputColumn[] {
  const plain = ({ ref: _ref, ...c }: OutputColumn): OutputColumn => c;
  if (def.kind === 'cohort') return [...def.dimensions, ...def.measures].map(plain);
  if (def.kind === 'timeseries' || def.kind === 'breakdown' || def.kind === 'top') {
    const keys: OutputColumn[] =
      def.kind === 'timeseries'
        ? [
            { name: 'period', type: 'date', label: 'Period' },
            ...(q?.series ? [{ name: q.series, type: 'string' as ColumnType, label: def.filterRules[q.series].label }] : []),
          ]
        : def.dimensions.map(plain);
    const compared: OutputColumn[] = [];
    if (q?.compare) {
      const what = q.compare.kind === 'previous_year' ? 'previous year' : 'previous period';
      for (const m of def.measures.map(plain)) {
        compared.push(
          { ...m, name: `${m.name}_previous`, label: `${m.label}, ${what}` },
          { name: `${m.name}_change_pct`, type: 'percent', label: `${m.label}, change (%)` },
        );
      }
    }
    return [...keys, ...def.measures.map(plain), ...compared];
  }
  const m = def.measures[0];
  const type: ColumnType = m.type;
  // The value, the previous value and the change are in the measure's unit.
  const unit = { ...(m.currency ? { currency: m.currency } : {}), ...(m.decimals !== undefined ? { decimals: m.decimals } : {}) };
  return [
    { name: 'period_from', type: 'date', label: 'From' },
    { name: 'period_to', type: 'date', label: 'To' },
    { name: 'value', type, label: m.label, ...unit },
    { name: 'previous_period_from', type: 'date', label: 'Previous from' },
    { name: 'previous_period_to', type: 'date', label: 'Previous to' },
    { name: 'previous_value', type, label: `${m.label}, previous window`, ...unit },
    { name: 'change', type, label: 'Change', ...unit },
    { name: 'change_pct', type: 'percent', label: 'Change (%)' },
  ];
}
