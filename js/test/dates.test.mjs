// fromJSON / fromCSV with dates and timestamps in other spellings: the
// spellings detected (and their notes), the ambiguity of day and month,
// dateFormat and timestampFormat (a string or an array; 'iso' turns
// detection off), a schema's d reading a pattern, and the errors of a bad
// pattern or a bad option.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';

const types = (doc) => JSON.parse(new TextDecoder().decode(doc).split('\n')[0] + ']}').types;
const rows = (doc) => new TextDecoder().decode(doc).split('\n').slice(1, -1).map((l) => JSON.parse(l.replace(/,$/, '')));

test('detected spellings, with their notes', () => {
  const notes = [];
  const doc = jj.fromCSV('d,t\n01/31/2015,2015/01/01 01:00:00\n2/1/2016,2001/01/01 00:47:00\n',
    { delimiter: ',', onNote: (n) => notes.push(n) });
  assert.deepEqual(types(doc), ['d', 'l']);
  assert.deepEqual(rows(doc), [['2015-01-31', '2015-01-01T01:00:00'], ['2016-02-01', '2001-01-01T00:47:00']]);
  assert.deepEqual(notes, [
    'column "d": dates written as %m/%d/%Y (row 1, "01/31/2015") -> d (written as 2015-01-31)',
    'column "t": timestamps written as %Y/%m/%d %H:%M:%S (row 1, "2015/01/01 01:00:00") -> l (written as 2015-01-01T01:00:00)']);
  const json = jj.fromJSON('[{"d":"Jan 1 2000"},{"d":"Jun 12 1998"}]');
  assert.deepEqual(rows(json), [['2000-01-01'], ['1998-06-12']]);
});

test('day and month that cannot be told apart stay text; the option decides', () => {
  const notes = [];
  const text = 'd\n01/02/2015\n03/04/2015\n';
  assert.deepEqual(types(jj.fromCSV(text, { delimiter: ',', onNote: (n) => notes.push(n) })), ['s']);
  assert.match(notes[0], /no day is above 12 to tell which -> s \(ambiguous; the date format option decides\)$/);
  assert.deepEqual(rows(jj.fromCSV(text, { delimiter: ',', dateFormat: '%d/%m/%Y' })), [['2015-02-01'], ['2015-04-03']]);
});

test('dateFormat, timestampFormat and iso', () => {
  const doc = jj.fromJSON('[{"d":"31.01.2015","t":"2015/01/01 01:00 +0100"}]',
    { dateFormat: ['%m/%d/%Y', '%d.%m.%Y'], timestampFormat: '%Y/%m/%d %H:%M %z' });
  assert.deepEqual(types(doc), ['d', 't']);
  assert.deepEqual(rows(doc), [['2015-01-31', '2015-01-01T01:00:00+01:00']]);
  const csv = 'd,t\n01/31/2015,2015/01/01 01:00\n';
  assert.deepEqual(types(jj.fromCSV(csv, { dateFormat: 'iso' })), ['s', 'l']);
  assert.deepEqual(types(jj.fromCSV(csv, { dateFormat: 'iso', timestampFormat: ['iso'] })), ['s', 's']);
  // a schema's d reads the pattern; a value it does not read is located
  assert.deepEqual(rows(jj.fromCSV('d\n01/31/2015\n', { schema: 'd:d', dateFormat: '%m/%d/%Y' })), [['2015-01-31']]);
  assert.throws(() => jj.fromCSV('d\n02/30/2015\n', { schema: 'd:d', dateFormat: '%m/%d/%Y' }),
    { code: 'date', message: 'row 1, column "d", byte 2: "02/30/2015" is not a date (February 2015 has 28 days; the schema says d:d)' });
});

test('bad patterns and options', () => {
  assert.throws(() => jj.fromJSON('[{"d":"x"}]', { dateFormat: '%d/%q/%Y' }),
    { code: 'usage', message: 'the date format "%d/%q/%Y", at byte 3: unknown directive %q' });
  assert.throws(() => jj.fromCSV('a\n1\n', { timestampFormat: '%d/%m/%Y' }), { code: 'usage', message: /no hour/ });
  assert.throws(() => jj.fromJSON('[]', { dateFormat: 5 }), TypeError);
  assert.throws(() => jj.fromJSON('[]', { timestampFormat: [] }), /timestampFormat must be a string or an array of 1 to 16 strings/);
  assert.throws(() => jj.fromCSV('a\n1\n', { dateFormat: Array(17).fill('%Y') }), TypeError);
  // the patterns of one call do not carry over to the next
  assert.deepEqual(types(jj.fromCSV('d\n31-01-2015\n', { dateFormat: '%d-%m-%Y' })), ['d']);
  assert.deepEqual(types(jj.fromCSV('d\n31-01-2015\n')), ['s']);
});
