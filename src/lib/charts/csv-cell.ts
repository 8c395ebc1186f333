// One CSV cell as a spreadsheet will read it, for the server's report attachments and the web app's
// downloads alike. Spreadsheets split a line at the separator of the reader's locale (`,` or `;`,
// or a tab), so a cell is quoted whenever it holds any of them; and a text that, or any part of
// which after such a separator, starts with = + - @ (or a tab or CR) would run as a formula there
// (CSV injection), so each such part is kept as text with a leading '.
const SEPARATOR = /[,;\t\r\n"]/;
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])(?=[=+\-@\t\r])/g;
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 text of a cell; numbers and booleans as they are (they hold neither separator nor formula). */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') return String(v);
  let s = v.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  if (FORMULA_START.test(s)) s = `'${s}`;
  return SEPARATOR.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
