// Words that ask about time itself (docs/chat.md "Time intelligence"): a rolling window, a running
// total, a figure to date, retention by cohort, what is unusual. Chat answers them only with what
// means them — a measure of the model with that rolling_window, a cohort insight — and otherwise
// refuses, naming the word: revenue by month is never the answer to "year-to-date revenue".
import { humanize, leafMeasures } from '../../../semantic/cubes.ts';
import type { SemanticModel } from '../../../semantic/model.ts';
import type { RollingWindow } from '../../../semantic/types.ts';
import type { Language } from '../language/languages.ts';

export type TimeConcept = 'to_date' | 'cumulative' | 'rolling' | 'cohort' | 'unusual';

// Spanish "móvil" is left out: it is the demo's mobile channel too ("ventas móviles").
const WORDS: [TimeConcept, RegExp][] = [
  [
    'to_date',
    new RegExp(
      String.raw`\b(ytd|mtd|qtd|year[- ]to[- ]date|month[- ]to[- ]date|quarter[- ]to[- ]date|` +
        String.raw`seit jahresbeginn|jahr bis heute|depuis le d[ée]but de l'ann[ée]e|en lo que va del? a[ñn]o)\b`,
      'i',
    ),
  ],
  ['cumulative', /\b(cumulative|cumulated|running total|kumuliert\w*|kumulativ\w*|laufende summe|cumul[ée]?e?s?|acumulad[oa]s?)\b/i],
  ['rolling', /\b(rolling|moving|trailing|gleitend\w*|rollierend\w*|glissante?s?)\b/i],
  ['cohort', /\b(retention|retained|cohorts?|kohorten?\w*|kundenbindung|r[ée]tention|retenci[óo]n)\b/i],
  ['unusual', /\b(unusual|anomal\w*|outliers?|ungew[öo]hnlich\w*|auff[äa]llig\w*|inhabituel\w*|anormal\w*|inusual\w*)\b/i],
];

/** The first word of the question that asks about time itself, and what it asks. */
export function timeConcept(question: string): { concept: TimeConcept; word: string } | undefined {
  for (const [concept, re] of WORDS) {
    const m = re.exec(question);
    if (m) return { concept, word: m[0] };
  }
  return undefined;
}

/** Whether a measure's rolling window is what the word asks for. */
export function honours(concept: TimeConcept, rolling: RollingWindow | undefined): boolean {
  if (!rolling) return false;
  if (concept === 'to_date') return rolling.kind === 'to_date';
  if (concept === 'cumulative') return rolling.kind === 'unbounded' || rolling.kind === 'to_date';
  if (concept === 'rolling') return rolling.kind === 'trailing';
  return false;
}

/** The rolling window of each leaf measure behind a measure ("cube.measure"), number measures' parts included. */
export function rollingOf(model: SemanticModel, ref: string): (RollingWindow | undefined)[] {
  return (leafMeasures(ref, model.cubes, new Set()) ?? []).map(
    (l) => model.cubes.get(l.split('.')[0])?.measures.get(l.split('.')[1])?.rolling,
  );
}

/** The measures of the model with a rolling window, by title in the language: what can be asked instead. */
function rollingTitles(model: SemanticModel, language: Language): string[] {
  const out: string[] = [];
  for (const c of model.cubes.values())
    for (const m of c.measures.values()) {
      if (!m.rolling) continue;
      const t = m.def.title;
      out.push(typeof t === 'string' ? t : (t?.[language] ?? t?.en ?? humanize(m.def.name)));
    }
  return out;
}

const REFUSE: Record<Language, (word: string, instead: string) => string> = {
  en: (w, i) => `I cannot answer "${w}" with what this data model holds, and will not answer with another figure. ${i}`,
  de: (w, i) => `„${w}“ kann ich mit diesem Datenmodell nicht beantworten, und ich antworte nicht mit einer anderen Kennzahl. ${i}`,
  fr: (w, i) => `Je ne peux pas répondre à « ${w} » avec ce modèle de données, et je ne réponds pas avec un autre chiffre. ${i}`,
  es: (w, i) => `No puedo responder «${w}» con este modelo de datos, y no respondo con otra cifra. ${i}`,
};

const INSTEAD: Record<Language, { rolling: (list: string) => string; none: string; unusual: string }> = {
  en: {
    rolling: (l) => `Its rolling and to-date measures: ${l}.`,
    none: 'It has no rolling or to-date measure (rolling_window) that means it.',
    unusual: 'Chat states figures; an anomaly alert on a subscription tells you what is unusual.',
  },
  de: {
    rolling: (l) => `Seine gleitenden und aufgelaufenen Kennzahlen: ${l}.`,
    none: 'Es hat keine gleitende oder aufgelaufene Kennzahl (rolling_window), die das bedeutet.',
    unusual: 'Der Chat nennt Zahlen; eine Anomalie-Benachrichtigung im Abonnement meldet Ungewöhnliches.',
  },
  fr: {
    rolling: (l) => `Ses mesures glissantes et cumulées : ${l}.`,
    none: "Il n'a aucune mesure glissante ou cumulée (rolling_window) qui le signifie.",
    unusual: "Le chat donne des chiffres ; une alerte d'anomalie sur un abonnement signale l'inhabituel.",
  },
  es: {
    rolling: (l) => `Sus medidas móviles y acumuladas: ${l}.`,
    none: 'No tiene ninguna medida móvil o acumulada (rolling_window) que lo signifique.',
    unusual: 'El chat da cifras; una alerta de anomalías en una suscripción avisa de lo inusual.',
  },
};

/** The refusal of a time word the answer would not honour, in the question's language. */
export function timeRefusal(model: SemanticModel, concept: TimeConcept, word: string, language: Language): string {
  const words = INSTEAD[language];
  const titles = rollingTitles(model, language);
  const instead = concept === 'unusual' ? words.unusual : titles.length ? words.rolling(titles.join(', ')) : words.none;
  return REFUSE[language](word, instead);
}

/**
 * The measure of the same cube that is `ref` over the window the word asks for: the same type,
 * SQL and filters, with a rolling_window that means it ("year-to-date revenue" → revenue_ytd).
 */
export function rollingTwin(model: SemanticModel, ref: string, concept: TimeConcept): string | undefined {
  const [cube, name] = ref.split('.');
  const c = model.cubes.get(cube);
  const m = c?.measures.get(name);
  if (!c || !m || m.rolling || m.def.type === 'number') return undefined;
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
  for (const [other, o] of c.measures)
    if (o.def.type === m.def.type && o.sql === m.sql && same(o.filters, m.filters) && honours(concept, o.rolling))
      return `${cube}.${other}`;
  return undefined;
}
