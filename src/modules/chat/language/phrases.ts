// The words of chat's replies in English, German, French and Spanish, with numbers, dates and
// country names formatted for the language (Intl.NumberFormat, Intl.DateTimeFormat,
// Intl.DisplayNames). English keeps ISO dates, as the API writes them. chat.reply.ts decides what
// is said; this file only says it in one language.
import type { Language } from './languages.ts';
import { formatValue, type ValueFormat } from '../../../lib/charts/number-format.ts';

export interface Phrases {
  language: Language;
  number(value: number, unit: Unit | undefined): string;
  /** A percentage: "12.4 %", "12,4 %". */
  percent(value: number): string;
  date(iso: string): string;
  /** A window: "2026-03-01 to 2026-03-31" in English, "01.03.2026 – 31.03.2026" elsewhere. */
  span(from: string, to: string): string;
  country(code: string): string;
  /** "A and B", "A, B and C". */
  and(items: string[]): string;
  or(items: string[]): string;
  filters: {
    country(names: string): string;
    channel(values: string, several: boolean): string;
    category(values: string, several: boolean): string;
    other(name: string, values: string): string;
  };
  period: Record<string, string>;
  /** ": " — or " : " in French. */
  colon: string;
  /** What a period is called in "from the first … to the last": the unit in English, "period" elsewhere. */
  unit(word: string): string;
  /** A breakdown's name from its measure and dimension titles: "Umsatz nach Land". */
  byDimension(measure: string, dimension: string): string;
  /** "Revenue in Germany from 1 Jan to 31 Mar". */
  scope(name: string, filters: string, from: string, to: string): string;
  noData(name: string, filters: string, from: string, to: string): string;
  against: { previous_year: string; previous_period: string };
  /** "up 12.4 % on last year (…: 1,234.00)", or why there is no change. */
  change(pct: number | null, against: string, previous: string, period?: string): string;
  /** The KPI without compare: the built-in previous window. */
  kpiPrevious(pct: number | null, from: string, to: string, previous: string): string;
  leader(
    label: string,
    value: string,
    measure: string,
    share: string | undefined,
    last: { label: string; value: string; count: number } | undefined,
  ): string;
  share(pct: string, total: string): string;
  leaderChange(label: string, change: string): string;
  total(value: string): string;
  overall(value: string): string;
  /** A cohort's retention one period after its start: "the 2026-01-01 cohort kept 31.5 % of its 120". */
  cohortKept(cohort: string, retention: string, size: string): string;
  /** Cohorts from … to …; the best and the worst kept one period after their start. */
  cohorts(first: string, last: string, best: string | undefined, worst: string | undefined): string;
  /** A rolling or to-date figure: its latest period's value (a total of overlapping windows means nothing). */
  latest(value: string, period: string): string;
  series(scope: string, word: string, overall: string, change: string | undefined, bestWorst: string): string;
  seriesChange(pct: string, full: string, first: string, last: string): string;
  full(word: string): string;
  bestWorst(full: string, bestPeriod: string, bestValue: string, worstPeriod: string, worstValue: string): string;
  perValue(scope: string, word: string, dimension: string, parts: string[]): string;
  last(word: string, period: string, value: string, change: string): string;
  lastNone(word: string, period: string, yearAgo: boolean): string;
  note(notes: string[]): string;
  /**
   * Why the window is the data's own when the question named no period: all of it ("all"), its
   * latest ten years ("capped"), or its latest stretch because the default window before today is empty ("latest").
   */
  dataWindow(kind: 'all' | 'capped' | 'latest', span: string): string;
  /** The reply to a question that maps to nothing: what can be asked. */
  help(insights: string, filters: string, units: string, examples: string): string;
  refusal: {
    measure(term: string, measures: string): string;
    dimension(term: string, dims: string, finest: string | undefined): string;
    granularity(term: string, finest: string): string;
    future(term: string, from: string | undefined, today: string): string;
  };
}

/** A column's type, or the column itself (its currency and decimals from the model). */
export type Unit = string | ValueFormat;

const LOCALES: Record<Language, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' };

