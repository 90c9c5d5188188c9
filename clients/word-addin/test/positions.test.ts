import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codePointToUtf16, escapeSearch, occurrenceIndex, searchPlan, splitsPair, utf16ToCodePoint, SEARCH_LIMIT } from '../src/positions';

const TEXT = 'a😀𝒮§b'; // 😀 and 𝒮 are astral: two UTF-16 units each; § is one

test('code points and UTF-16 units convert both ways', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((cp) => codePointToUtf16(TEXT, cp)), [0, 1, 3, 5, 6, 7]);
  assert.deepEqual([0, 1, 3, 5, 6, 7].map((u) => utf16ToCodePoint(TEXT, u)), [0, 1, 2, 3, 4, 5]);
  assert.equal(utf16ToCodePoint(TEXT, 2), 1, 'inside a surrogate pair rounds down');
  assert.ok(splitsPair(TEXT, 2));
  assert.ok(!splitsPair(TEXT, 3));
});

test('occurrences are counted left to right without overlap, like Word search', () => {
  assert.equal(occurrenceIndex('Id. at 5. Id. at 5.', 'Id. at 5.', 10), 1);
  assert.equal(occurrenceIndex('aaaa', 'aa', 2), 1);
  assert.equal(occurrenceIndex('aaaa', 'aa', 0), 0);
});

test('a short target is one search for its nth match', () => {
  const para = '😀 Id. at 5; see also Id. at 5.';
  const start = para.lastIndexOf('Id. at 5');
  const plan = searchPlan(para, start, start + 8);
  assert.deepEqual(plan, { kind: 'single', step: { search: 'Id. at 5', nth: 1 } });
});

test('a caret is escaped for Word and still counted', () => {
  assert.equal(escapeSearch('a^b'), 'a^^b');
  const plan = searchPlan('x^2 and x^2', 8, 11);
  assert.deepEqual(plan, { kind: 'single', step: { search: 'x^^2', nth: 1 } });
});

test('a target over 255 characters becomes a head and a tail search that fit', () => {
  const quote = `“${'word '.repeat(80)}😀end”`;
  const para = `Before. ${quote} After.`;
  const start = para.indexOf('“');
  const end = start + quote.length;
  const plan = searchPlan(para, start, end);
  assert.ok(plan && plan.kind === 'span');
  if (plan.kind !== 'span') return;
  assert.ok(plan.head.search.length <= SEARCH_LIMIT && plan.tail.search.length <= SEARCH_LIMIT);
  assert.ok(quote.startsWith(plan.head.search));
  assert.ok(quote.endsWith(plan.tail.search));
  assert.ok(!/^[\udc00-\udfff]/.test(plan.tail.search), 'the tail does not start inside a surrogate pair');
});

test('a stale or empty place has no plan', () => {
  assert.equal(searchPlan('short', 2, 2), null);
  assert.equal(searchPlan('short', 3, 10), null);
});
