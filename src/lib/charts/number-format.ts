// How a value reads, by the format its column has in the model (docs/model.md "Formats"): money in
// its currency, percent with its sign, whole numbers, a fixed number of decimals. Pure and shared:
// widgets, KPIs, tables, e-mails, messenger texts and PDFs write a figure the same way.

/** The format part of a column (execute's `columns[]`, a report's columns). */
export interface ValueFormat {
  /** money | percent | integer | number | date | string | boolean */
  type?: string;
  /** ISO 4217 code of a money column (EUR). */
  currency?: string;
  /** Decimals shown; default: money 2, percent 1, integer 0, number up to 2. */
  decimals?: number;
}

// Intl.NumberFormat is costly to build (~30 µs) and a long table formats thousands of cells.
const made = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = made.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, options);
    } catch {
      // An unknown currency code or locale: the figure still reads, without the symbol.
      f = new Intl.NumberFormat('en-US', { maximumFractionDigits: options.maximumFractionDigits ?? 2 });
    }
    made.set(key, f);
  }
  return f;
}

function optionsOf(f: ValueFormat | undefined): Intl.NumberFormatOptions {
  const d = f?.decimals;
  switch (f?.type) {
    case 'money':
      return f.currency
        ? { style: 'currency', currency: f.currency, minimumFractionDigits: d ?? 2, maximumFractionDigits: d ?? 2 }
        : { minimumFractionDigits: d ?? 2, maximumFractionDigits: d ?? 2 };
    case 'percent':
      // Values are in percent already (4.98 is 4.98 %): Intl's percent style multiplies by 100.
      return { style: 'percent', minimumFractionDigits: d ?? 1, maximumFractionDigits: d ?? 1 };
    case 'integer':
      return { maximumFractionDigits: 0 };
    default:
      return d === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: d, maximumFractionDigits: d };
  }
}

/** A number as its column's format says, in a locale (en-US unless the reader's language is known). */
export function formatValue(value: number, f?: ValueFormat, locale = 'en-US'): string {
  const options = optionsOf(f);
  return formatter(locale, options).format(f?.type === 'percent' ? value / 100 : value);
}

/** The column's format, without its name and label. */
export function formatOf(c: ValueFormat | undefined): ValueFormat | undefined {
  if (!c) return undefined;
  return { type: c.type, ...(c.currency ? { currency: c.currency } : {}), ...(c.decimals !== undefined ? { decimals: c.decimals } : {}) };
}

/**
 * What goes around a compact axis figure so it reads with its unit: "€" before in en-US ("€100k"),
 * " €" after in de-DE ("100.000 €" style), "%" or " %" for percent; nothing for plain numbers.
 */
export function unitAffixes(f: ValueFormat | undefined, locale = 'en-US'): { prefix: string; suffix: string } {
  if (f?.type !== 'percent' && !(f?.type === 'money' && f.currency)) return { prefix: '', suffix: '' };
  const parts = formatter(locale, { ...optionsOf(f), minimumFractionDigits: 0, maximumFractionDigits: 0 }).formatToParts(1);
  const at = parts.findIndex((p) => p.type === 'integer');
  const unit = (ps: Intl.NumberFormatPart[]) =>
    ps
      .filter((p) => p.type === 'currency' || p.type === 'percentSign' || p.type === 'literal')
      .map((p) => p.value)
      .join('');
  return { prefix: unit(parts.slice(0, at)), suffix: unit(parts.slice(at + 1)) };
}