function formats(language: Language) {
  const locale = LOCALES[language];
  const int = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const pct = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const regions = new Intl.DisplayNames([language], { type: 'region' });
  const list = (type: 'conjunction' | 'disjunction') => new Intl.ListFormat(locale, { style: 'long', type });
  const conj = list('conjunction');
  const disj = list('disjunction');
  // English keeps the API's ISO dates; the other languages read theirs.
  const date = (iso: string) => (language === 'en' ? iso : dates.format(new Date(`${iso}T00:00:00Z`)));
  return {
    number(value: number, unit: Unit | undefined) {
      const type = typeof unit === 'string' ? unit : unit?.type;
      // A column with a currency or decimals from the model reads as widgets and reports write it.
      if (typeof unit === 'object' && (unit.currency || unit.decimals !== undefined)) return formatValue(value, unit, locale);
      if (type === 'money') return money.format(value);
      if (type === 'percent') return `${pct.format(value)} %`;
      if (type === 'integer') return int.format(value);
      return pct.format(value);
    },
    percent: (value: number) => `${pct.format(value)} %`,
    date,
    span: (from: string, to: string) => (language === 'en' ? `${from} to ${to}` : `${date(from)} – ${date(to)}`),
    country(code: string) {
      try {
        const name = regions.of(code) ?? code;
        return name !== code ? `${name} (${code})` : code;
      } catch {
        return code;
      }
    },
    // English keeps its own list style ("A, B and C", no Oxford comma), as replies always had.
    and: (items: string[]) =>
      language === 'en'
        ? items.length > 1
          ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
          : (items[0] ?? '')
        : conj.format(items),
    or: (items: string[]) =>
      language === 'en'
        ? items.length > 1
          ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
          : (items[0] ?? '')
        : disj.format(items),
  };
}

type Formats = ReturnType<typeof formats>;
type Words = Omit<Phrases, keyof Formats | 'language'>;

