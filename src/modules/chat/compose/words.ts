// The sentences of composed answers and refusals in English, German, French and Spanish
// (numbers, dates, lists and country names are phrases.ts's). reply.ts decides what is said.
import type { Language } from '../language/languages.ts';

export interface ComposeWords {
  by(measure: string, dims: string[]): string;
  where(dim: string, values: string, negated: boolean): string;
  condition(measure: string, op: string, value: string): string;
  allData: string;
  /** "top 5", "bottom 3". */
  top(n: number | undefined, asc: boolean): string;
  more(n: number): string;
  none: string;
  previous(value: string): string;
  periods(n: number, last: string): string;
  ops: Record<'gt' | 'gte' | 'lt' | 'lte', string>;
  refuse: {
    unknown_group(term: string, dims: string): string;
    unknown_value(term: string, dims: string): string;
    ambiguous_value(term: string, options: string): string;
    unreachable(measure: string, term: string, dims: string): string;
    condition_total(term: string, dims: string): string;
    condition_measure(term: string): string;
    no_time(measure: string): string;
    ambiguous(term: string, options: string): string;
  };
  canAsk(measures: string, dims: string): string;
}

const EN: ComposeWords = {
  by: (m, d) => (d.length ? `${m} by ${d.join(' and ')}` : m),
  where: (d, v, n) => (n ? `${d} not ${v}` : `${d} ${v}`),
  condition: (m, op, v) => `${m} ${op} ${v}`,
  allData: 'all of the data',
  top: (n, asc) => (asc ? `bottom ${n ?? ''}` : `top ${n ?? ''}`).trim(),
  more: (n) => `… (${n} in all)`,
  none: 'No data matches this',
  previous: (v) => `before: ${v}`,
  periods: (n, last) => `${n} periods; the latest, ${last}`,
  ops: { gt: 'over', gte: 'at least', lt: 'under', lte: 'at most' },
  refuse: {
    unknown_group: (t, d) => `I cannot break this down by "${t}": the data model has no such dimension. It can be broken down by ${d}.`,
    unknown_value: (t, d) => `I find no "${t}" in this data: it is no value of ${d}, nor a measure of the data model.`,
    ambiguous_value: (t, o) => `"${t}" is a value of ${o}. Which one do you mean?`,
    unreachable: (m, t, d) => `${m} cannot be broken down or filtered by ${t} in this data model. ${m} can be broken down by ${d}.`,
    condition_total: (t, d) => `I cannot apply "${t}" to single records: a condition on a measure applies per group, so ask it by ${d}.`,
    condition_measure: (t) => `"${t}" names no measure of this data model that the question can be filtered by.`,
    no_time: (m) => `${m} has no date in this data model, so I cannot answer it for a period.`,
    ambiguous: (t, o) => `"${t}" could mean ${o}. Which one do you mean?`,
  },
  canAsk: (m, d) => ` You can ask for ${m}, by ${d}.`,
};

const DE: ComposeWords = {
  by: (m, d) => (d.length ? `${m} nach ${d.join(' und ')}` : m),
  where: (d, v, n) => (n ? `${d} nicht ${v}` : `${d} ${v}`),
  condition: (m, op, v) => `${m} ${op} ${v}`,
  allData: 'alle Daten',
  top: (n, asc) => (asc ? `die letzten ${n ?? ''}` : `Top ${n ?? ''}`).trim(),
  more: (n) => `… (${n} insgesamt)`,
  none: 'Keine Daten passen dazu',
  previous: (v) => `zuvor: ${v}`,
  periods: (n, last) => `${n} Zeiträume; zuletzt ${last}`,
  ops: { gt: 'über', gte: 'mindestens', lt: 'unter', lte: 'höchstens' },
  refuse: {
    unknown_group: (t, d) => `Eine Aufschlüsselung nach „${t}“ gibt es im Datenmodell nicht. Möglich ist eine Aufschlüsselung nach ${d}.`,
    unknown_value: (t, d) => `„${t}“ kommt in diesen Daten nicht vor: kein Wert von ${d} und keine Kennzahl des Datenmodells.`,
    ambiguous_value: (t, o) => `„${t}“ ist ein Wert von ${o}. Welcher ist gemeint?`,
    unreachable: (m, t, d) => `${m} lässt sich in diesem Datenmodell nicht nach ${t} aufschlüsseln oder filtern. ${m} gibt es nach ${d}.`,
    condition_total: (t, d) => `„${t}“ lässt sich nicht auf einzelne Datensätze anwenden: Eine Bedingung gilt je Gruppe, etwa nach ${d}.`,
    condition_measure: (t) => `„${t}“ nennt keine Kennzahl dieses Datenmodells, nach der gefiltert werden kann.`,
    no_time: (m) => `${m} hat in diesem Datenmodell kein Datum, daher gibt es keine Antwort für einen Zeitraum.`,
    ambiguous: (t, o) => `„${t}“ kann ${o} bedeuten. Welche Kennzahl ist gemeint?`,
  },
  canAsk: (m, d) => ` Fragen lässt sich nach ${m}, aufgeschlüsselt nach ${d}.`,
};

