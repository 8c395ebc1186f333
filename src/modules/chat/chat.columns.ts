// The answer's columns in the answer's language (docs/web.md "Chat in the answer's language"):
// the model's per-language titles of measures and dimensions; the columns the engine adds (the
// period, a comparison's previous value and change) in the same words; English, or a language the
// model gives no title in, keeps the execute response's labels.
import type { ExecuteResult } from '../insights/insights.service.ts';
import type { InsightDefinition } from '../../semantic/types.ts';
import type { Language } from './language/languages.ts';

export type AnswerColumn = ExecuteResult['columns'][number];

interface Words {
  /** The engine's own columns, by name. */
  fixed: Record<string, string>;
  previous_period: string;
  previous_year: string;
  change: string;
}

const WORDS: Record<Exclude<Language, 'en'>, Words> = {
  de: {
    fixed: {
      period: 'Zeitraum',
      period_from: 'Von',
      period_to: 'Bis',
      previous_period_from: 'Vorher von',
      previous_period_to: 'Vorher bis',
      change: 'Änderung',
      change_pct: 'Änderung (%)',
    },
    previous_period: 'Vorzeitraum',
    previous_year: 'Vorjahr',
    change: 'Änderung (%)',
  },
  fr: {
    fixed: {
      period: 'Période',
      period_from: 'Du',
      period_to: 'Au',
      previous_period_from: 'Précédent du',
      previous_period_to: 'Précédent au',
      change: 'Variation',
      change_pct: 'Variation (%)',
    },
    previous_period: 'période précédente',
    previous_year: 'année précédente',
    change: 'variation (%)',
  },
  es: {
    fixed: {
      period: 'Periodo',
      period_from: 'Desde',
      period_to: 'Hasta',
      previous_period_from: 'Anterior desde',
      previous_period_to: 'Anterior hasta',
      change: 'Variación',
      change_pct: 'Variación (%)',
    },
    previous_period: 'periodo anterior',
    previous_year: 'año anterior',
    change: 'variación (%)',
  },
};

export function localizedColumns(
  result: Pick<ExecuteResult, 'columns' | 'compare'>,
  def: InsightDefinition | undefined,
  language: Language,
): AnswerColumn[] {
  const { columns } = result;
  if (language === 'en' || !def) return columns;
  const words = WORDS[language];
  const titleOf = (name: string): string | undefined => def.localizedTitles[name]?.[language];
  // A comparison's columns: "<measure>, previous period" and "<measure>, change (%)" (the compiler's English).
  const previous = result.compare === 'previous_year' ? words.previous_year : words.previous_period;
  // A KPI's columns are value, previous_value…: its measure's title names them.
  const kpi = def.kind === 'kpi' ? def.measures[0]?.name : undefined;
  return columns.map((c) => {
    let label: string | undefined;
    if (titleOf(c.name)) label = titleOf(c.name);
    else if (kpi && c.name === 'value') label = titleOf(kpi);
    else if (kpi && c.name === 'previous_value') label = titleOf(kpi) && `${titleOf(kpi)}, ${previous}`;
    else if (words.fixed[c.name]) label = words.fixed[c.name];
    else if (c.name.endsWith('_previous')) {
      const base = titleOf(c.name.slice(0, -'_previous'.length));
      label = base && `${base}, ${previous}`;
    } else if (c.name.endsWith('_change_pct')) {
      const base = titleOf(c.name.slice(0, -'_change_pct'.length));
      label = base && `${base}, ${words.change}`;
    }
    return label ? { ...c, label } : c;
  });
}
