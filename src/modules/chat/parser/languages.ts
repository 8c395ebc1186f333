// German, French and Spanish questions (docs/chat.md "Languages"). The parser's grammar is
// English; a question in another language is first told apart by its words, then read into that
// grammar by per-language tables: grammar words and phrases ("nach Woche" → "by week", "le mois
// dernier" → "last month", "frente al año pasado" → "vs last year"), month and weekday names,
// numbers written either way (1.234,5 and 1,234.5), country names from CLDR (Intl.DisplayNames),
// and the model's own titles and synonyms in that language (Umsatz → revenue). What no table
// knows stays as it is and is ignored like any other word.
import { MODEL_LANGUAGES as LANGUAGES, type ModelLanguage as Language } from '../../../semantic/model.schema.ts';
import { ISO_COUNTRIES } from './vocabulary.ts';

// The languages a model may give titles in are the ones chat reads.
export { MODEL_LANGUAGES as LANGUAGES, type ModelLanguage as Language } from '../../../semantic/model.schema.ts';

/** Frequent words that tell the languages apart (articles, prepositions, our grammar words). */
const MARKERS: Record<Language, string[]> = {
  en: [
    'the', 'what', 'how', 'by', 'per', 'of', 'and', 'last', 'this', 'show', 'me', 'revenue', 'sales', 'orders', 'month',
    'week', 'year', 'since', 'was', 'were', 'our', 'top', 'vs', 'compared', 'with', 'in',
  ],
  de: [
    'der', 'die', 'das', 'den', 'dem', 'des', 'und', 'im', 'nach', 'pro', 'wie', 'hoch', 'war', 'waren', 'umsatz',
    'umsätze', 'bestellungen', 'letzte', 'letzten', 'letzter', 'letztes', 'diese', 'diesen', 'dieses', 'dieser', 'seit',
    'monat', 'monate', 'woche', 'wochen', 'jahr', 'quartal', 'tage', 'tagen', 'vergleich', 'gegenüber', 'vorjahr',
    'vormonat', 'zeige', 'zeig', 'mir', 'welche', 'wieviel', 'viel', 'viele', 'verkäufe', 'kunden', 'neukunden', 'land',
    'ländern', 'kanal', 'kanälen', 'produkte', 'kategorie', 'kategorien', 'bisher', 'gestern', 'heute', 'woche',
    'wöchentlich', 'monatlich', 'täglich', 'jährlich', 'zum', 'zur', 'vom', 'mit', 'über', 'bestellwert',
    'durchschnittlicher',
  ],
  fr: [
    'le', 'les', 'des', 'du', 'au', 'aux', 'par', 'et', 'quel', 'quelle', 'quels', 'quelles', 'combien', 'chiffre',
    'affaires', 'ventes', 'commandes', 'dernier', 'dernière', 'derniers', 'dernières', 'ce', 'cette', 'cet', 'mois',
    'semaine', 'semaines', 'année', 'an', 'trimestre', 'jours', 'depuis', 'comparé', 'rapport', 'montre', 'moi', 'pays',
    'canal', 'canaux', 'clients', 'nouveaux', 'panier', 'moyen', 'taux', 'produits', 'catégorie', 'catégories', 'hier',
    "aujourd'hui", 'par', 'mensuel', 'hebdomadaire', 'quotidien', 'annuel', 'été', 'était', 'notre', 'nos', 'en',
  ],
  es: [
    'el', 'los', 'las', 'del', 'por', 'y', 'cuál', 'cuáles', 'cuánto', 'cuántos', 'cuántas', 'ventas', 'ingresos',
    'pedidos', 'último', 'última', 'últimos', 'últimas', 'pasado', 'pasada', 'este', 'esta', 'mes', 'meses', 'semana',
    'semanas', 'año', 'trimestre', 'días', 'desde', 'comparado', 'comparación', 'frente', 'muestra', 'muéstrame',
    'país', 'países', 'canal', 'canales', 'clientes', 'nuevos', 'tasa', 'productos', 'categoría', 'categorías', 'ayer',
    'hoy', 'mensual', 'semanal', 'diario', 'anual', 'fue', 'fueron', 'nuestro', 'nuestras', 'con', 'en',
  ],
};

