// The CSV formula guard shared by report attachments and the web app's downloads
// (src/lib/charts/csv-cell.ts): in a `;`- or tab-separated locale a spreadsheet splits a cell at
// the separator and runs any part that starts with = + - @.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell } from '../../../src/lib/charts/csv-cell.ts';

test('a cell holding a separator is quoted, and each part starting like a formula is kept as text', () => {
  const cases: [unknown, string][] = [
    ['x;=1+1', `"x;'=1+1"`],
    ['Total,@SUM(A1)', `"Total,'@SUM(A1)"`],
    ['a\t-2+3', `"a\t'-2+3"`],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1', "'+1"],
    ['\t=1', `"'\t'=1"`],
    ['\r=1', `"'\r'=1"`],
    ['line\n=cmd', `"line\n'=cmd"`],
    ['a;b', '"a;b"'],
    ['plain', 'plain'],
    ['a - b = c', 'a - b = c'],
    [-5, '-5'],
    [2.5, '2.5'],
    [true, 'true'],
    [null, ''],
    [undefined, ''],
  ];
  for (const [value, expected] of cases) assert.equal(csvCell(value), expected, JSON.stringify(value));
});
