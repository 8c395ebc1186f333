// The pure rules of files as people export them (src/warehouse/load/formats.ts): the header's
// delimiter, a user's date format in spreadsheet words, and how a format is shown back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeConversion, detectDelimiter, parseDateFormat, parseDelimiter } from '../../../src/warehouse/load/formats.ts';

test('the delimiter seen most often outside quotes in the header; , on a tie or none', () => {
  assert.equal(detectDelimiter('Order ID;Order Date;Revenue $'), ';');
  assert.equal(detectDelimiter('a,b,c'), ',');
  assert.equal(detectDelimiter('"Last; First",Score,Rank'), ',');
  assert.equal(detectDelimiter('a\tb\tc'), '\t');
  assert.equal(detectDelimiter('Last, First|Score'), ',');
  assert.equal(detectDelimiter('single'), ',');
  assert.equal(parseDelimiter('tab'), '\t');
  assert.equal(parseDelimiter('|'), '|');
  for (const bad of ['', 'ab', 'x', '1', '"', ' '])
    assert.throws(() => parseDelimiter(bad), /The delimiter must be one character/, JSON.stringify(bad));
});

test('date formats in spreadsheet words or strptime, shown back in words', () => {
  const cases: [string, string, string][] = [
    ['D.M.YYYY', '%d.%m.%Y', 'DATE'],
    ['DD/MM/YYYY', '%d/%m/%Y', 'DATE'],
    ['M/D/YYYY', '%m/%d/%Y', 'DATE'],
    ['MMM D YYYY', '%b %d %Y', 'DATE'],
    ['MMMM D, YYYY', '%B %d, %Y', 'DATE'],
    ['YYYY-MM-DD HH:mm:ss', '%Y-%m-%d %H:%M:%S', 'TIMESTAMP'],
    ['D.M.YY', '%d.%m.%y', 'DATE'],
    ['%d/%m/%Y', '%d/%m/%Y', 'DATE'],
  ];
  for (const [words, format, type] of cases) assert.deepEqual(parseDateFormat(words), { format, type }, words);
  assert.equal(describeConversion({ type: 'DATE', format: '%b %d %Y' }), 'MMM D YYYY');
  assert.equal(describeConversion({ type: 'TIMESTAMP' }), 'ISO 8601');
  assert.throws(() => parseDateFormat('QQ'), /Cannot read the date format "QQ"/);
  assert.throws(() => parseDateFormat('D.M'), /names no year or no month/);
});