/** Which language a question is in: the one most of its words mark; English on a tie or no mark. */
export function detectLanguage(question: string): Language {
  const words = question.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  let best: Language = 'en';
  let bestScore = 0;
  for (const language of LANGUAGES) {
    const marks = new Set(MARKERS[language]);
    const score = words.filter((w) => marks.has(w)).length + (language === 'en' ? 0.5 : 0);
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}

const MONTHS: Record<Exclude<Language, 'en'>, string[]> = {
  de: ['januar', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};
const EN_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * Phrases of each language and their English, tried longest first. Units are written once with
 * {unit}: each line stands for day, week, month, quarter and year in that language.
 */
type Table = [string, string][];
const UNITS: Record<Exclude<Language, 'en'>, Record<'day' | 'week' | 'month' | 'quarter' | 'year', string[]>> = {
  de: { day: ['tag', 'tage', 'tagen', 'tages'], week: ['woche', 'wochen'], month: ['monat', 'monate', 'monaten', 'monats'], quarter: ['quartal', 'quartale', 'quartalen', 'quartals'], year: ['jahr', 'jahre', 'jahren', 'jahres'] },
  fr: { day: ['jour', 'jours', 'journée'], week: ['semaine', 'semaines'], month: ['mois'], quarter: ['trimestre', 'trimestres'], year: ['année', 'années', 'an', 'ans'] },
  es: { day: ['día', 'días', 'dia', 'dias'], week: ['semana', 'semanas'], month: ['mes', 'meses'], quarter: ['trimestre', 'trimestres'], year: ['año', 'años', 'ano', 'anos'] },
};

/** Lines with {unit} expand to one line per unit word. */
const GRAMMAR: Record<Exclude<Language, 'en'>, Table> = {
  de: [
    ['im vergleich zum vorjahr', 'vs last year'], ['im vergleich zum letzten jahr', 'vs last year'],
    ['gegenüber dem vorjahr', 'vs last year'], ['gegenüber vorjahr', 'vs last year'],
    ['im vorjahresvergleich', 'yoy'], ['im jahresvergleich', 'yoy'], ['vs. vorjahr', 'vs last year'],
    ['vs vorjahr', 'vs last year'], ['verglichen mit dem vorjahr', 'vs last year'],
    ['im vergleich zum vormonat', 'vs last month'], ['gegenüber dem vormonat', 'vs last month'],
    ['vs. vormonat', 'vs last month'], ['vs vormonat', 'vs last month'],
    ['im vergleich zur vorwoche', 'vs last week'], ['gegenüber der vorwoche', 'vs last week'],
    ['vs. vorwoche', 'vs last week'], ['vs vorwoche', 'vs last week'],
    ['im vergleich zum vorquartal', 'vs last quarter'], ['gegenüber dem vorquartal', 'vs last quarter'],
    ['im vergleich zur vorperiode', 'vs the previous period'], ['im vergleich zum vorzeitraum', 'vs the previous period'],
    ['im vergleich zu', 'compared with'], ['verglichen mit', 'compared with'], ['gegenüber', 'vs'], ['vs.', 'vs'],
    ['seit jahresbeginn', 'year to date'], ['bisher dieses jahr', 'year to date'], ['seit monatsbeginn', 'month to date'],
    ['in den letzten {n} {unit}', 'in the last {n} {unit}s'], ['die letzten {n} {unit}', 'the last {n} {unit}s'],
    ['letzten {n} {unit}', 'last {n} {unit}s'], ['vergangenen {n} {unit}', 'past {n} {unit}s'],
    ['im letzten {unit}', 'last {unit}'], ['letzte {unit}', 'last {unit}'], ['letzten {unit}', 'last {unit}'],
    ['letztes {unit}', 'last {unit}'], ['letzter {unit}', 'last {unit}'], ['vorigen {unit}', 'last {unit}'],
    ['vorige {unit}', 'last {unit}'], ['vergangenen {unit}', 'last {unit}'], ['vergangene {unit}', 'last {unit}'],
    ['in diesem {unit}', 'this {unit}'], ['in dieser {unit}', 'this {unit}'], ['diese {unit}', 'this {unit}'],
    ['diesen {unit}', 'this {unit}'], ['dieses {unit}', 'this {unit}'], ['dieser {unit}', 'this {unit}'],
    ['nach {unit}', 'by {unit}'], ['pro {unit}', 'per {unit}'], ['je {unit}', 'per {unit}'],
    ['vorjahr', 'last year'], ['vormonat', 'last month'], ['vorwoche', 'last week'], ['vorquartal', 'last quarter'],
    ['vorgestern', 'the day before yesterday'], ['gestern', 'yesterday'], ['heute', 'today'],
    ['täglich', 'daily'], ['tägliche', 'daily'], ['täglicher', 'daily'], ['wöchentlich', 'weekly'],
    ['wöchentliche', 'weekly'], ['wöchentlicher', 'weekly'], ['monatlich', 'monthly'], ['monatliche', 'monthly'],
    ['monatlicher', 'monthly'],
    ['quartalsweise', 'quarterly'], ['jährlich', 'yearly'], ['jährliche', 'yearly'],
    ['die besten', 'top'], ['besten', 'top'], ['beste', 'top'], ['top', 'top'],
    ['nach land', 'by country'], ['pro land', 'per country'], ['nach ländern', 'by country'],
    ['je land', 'per country'], ['nach kanal', 'by channel'], ['pro kanal', 'per channel'],
    ['nach kanälen', 'by channel'], ['nach vertriebskanal', 'by channel'],
    ['nach kategorie', 'by category'], ['pro kategorie', 'per category'], ['nach kategorien', 'by category'],
    ['nach produkt', 'by product'], ['pro produkt', 'per product'],
    ['durchschnittlicher bestellwert', 'average order value'],
    ['durchschnittlichen bestellwert', 'average order value'], ['warenkorbwert', 'average order value'],
    ['neue kunden', 'new customers'], ['neukunden', 'new customers'], ['erstkunden', 'new customers'],
    ['rückerstattungsquote', 'refund rate'], ['erstattungsquote', 'refund rate'], ['retourenquote', 'refund rate'],
    ['rückerstattungen', 'refunds'], ['retouren', 'returns'],
    ['konversionsrate', 'conversion rate'], ['conversion-rate', 'conversion rate'], ['sitzungen', 'sessions'], ['besuche', 'visits'],
    ['bestellungen', 'orders'], ['bestellung', 'orders'], ['aufträge', 'orders'], ['umsätze', 'revenue'],
    ['umsatz', 'revenue'], ['erlöse', 'revenue'], ['erlös', 'revenue'], ['verkäufe', 'sales'],
    ['produkte', 'products'], ['produkten', 'products'], ['artikel', 'products'], ['kategorien', 'categories'],
    ['kategorie', 'category'], ['länder', 'countries'], ['ländern', 'countries'], ['kanäle', 'channels'],
    ['kanälen', 'channels'],
    ['insgesamt', 'total'], ['gesamt', 'total'], ['gesamtumsatz', 'total revenue'], ['summe', 'total'],
    ['wie viel', 'how much'], ['wieviel', 'how much'], ['wie viele', 'how many'],
    ['montag', 'monday'], ['dienstag', 'tuesday'], ['mittwoch', 'wednesday'], ['donnerstag', 'thursday'],
    ['freitag', 'friday'], ['samstag', 'saturday'], ['sonntag', 'sunday'],
    ['seit', 'since'], ['zwischen', 'between'], ['bis', 'to'], ['von', 'from'], ['und', 'and'], ['oder', 'or'],
    ['im jahr', 'in'], ['im', 'in'], ['in', 'in'],
    ['nach', 'by'], ['pro', 'per'], ['je', 'per'],
    ['vereinigten königreich', 'United Kingdom'], ['großbritannien', 'United Kingdom'], ['england', 'United Kingdom'],
    ['usa', 'United States'], ['vereinigten staaten', 'United States'], ['niederlanden', 'Netherlands'],
    ['holland', 'Netherlands'],
    ['ohne', 'excluding'], ['außer', 'except'], ['alle länder', 'all countries'], ['alle kanäle', 'all channels'],
    ['stunde', 'hour'], ['stündlich', 'hourly'], ['minute', 'minute'], ['nächsten {unit}', 'next {unit}'],
    ['nächste {unit}', 'next {unit}'], ['nächstes {unit}', 'next {unit}'], ['morgen', 'tomorrow'],
    ['prognose', 'forecast'],
    ['abwanderungsrate', 'churn rate'], ['abwanderung', 'churn'], ['abgewandert', 'churned'], ['gekündigt', 'churned'],
    ['kündigungen', 'cancellations'], ['kampagne', 'campaign'], ['kampagnen', 'campaign'], ['marke', 'brand'],
    ['marken', 'brand'], ['stadt', 'city'], ['städten', 'city'], ['gewinn', 'profit'], ['marge', 'margin'],
    ['werbeausgaben', 'ad spend'],
    ['quartal', 'quarter'], ['q1', 'q1'],
  ],
  fr: [
    ["par rapport à l'année dernière", 'vs last year'], ["par rapport à l'an dernier", 'vs last year'],
    ["par rapport à l'année précédente", 'vs last year'], ["comparé à l'année dernière", 'vs last year'],
    ["comparé à l'an dernier", 'vs last year'],
    ["sur un an", 'yoy'], ["en glissement annuel", 'yoy'], ["d'une année sur l'autre", 'yoy'],
    ["vs l'an dernier", 'vs last year'], ["vs l'année dernière", 'vs last year'],
    ['par rapport au mois dernier', 'vs last month'], ['par rapport au mois précédent', 'vs last month'],
    ['comparé au mois dernier', 'vs last month'], ['vs le mois dernier', 'vs last month'],
    ['par rapport à la semaine dernière', 'vs last week'], ['par rapport à la semaine précédente', 'vs last week'],
    ['comparé à la semaine dernière', 'vs last week'], ['vs la semaine dernière', 'vs last week'],
    ['par rapport au trimestre dernier', 'vs last quarter'], ['par rapport au trimestre précédent', 'vs last quarter'],
    ['par rapport à la période précédente', 'vs the previous period'],
    ['par rapport à', 'compared with'], ['comparé à', 'compared with'], ['comparée à', 'compared with'],
    ['comparés à', 'compared with'], ['face à', 'vs'],
    ["depuis le début de l'année", 'year to date'], ["depuis début d'année", 'year to date'], ['depuis le début du mois', 'month to date'],
    ['les {n} derniers {unit}', 'the last {n} {unit}s'], ['les {n} dernières {unit}', 'the last {n} {unit}s'],
    ['ces {n} derniers {unit}', 'the last {n} {unit}s'], ['ces {n} dernières {unit}', 'the last {n} {unit}s'],
    ['sur les {n} derniers {unit}', 'in the last {n} {unit}s'],
    ['sur les {n} dernières {unit}', 'in the last {n} {unit}s'],
    ['le {unit} dernier', 'last {unit}'], ['la {unit} dernière', 'last {unit}'], ["l'{unit} dernière", 'last {unit}'],
    ["l'{unit} dernier", 'last {unit}'], ['le {unit} précédent', 'last {unit}'],
    ['la {unit} précédente', 'last {unit}'], ['{unit} dernier', 'last {unit}'], ['{unit} dernière', 'last {unit}'],
    ['le dernier {unit}', 'last {unit}'], ['la dernière {unit}', 'last {unit}'],
    ['ce {unit}-ci', 'this {unit}'], ['cette {unit}-ci', 'this {unit}'], ['ce {unit}', 'this {unit}'],
    ['cette {unit}', 'this {unit}'], ['cet {unit}', 'this {unit}'],
    ['le {unit} prochain', 'next {unit}'], ['la {unit} prochaine', 'next {unit}'],
    ["l'{unit} prochaine", 'next {unit}'], ['{unit} prochain', 'next {unit}'], ['{unit} prochaine', 'next {unit}'],
    ['par {unit}', 'by {unit}'], ['chaque {unit}', 'each {unit}'],
    ['avant-hier', 'the day before yesterday'], ['hier', 'yesterday'], ["aujourd'hui", 'today'], ['demain', 'tomorrow'],
    ['quotidien', 'daily'], ['quotidiennes', 'daily'], ['quotidiens', 'daily'], ['hebdomadaire', 'weekly'],
    ['hebdomadaires', 'weekly'], ['mensuel', 'monthly'], ['mensuelles', 'monthly'], ['mensuels', 'monthly'],
    ['mensuelle', 'monthly'], ['trimestriel', 'quarterly'], ['trimestrielles', 'quarterly'], ['annuel', 'yearly'],
    ['annuelles', 'yearly'],
    ['les meilleurs', 'top'], ['meilleurs', 'top'], ['meilleures', 'top'], ['top', 'top'],
    ['par pays', 'by country'], ['par canal', 'by channel'], ['par canaux', 'by channel'],
    ['par catégorie', 'by category'], ['par catégories', 'by category'], ['par produit', 'by product'],
    ['valeur moyenne des commandes', 'average order value'], ['valeur moyenne de commande', 'average order value'],
    ['panier moyen', 'average order value'],
    ['nouveaux clients', 'new customers'], ['taux de remboursement', 'refund rate'], ['taux de retour', 'refund rate'],
    ['remboursements', 'refunds'], ['retours', 'returns'],
    ['taux de conversion', 'conversion rate'], ['sessions', 'sessions'], ['visites', 'visits'],
    ["chiffre d'affaires", 'revenue'], ['chiffres d’affaires', 'revenue'], ["chiffre d’affaires", 'revenue'],
    ['ca', 'revenue'], ['ventes', 'sales'], ['recettes', 'revenue'], ['revenus', 'revenue'], ['commandes', 'orders'],
    ['commande', 'orders'],
    ['produits', 'products'], ['articles', 'products'], ['catégories', 'categories'], ['catégorie', 'category'], ['canaux', 'channels'],
    ['au total', 'in total'], ['total', 'total'], ['combien', 'how much'],
    ['lundi', 'monday'], ['mardi', 'tuesday'], ['mercredi', 'wednesday'], ['jeudi', 'thursday'], ['vendredi', 'friday'],
    ['samedi', 'saturday'], ['dimanche', 'sunday'],
    ['depuis', 'since'], ['entre', 'between'], ["jusqu'à", 'to'], ['à', 'to'], ['du', 'of'], ['des', 'of'],
    ['de', 'of'], ["d'", 'of '], ['et', 'and'], ['ou', 'or'], ['en', 'in'], ['au', 'in'], ['aux', 'in'],
    ['par', 'by'], ['pour chaque', 'for each'],
    ['des {n} derniers {unit}', 'in the last {n} {unit}s'], ['des {n} dernières {unit}', 'in the last {n} {unit}s'],
    ['{n} derniers {unit}', 'last {n} {unit}s'], ['{n} dernières {unit}', 'last {n} {unit}s'],
    ['grande-bretagne', 'United Kingdom'], ['angleterre', 'United Kingdom'], ['usa', 'United States'],
    ['sauf', 'except'], ['hors', 'excluding'], ['tous les pays', 'all countries'], ['tous les canaux', 'all channels'],
    ['par heure', 'by hour'], ['par minute', 'by minute'], ['prévision', 'forecast'], ['prévisions', 'forecast'],
    ['taux de désabonnement', 'churn rate'], ['taux d’attrition', 'churn rate'], ["taux d'attrition", 'churn rate'],
    ['attrition', 'churn'], ['désabonnements', 'churn'], ['résiliations', 'cancellations'], ['campagne', 'campaign'],
    ['campagnes', 'campaign'], ['marque', 'brand'], ['marques', 'brand'], ['ville', 'city'], ['villes', 'city'],
    ['bénéfice', 'profit'], ['marge', 'margin'], ['dépenses publicitaires', 'ad spend'],
  ],
  es: [
    ['frente al año pasado', 'vs last year'], ['comparado con el año pasado', 'vs last year'],
    ['en comparación con el año pasado', 'vs last year'], ['respecto al año pasado', 'vs last year'],
    ['con respecto al año anterior', 'vs last year'], ['frente al año anterior', 'vs last year'],
    ['vs el año pasado', 'vs last year'],
    ['interanual', 'yoy'], ['año contra año', 'yoy'], ['año tras año', 'yoy'],
    ['frente al mes pasado', 'vs last month'], ['comparado con el mes pasado', 'vs last month'],
    ['respecto al mes anterior', 'vs last month'], ['frente al mes anterior', 'vs last month'],
    ['vs el mes pasado', 'vs last month'],
    ['frente a la semana pasada', 'vs last week'], ['comparado con la semana pasada', 'vs last week'],
    ['respecto a la semana anterior', 'vs last week'], ['vs la semana pasada', 'vs last week'],
    ['frente al trimestre pasado', 'vs last quarter'], ['respecto al trimestre anterior', 'vs last quarter'],
    ['frente al periodo anterior', 'vs the previous period'],
    ['comparado con', 'compared with'], ['en comparación con', 'compared with'], ['frente a', 'vs'], ['contra', 'vs'],
    ['en lo que va de año', 'year to date'], ['en lo que va del año', 'year to date'],
    ['desde principio de año', 'year to date'], ['en lo que va de mes', 'month to date'],
    ['los últimos {n} {unit}', 'the last {n} {unit}s'], ['las últimas {n} {unit}', 'the last {n} {unit}s'],
    ['en los últimos {n} {unit}', 'in the last {n} {unit}s'], ['en las últimas {n} {unit}', 'in the last {n} {unit}s'],
    ['últimos {n} {unit}', 'last {n} {unit}s'], ['últimas {n} {unit}', 'last {n} {unit}s'],
    ['el {unit} pasado', 'last {unit}'], ['la {unit} pasada', 'last {unit}'], ['el {unit} anterior', 'last {unit}'],
    ['la {unit} anterior', 'last {unit}'], ['el último {unit}', 'last {unit}'], ['la última {unit}', 'last {unit}'],
    ['{unit} pasado', 'last {unit}'], ['{unit} pasada', 'last {unit}'],
    ['este {unit}', 'this {unit}'], ['esta {unit}', 'this {unit}'],
    ['el próximo {unit}', 'next {unit}'], ['la próxima {unit}', 'next {unit}'], ['el {unit} que viene', 'next {unit}'],
    ['próximo {unit}', 'next {unit}'], ['próxima {unit}', 'next {unit}'],
    ['por {unit}', 'by {unit}'], ['cada {unit}', 'each {unit}'],
    ['anteayer', 'the day before yesterday'], ['ayer', 'yesterday'], ['hoy', 'today'], ['mañana', 'tomorrow'],
    ['diario', 'daily'], ['diarias', 'daily'], ['diarios', 'daily'], ['semanal', 'weekly'], ['semanales', 'weekly'],
    ['mensual', 'monthly'], ['mensuales', 'monthly'], ['trimestral', 'quarterly'], ['trimestrales', 'quarterly'],
    ['anual', 'yearly'], ['anuales', 'yearly'],
    ['los mejores', 'top'], ['las mejores', 'top'], ['mejores', 'top'], ['top', 'top'],
    ['por país', 'by country'], ['por países', 'by country'], ['por canal', 'by channel'],
    ['por canales', 'by channel'], ['por categoría', 'by category'], ['por categorías', 'by category'],
    ['por producto', 'by product'],
    ['valor medio del pedido', 'average order value'], ['valor medio de pedido', 'average order value'],
    ['ticket medio', 'average order value'], ['valor promedio del pedido', 'average order value'],
    ['nuevos clientes', 'new customers'], ['clientes nuevos', 'new customers'], ['tasa de reembolso', 'refund rate'],
    ['tasa de devolución', 'refund rate'], ['tasa de devoluciones', 'refund rate'], ['reembolsos', 'refunds'],
    ['devoluciones', 'returns'],
    ['tasa de conversión', 'conversion rate'], ['sesiones', 'sessions'], ['visitas', 'visits'],
    ['facturación', 'revenue'], ['ingresos', 'revenue'], ['ventas', 'sales'], ['pedidos', 'orders'],
    ['pedido', 'orders'], ['órdenes', 'orders'],
    ['productos', 'products'], ['artículos', 'products'], ['categorías', 'categories'], ['categoría', 'category'],
    ['países', 'countries'], ['canales', 'channels'],
    ['en total', 'in total'], ['total', 'total'], ['cuánto', 'how much'], ['cuántos', 'how many'], ['cuántas', 'how many'],
    ['e', 'and'], ['lunes', 'monday'], ['martes', 'tuesday'], ['miércoles', 'wednesday'], ['jueves', 'thursday'],
    ['viernes', 'friday'], ['sábado', 'saturday'], ['domingo', 'sunday'],
    ['desde', 'since'], ['entre', 'between'], ['hasta', 'to'], ['a', 'to'], ['de', 'of'], ['del', 'of'], ['y', 'and'],
    ['o', 'or'], ['en', 'in'],
    ['por', 'by'], ['para cada', 'for each'],
    ['totales', 'total'], ['total de', 'total'],
    ['gran bretaña', 'United Kingdom'], ['inglaterra', 'United Kingdom'], ['eeuu', 'United States'],
    ['ee. uu.', 'United States'], ['ee.uu.', 'United States'], ['países bajos', 'Netherlands'],
    ['holanda', 'Netherlands'],
    ['excepto', 'except'], ['sin', 'excluding'], ['todos los países', 'all countries'], ['todos los canales', 'all channels'],
    ['por hora', 'by hour'], ['por minuto', 'by minute'], ['previsión', 'forecast'], ['pronóstico', 'forecast'],
    ['tasa de abandono', 'churn rate'], ['tasa de cancelación', 'churn rate'], ['bajas', 'churn'],
    ['cancelaciones', 'cancellations'], ['campaña', 'campaign'], ['campañas', 'campaign'], ['marca', 'brand'],
    ['marcas', 'brand'], ['ciudad', 'city'], ['ciudades', 'city'], ['beneficio', 'profit'], ['margen', 'margin'],
    ['gasto publicitario', 'ad spend'],
  ],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUM = String.raw`\d{1,4}`;

interface Rule {
  /** The phrase's pattern, for the table's one combined pattern. */
  source: string;
  /** Lower case, for a phrase without {n}: the key it is found by once matched. */
  phrase?: string;
  /** For a phrase with {n}: the whole phrase, its number captured. */
  anchored?: RegExp;
  /** The English, its {n} filled in. */
  to: string;
  length: number;
}

/** A language's rules, and one pattern that finds any of them in a single pass (longest first at each place). */
interface CompiledTable {
  any: RegExp;
  byPhrase: Map<string, Rule>;
  numeric: Rule[];
}

/** One table's rules, {unit} and {n} expanded, longest phrase first. */
function rules(language: Exclude<Language, 'en'>, extra: Table): Rule[] {
  const out: Rule[] = [];
  const add = (from: string, to: string) => {
    const numeric = from.includes('{n}');
    const parts = from.split('{n}').map(escape);
    out.push({
      source: parts.join(`(?:${NUM})`),
      ...(numeric ? { anchored: new RegExp(`^${parts.join(`(${NUM})`)}$`, 'iu') } : { phrase: from.toLowerCase() }),
      to,
      length: from.length,
    });
  };
  for (const [from, to] of [...GRAMMAR[language], ...extra]) {
    if (!from.includes('{unit}')) {
      add(from, to);
      continue;
    }
    for (const [unit, words] of Object.entries(UNITS[language])) for (const w of words) add(from.replace('{unit}', w), to.replace('{unit}', unit));
  }
  MONTHS[language].forEach((m, i) => add(m, EN_MONTHS[i]));
  return out.sort((a, b) => b.length - a.length);
}

/** Country names in a language → the English name the parser reads, from CLDR. */
function countryNames(language: Exclude<Language, 'en'>): Table {
  const local = new Intl.DisplayNames([language], { type: 'region' });
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  const out: Table = [];
  for (const code of ISO_COUNTRIES) {
    let name: string | undefined;
    try {
      name = local.of(code);
    } catch {
      continue;
    }
    const en = english.of(code);
    if (name && en && name !== code && name.toLowerCase() !== en.toLowerCase()) out.push([name.toLowerCase(), en]);
  }
  return out;
}

/** Numbers written the other way round: 1.234,5 → 1234.5 in German, French and Spanish (1 234,5 too). */
function numbersToEnglish(text: string): string {
  return text
    .replace(/(?<![\d.,])(\d{1,3}(?:[. \u00a0\u202f]\d{3})+)(?:,(\d+))?(?![\d.,])/g, (_, int: string, dec?: string) => int.replace(/[. \u00a0\u202f]/g, '') + (dec ? `.${dec}` : ''))
    .replace(/(?<![\d.,])(\d+),(\d{1,2})(?![\d.,])/g, '$1.$2');
}

const cache = new Map<string, CompiledTable>();

function tableOf(language: Exclude<Language, 'en'>, model: Table, modelKey: string): CompiledTable {
  const key = `${language}\u0000${modelKey}`;
  let table = cache.get(key);
  if (!table) {
    const all = rules(language, [...model, ...countryNames(language)]);
    const byPhrase = new Map<string, Rule>();
    // Equal phrases: the first (grammar before the model's words) wins, as in the sorted list.
    for (const r of all) if (r.phrase !== undefined && !byPhrase.has(r.phrase)) byPhrase.set(r.phrase, r);
    table = {
      any: new RegExp(`(?<![\\p{L}\\d])(?:${all.map((r) => r.source).join('|')})(?![\\p{L}\\d])`, 'giu'),
      byPhrase,
      numeric: all.filter((r) => r.anchored),
    };
    if (cache.size > 100) cache.clear();
    cache.set(key, table);
  }
  return table;
}

/** The English of one match of the table's combined pattern. */
function englishOf(table: CompiledTable, found: string): string | undefined {
  const rule = table.byPhrase.get(found.toLowerCase());
  if (rule) return rule.to;
  for (const r of table.numeric) {
    const m = r.anchored!.exec(found);
    if (m) return r.to.replace('{n}', m[1]);
  }
  return undefined;
}

/** The question's own words for a phrase of its English reading ("el próximo mes" for "next month"), else the phrase. */
export function originalWords(question: string, language: Language, english: string, model: Table = [], modelKey = ''): string {
  if (language === 'en') return english;
  const table = tableOf(language, model, modelKey);
  const wanted = english.toLowerCase();
  for (const m of question.matchAll(table.any)) {
    const to = englishOf(table, m[0])?.toLowerCase();
    if (to !== undefined && (to === wanted || (to.includes(wanted) && wanted.length > 2))) return m[0];
  }
  return english;
}

/**
 * A question in `language` read into the English grammar: its phrases replaced by their English,
 * longest first at each place, each part of the question replaced at most once, in one pass.
 * `model` holds the model's own titles and synonyms in that language with the English the parser
 * knows them by.
 */
export function toEnglish(question: string, language: Language, model: Table = [], modelKey = ''): string {
  if (language === 'en') return question;
  const table = tableOf(language, model, modelKey);
  return numbersToEnglish(question)
    .replace(table.any, (found) => {
      const english = englishOf(table, found);
      return english === undefined ? found : ` ${english} `;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