const EN = (f: Formats): Words => ({
  filters: {
    country: (names) => `in ${names}`,
    channel: (values, several) => `on the ${values} channel${several ? 's' : ''}`,
    category: (values, several) => `in the ${values} categor${several ? 'ies' : 'y'}`,
    other: (name, values) => `for ${name} ${values}`,
  },
  period: { day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' },
  colon: ': ',
  unit: (word) => word,
  byDimension: (measure, dimension) => `${measure} by ${dimension.toLowerCase()}`,
  scope: (name, filters, from, to) => `${name}${filters} from ${from} to ${to}`,
  noData: (name, filters, from, to) => `No ${name.toLowerCase()}${filters} from ${from} to ${to}: the data has none for this selection.`,
  against: { previous_year: 'last year', previous_period: 'the previous period' },
  change(pct, against, previous, period) {
    if (pct === null) return `against ${previous} ${against}${period ? ` (${period})` : ''}, so there is no percentage change`;
    const how = pct > 0 ? `up ${f.percent(pct)}` : pct < 0 ? `down ${f.percent(-pct)}` : 'unchanged';
    return `${how} on ${against} (${period ? `${period}: ${previous}` : previous})`;
  },
  kpiPrevious: (pct, from, to, previous) =>
    pct === null
      ? `the previous period (${from} to ${to}) had ${previous}, so there is no percentage change`
      : `${pct > 0 ? '+' : ''}${f.percent(pct)} on the previous period (${from} to ${to}: ${previous})`,
  leader: (label, value, measure, share, last) =>
    `${label} leads with ${value} ` +
    `${measure}${share ?? ''}${last ? `; last of the ${last.count} listed is ${last.label} with ${last.value}` : ''}`,
  share: (pct, total) => ` (${pct} of the ${total} shown)`,
  leaderChange: (label, change) => `${label} is ${change}.`,
  total: (value) => `total ${value}`,
  overall: (value) => `overall ${value}`,
  latest: (value, period) => `latest ${value} (${period})`,
  cohortKept: (c, r, n) => `the ${c} cohort kept ${r} of its ${n}`,
  cohorts: (f, l, b, w) =>
    `cohorts from ${f} to ${l}${b ? `; one period after their start, ${b} (the most)${w ? `, ${w} (the least)` : ''}` : ''}`,
  series: (scope, word, overall, change, best) => `${scope} by ${word}: ${overall}${change ?? ''}. ${best}`,
  seriesChange: (pct, full, first, last) => `, ${pct} from the first ${full} (${first}) to the last (${last})`,
  full: (word) => `full ${word}`,
  bestWorst: (full, bp, bv, wp, wv) => `Best ${full}: ${bp} (${bv}); worst: ${wp} (${wv}).`,
  perValue: (scope, word, dimension, parts) => `${scope} by ${word}, per ${dimension}. ${parts.join('. ')}.`,
  last: (word, period, value, change) => `The last ${word} (${period}): ${value}, ${change}.`,
  lastNone: (word, period, yearAgo) => `The last ${word} (${period}) has no counterpart ${yearAgo ? 'a year before' : 'before it'}.`,
  note: (notes) => ` Note: ${notes.join('; ')}.`,
  dataWindow: (kind, span) =>
    kind === 'all'
      ? `no period was named, so this covers all of the data (${span})`
      : kind === 'capped'
        ? `no period was named, so this covers the latest ten years of the data (${span})`
        : `no period was named and the data holds nothing in the default window before today, so this is the data's ` +
          `latest stretch (${span})`,
  help: (insights, filters, units, examples) =>
    'I could not match that question to the data I can query. ' +
    `I can answer questions about: ${insights}${filters ? ` — filtered by ${filters}` : ''}, ` +
    `for a period such as "last 7 days", "last quarter", "in 2025" or "since March", by ${units}. ` +
    `For example: ${examples}.`,
  refusal: {
    measure: (term, measures) => `I have no ${term} in this data model, so I cannot answer that. I can show ${measures}.`,
    dimension: (term, dims, finest) =>
      `I cannot break this down by ${term}: the data model has no ${term.replace(/s$/, '')}. I can break it down by ` +
      `${dims}${finest ? `, or show it by ${finest} or longer periods` : ''}.`,
    granularity: (term, finest) => `I cannot show it by ${term.replace(/ly$/, '')}: the finest period I have is a ${finest}.`,
    future: (term, from, today) =>
      `"${term}"${from ? ` (from ${from})` : ''} has not happened yet: I report what the data holds, up to today ` +
      `(${today}), and make no forecasts.`,
  },
});

const DE = (f: Formats): Words => ({
  filters: {
    country: (names) => `in ${names}`,
    channel: (values, several) => (several ? `in den Kanälen ${values}` : `im Kanal ${values}`),
    category: (values, several) => (several ? `in den Kategorien ${values}` : `in der Kategorie ${values}`),
    other: (name, values) => `für ${name} ${values}`,
  },
  period: { day: 'Tag', week: 'Woche', month: 'Monat', quarter: 'Quartal', year: 'Jahr' },
  colon: ': ',
  unit: () => 'Periode',
  byDimension: (measure, dimension) => `${measure} nach ${dimension}`,
  scope: (name, filters, from, to) => `${name}${filters} vom ${from} bis ${to}`,
  noData: (name, filters, from, to) => `Kein Ergebnis für ${name}${filters} vom ${from} bis ${to}: Die Daten enthalten dafür nichts.`,
  against: { previous_year: 'im Vorjahr', previous_period: 'im Vorzeitraum' },
  change(pct, against, previous, period) {
    if (pct === null) return `gegenüber ${previous} ${against}${period ? ` (${period})` : ''}, daher keine prozentuale Veränderung`;
    const how = pct > 0 ? `${f.percent(pct)} mehr` : pct < 0 ? `${f.percent(-pct)} weniger` : 'unverändert';
    return `${how} als ${against} (${period ? `${period}: ${previous}` : previous})`;
  },
  kpiPrevious: (pct, from, to, previous) =>
    pct === null
      ? `im Vorzeitraum (${from} bis ${to}) waren es ${previous}, daher keine prozentuale Veränderung`
      : `${pct > 0 ? '+' : ''}${f.percent(pct)} gegenüber dem Vorzeitraum (${from} bis ${to}: ${previous})`,
  leader: (label, value, measure, share, last) =>
    `${label} liegt vorn mit ${value} ` +
    `${measure}${share ?? ''}${last ? `; zuletzt von ${last.count} aufgeführten: ${last.label} mit ${last.value}` : ''}`,
  share: (pct, total) => ` (${pct} der gezeigten ${total})`,
  leaderChange: (label, change) => `${label}: ${change}.`,
  total: (value) => `insgesamt ${value}`,
  overall: (value) => `insgesamt ${value}`,
  latest: (value, period) => `zuletzt ${value} (${period})`,
  cohortKept: (c, r, n) => `die Kohorte ${c} behielt ${r} ihrer ${n}`,
  cohorts: (f, l, b, w) =>
    `Kohorten von ${f} bis ${l}${b ? `; eine Periode nach ihrem Beginn ${b} (am meisten)${w ? `, ${w} (am wenigsten)` : ''}` : ''}`,
  series: (scope, word, overall, change, best) => `${scope} nach ${word}: ${overall}${change ?? ''}. ${best}`,
  seriesChange: (pct, full, first, last) => `, ${pct} von der ersten ${full} (${first}) bis zur letzten (${last})`,
  full: () => 'vollständigen Periode',
  bestWorst: (_full, bp, bv, wp, wv) => `Beste Periode: ${bp} (${bv}); schwächste: ${wp} (${wv}).`,
  perValue: (scope, word, dimension, parts) => `${scope} nach ${word}, je ${dimension}. ${parts.join('. ')}.`,
  last: (word, period, value, change) => `Letzte Periode (${word}, ${period}): ${value}, ${change}.`,
  lastNone: (word, period, yearAgo) =>
    `Die letzte Periode (${word}, ${period}) hat keine Entsprechung ${yearAgo ? 'im Vorjahr' : 'davor'}.`,
  note: (notes) => ` Hinweis: ${notes.join('; ')}.`,
  dataWindow: (kind, span) =>
    kind === 'all'
      ? `es wurde kein Zeitraum genannt, daher umfasst dies alle Daten (${span})`
      : kind === 'capped'
        ? `es wurde kein Zeitraum genannt, daher umfasst dies die letzten zehn Jahre der Daten (${span})`
        : `es wurde kein Zeitraum genannt und im üblichen Zeitraum bis heute gibt es keine Daten, daher ist dies der ` +
          `jüngste Abschnitt der Daten (${span})`,
  help: (insights, filters, units, examples) =>
    'Diese Frage konnte ich keinen Daten zuordnen. ' +
    `Ich kann Fragen beantworten zu: ${insights}${filters ? ` — gefiltert nach ${filters}` : ''}, ` +
    `für Zeiträume wie „letzte 7 Tage“, „letztes Quartal“, „2025“ oder „seit März“, nach ${units}. ` +
    `Zum Beispiel (auch auf Englisch verstanden): ${examples}.`,
  refusal: {
    measure: (term, measures) =>
      `„${term}“ gibt es in diesem Datenmodell nicht, daher kann ich das nicht beantworten. Ich kann zeigen: ${measures}.`,
    dimension: (term, dims, finest) =>
      `Eine Aufschlüsselung nach „${term}“ gibt es im Datenmodell nicht. Möglich ist eine Aufschlüsselung nach ` +
      `${dims}${finest ? `, oder nach Zeiträumen ab ${finest}` : ''}.`,
    granularity: (term, finest) => `Eine Darstellung nach „${term}“ ist nicht möglich: Der kleinste Zeitraum ist ein ${finest}.`,
    future: (term, from, today) =>
      `„${term}“${from ? ` (ab ${from})` : ''} liegt in der Zukunft: Ich berichte, was die Daten bis heute (${today}) ` +
      `enthalten, und erstelle keine Prognosen.`,
  },
});

const FR = (f: Formats): Words => ({
  filters: {
    country: (names) => `pour ${names}`,
    channel: (values) => `sur le canal ${values}`,
    category: (values) => `dans la catégorie ${values}`,
    other: (name, values) => `pour ${name} ${values}`,
  },
  period: { day: 'jour', week: 'semaine', month: 'mois', quarter: 'trimestre', year: 'année' },
  colon: ' : ',
  unit: () => 'période',
  byDimension: (measure, dimension) => `${measure} par ${dimension.toLowerCase()}`,
  scope: (name, filters, from, to) => `${name}${filters} du ${from} au ${to}`,
  noData: (name, filters, from, to) => `Aucun résultat pour ${name}${filters} du ${from} au ${to} : les données n’en contiennent pas.`,
  against: { previous_year: 'l’année précédente', previous_period: 'la période précédente' },
  change(pct, against, previous, period) {
    if (pct === null) return `contre ${previous} pour ${against}${period ? ` (${period})` : ''}, donc pas de variation en pourcentage`;
    const how = pct > 0 ? `en hausse de ${f.percent(pct)}` : pct < 0 ? `en baisse de ${f.percent(-pct)}` : 'stable';
    return `${how} par rapport à ${against} (${period ? `${period} : ${previous}` : previous})`;
  },
  kpiPrevious: (pct, from, to, previous) =>
    pct === null
      ? `la période précédente (${from} au ${to}) comptait ${previous}, donc pas de variation en pourcentage`
      : `${pct > 0 ? '+' : ''}${f.percent(pct)} par rapport à la période précédente (${from} au ${to} : ${previous})`,
  leader: (label, value, measure, share, last) =>
    `${label} arrive en tête avec ${value} ` +
    `(${measure})${share ?? ''}${last ? ` ; dernier des ${last.count} listés : ${last.label} avec ${last.value}` : ''}`,
  share: (pct, total) => ` (${pct} des ${total} affichés)`,
  leaderChange: (label, change) => `${label} : ${change}.`,
  total: (value) => `total ${value}`,
  overall: (value) => `global ${value}`,
  latest: (value, period) => `dernière valeur ${value} (${period})`,
  cohortKept: (c, r, n) => `la cohorte du ${c} a gardé ${r} de ses ${n}`,
  cohorts: (f, l, b, w) =>
    `cohortes du ${f} au ${l}${b ? ` ; une période après leur début, ${b} (le plus)${w ? `, ${w} (le moins)` : ''}` : ''}`,
  series: (scope, word, overall, change, best) => `${scope} par ${word} : ${overall}${change ?? ''}. ${best}`,
  seriesChange: (pct, full, first, last) => `, ${pct} de la première ${full} (${first}) à la dernière (${last})`,
  full: () => 'période complète',
  bestWorst: (full, bp, bv, wp, wv) => `Meilleure ${full} : ${bp} (${bv}) ; la plus faible : ${wp} (${wv}).`,
  perValue: (scope, word, dimension, parts) => `${scope} par ${word}, par ${dimension.toLowerCase()}. ${parts.join('. ')}.`,
  last: (word, period, value, change) => `Dernière période (${word}, ${period}) : ${value}, ${change}.`,
  lastNone: (word, period, yearAgo) =>
    `La dernière période (${word}, ${period}) n’a pas d’équivalent ${yearAgo ? 'l’année précédente' : 'avant elle'}.`,
  note: (notes) => ` Remarque : ${notes.join('; ')}.`,
  dataWindow: (kind, span) =>
    kind === 'all'
      ? `aucune période n'a été indiquée : ceci couvre toutes les données (${span})`
      : kind === 'capped'
        ? `aucune période n'a été indiquée : ceci couvre les dix dernières années des données (${span})`
        : `aucune période n'a été indiquée et la période par défaut jusqu'à aujourd'hui ne contient aucune donnée : ` +
          `voici la période la plus récente des données (${span})`,
  help: (insights, filters, units, examples) =>
    'Je n’ai pas pu rattacher cette question aux données que je peux interroger. ' +
    `Je peux répondre sur : ${insights}${filters ? ` — filtré par ${filters}` : ''}, ` +
    `pour une période comme « les 7 derniers jours », « le trimestre dernier », « en 2025 » ou « depuis mars », par ${units}. ` +
    `Par exemple (compris aussi en anglais) : ${examples}.`,
  refusal: {
    measure: (term, measures) =>
      `Il n’y a pas de « ${term} » dans ce modèle de données, je ne peux donc pas répondre. Je peux montrer : ${measures}.`,
    dimension: (term, dims, finest) =>
      `Impossible de ventiler par « ${term} » : le modèle de données ne le contient pas. Je peux ventiler par ` +
      `${dims}${finest ? `, ou par périodes à partir du ${finest}` : ''}.`,
    granularity: (term, finest) => `Impossible d’afficher par « ${term} » : la plus petite période disponible est le ${finest}.`,
    future: (term, from, today) =>
      `« ${term} »${from ? ` (à partir du ${from})` : ''} n’a pas encore eu lieu : je rapporte ce que contiennent les ` +
      `données jusqu’à aujourd’hui (${today}), sans prévisions.`,
  },
});

const ES = (f: Formats): Words => ({
  filters: {
    country: (names) => `en ${names}`,
    channel: (values) => `en el canal ${values}`,
    category: (values) => `en la categoría ${values}`,
    other: (name, values) => `para ${name} ${values}`,
  },
  period: { day: 'día', week: 'semana', month: 'mes', quarter: 'trimestre', year: 'año' },
  colon: ': ',
  unit: () => 'periodo',
  byDimension: (measure, dimension) => `${measure} por ${dimension.toLowerCase()}`,
  scope: (name, filters, from, to) => `${name}${filters} del ${from} al ${to}`,
  noData: (name, filters, from, to) =>
    `Sin resultados para ${name}${filters} del ${from} al ${to}: los datos no contienen nada para esta selección.`,
  against: { previous_year: 'el año anterior', previous_period: 'el periodo anterior' },
  change(pct, against, previous, period) {
    if (pct === null) return `frente a ${previous} en ${against}${period ? ` (${period})` : ''}, así que no hay variación porcentual`;
    const how = pct > 0 ? `un ${f.percent(pct)} más` : pct < 0 ? `un ${f.percent(-pct)} menos` : 'sin cambios';
    return `${how} que ${against} (${period ? `${period}: ${previous}` : previous})`;
  },
  kpiPrevious: (pct, from, to, previous) =>
    pct === null
      ? `el periodo anterior (${from} al ${to}) tuvo ${previous}, así que no hay variación porcentual`
      : `${pct > 0 ? '+' : ''}${f.percent(pct)} respecto al periodo anterior (${from} al ${to}: ${previous})`,
  leader: (label, value, measure, share, last) =>
    `${label} encabeza con ${value} ` +
    `(${measure})${share ?? ''}${last ? `; el último de los ${last.count} listados es ${last.label} con ${last.value}` : ''}`,
  share: (pct, total) => ` (${pct} de los ${total} mostrados)`,
  leaderChange: (label, change) => `${label}: ${change}.`,
  total: (value) => `total ${value}`,
  overall: (value) => `global ${value}`,
  latest: (value, period) => `último valor ${value} (${period})`,
  cohortKept: (c, r, n) => `la cohorte del ${c} conservó ${r} de sus ${n}`,
  cohorts: (f, l, b, w) =>
    `cohortes del ${f} al ${l}${b ? `; un periodo después de su inicio, ${b} (la que más)${w ? `, ${w} (la que menos)` : ''}` : ''}`,
  series: (scope, word, overall, change, best) => `${scope} por ${word}: ${overall}${change ?? ''}. ${best}`,
  seriesChange: (pct, full, first, last) => `, ${pct} del primer ${full} (${first}) al último (${last})`,
  full: () => 'periodo completo',
  bestWorst: (full, bp, bv, wp, wv) => `Mejor ${full}: ${bp} (${bv}); peor: ${wp} (${wv}).`,
  perValue: (scope, word, dimension, parts) => `${scope} por ${word}, por ${dimension.toLowerCase()}. ${parts.join('. ')}.`,
  last: (word, period, value, change) => `Último periodo (${word}, ${period}): ${value}, ${change}.`,
  lastNone: (word, period, yearAgo) =>
    `El último periodo (${word}, ${period}) no tiene equivalente ${yearAgo ? 'el año anterior' : 'antes'}.`,
  note: (notes) => ` Nota: ${notes.join('; ')}.`,
  dataWindow: (kind, span) =>
    kind === 'all'
      ? `no se indicó ningún periodo, así que esto abarca todos los datos (${span})`
      : kind === 'capped'
        ? `no se indicó ningún periodo, así que esto abarca los últimos diez años de los datos (${span})`
        : `no se indicó ningún periodo y el periodo por defecto hasta hoy no tiene datos, así que este es el tramo ` +
          `más reciente de los datos (${span})`,
  help: (insights, filters, units, examples) =>
    'No he podido relacionar esa pregunta con los datos que puedo consultar. ' +
    `Puedo responder sobre: ${insights}${filters ? ` — filtrado por ${filters}` : ''}, ` +
    `para un periodo como «los últimos 7 días», «el trimestre pasado», «en 2025» o «desde marzo», por ${units}. ` +
    `Por ejemplo (también en inglés): ${examples}.`,
  refusal: {
    measure: (term, measures) => `No hay «${term}» en este modelo de datos, así que no puedo responder. Puedo mostrar: ${measures}.`,
    dimension: (term, dims, finest) =>
      `No puedo desglosarlo por «${term}»: el modelo de datos no lo tiene. Puedo desglosarlo por ` +
      `${dims}${finest ? `, o mostrarlo por periodos desde el ${finest}` : ''}.`,
    granularity: (term, finest) => `No puedo mostrarlo por «${term}»: el periodo más corto disponible es el ${finest}.`,
    future: (term, from, today) =>
      `«${term}»${from ? ` (desde ${from})` : ''} aún no ha ocurrido: informo de lo que contienen los datos hasta hoy ` +
      `(${today}) y no hago previsiones.`,
  },
});

const TABLES: Record<Language, (f: Formats) => Words> = { en: EN, de: DE, fr: FR, es: ES };
const made = new Map<Language, Phrases>();

/** The phrases of one language (made once: Intl formatters are not free). */
export function phrases(language: Language = 'en'): Phrases {
  let p = made.get(language);
  if (!p) {
    const f = formats(language);
    p = { language, ...f, ...TABLES[language](f) };
    made.set(language, p);
  }
  return p;
}