const FR: ComposeWords = {
  by: (m, d) => (d.length ? `${m} par ${d.join(' et ')}` : m),
  where: (d, v, n) => (n ? `${d} hors ${v}` : `${d} ${v}`),
  condition: (m, op, v) => `${m} ${op} ${v}`,
  allData: 'toutes les données',
  top: (n, asc) => (asc ? `les ${n ?? ''} derniers` : `top ${n ?? ''}`).replace(/\s+/g, ' ').trim(),
  more: (n) => `… (${n} au total)`,
  none: 'Aucune donnée ne correspond',
  previous: (v) => `avant : ${v}`,
  periods: (n, last) => `${n} périodes ; la dernière, ${last}`,
  ops: { gt: 'supérieur à', gte: 'au moins', lt: 'inférieur à', lte: 'au plus' },
  refuse: {
    unknown_group: (t, d) => `Impossible de ventiler par « ${t} » : le modèle de données ne le contient pas. Je peux ventiler par ${d}.`,
    unknown_value: (t, d) => `« ${t} » n’apparaît pas dans ces données : ce n’est ni une valeur de ${d}, ni une mesure du modèle.`,
    ambiguous_value: (t, o) => `« ${t} » est une valeur de ${o}. Laquelle voulez-vous ?`,
    unreachable: (m, t, d) => `${m} ne peut pas être ventilé ou filtré par ${t} dans ce modèle de données. ${m} se ventile par ${d}.`,
    condition_total: (t, d) =>
      `Impossible d’appliquer « ${t} » à des enregistrements isolés : une condition s’applique par groupe, par ex. par ${d}.`,
    condition_measure: (t) => `« ${t} » ne désigne aucune mesure de ce modèle de données.`,
    no_time: (m) => `${m} n’a pas de date dans ce modèle de données : pas de réponse pour une période.`,
    ambiguous: (t, o) => `« ${t} » peut signifier ${o}. Laquelle voulez-vous ?`,
  },
  canAsk: (m, d) => ` Vous pouvez demander ${m}, par ${d}.`,
};

const ES: ComposeWords = {
  by: (m, d) => (d.length ? `${m} por ${d.join(' y ')}` : m),
  where: (d, v, n) => (n ? `${d} salvo ${v}` : `${d} ${v}`),
  condition: (m, op, v) => `${m} ${op} ${v}`,
  allData: 'todos los datos',
  top: (n, asc) => (asc ? `los ${n ?? ''} últimos` : `top ${n ?? ''}`).replace(/\s+/g, ' ').trim(),
  more: (n) => `… (${n} en total)`,
  none: 'Ningún dato coincide',
  previous: (v) => `antes: ${v}`,
  periods: (n, last) => `${n} periodos; el último, ${last}`,
  ops: { gt: 'más de', gte: 'al menos', lt: 'menos de', lte: 'como mucho' },
  refuse: {
    unknown_group: (t, d) => `No puedo desglosarlo por «${t}»: el modelo de datos no lo tiene. Puedo desglosarlo por ${d}.`,
    unknown_value: (t, d) => `«${t}» no aparece en estos datos: no es un valor de ${d} ni una medida del modelo.`,
    ambiguous_value: (t, o) => `«${t}» es un valor de ${o}. ¿Cuál quiere decir?`,
    unreachable: (m, t, d) => `${m} no se puede desglosar ni filtrar por ${t} en este modelo de datos. ${m} se desglosa por ${d}.`,
    condition_total: (t, d) => `No puedo aplicar «${t}» a registros sueltos: una condición se aplica por grupo, p. ej. por ${d}.`,
    condition_measure: (t) => `«${t}» no nombra ninguna medida de este modelo de datos.`,
    no_time: (m) => `${m} no tiene fecha en este modelo de datos, así que no hay respuesta para un periodo.`,
    ambiguous: (t, o) => `«${t}» puede significar ${o}. ¿Cuál quiere decir?`,
  },
  canAsk: (m, d) => ` Puede preguntar por ${m}, por ${d}.`,
};

const ALL: Record<Language, ComposeWords> = { en: EN, de: DE, fr: FR, es: ES };
export const composeWords = (language: Language): ComposeWords => ALL[language] ?? EN;
