import assert from 'node:assert/strict';
import { test } from 'node:test';

import { codePointToUtf16, utf16ToCodePoint } from '../src/positions';

// "😀" and "𝒮" are one code point but two UTF-16 units; "§", "–" and curly quotes are one of each.
const TEXT = 'A 😀 § “𝒮” – end';

test('ASCII offsets are the same in both units', () => {
  for (let i = 0; i <= 5; i++) {
    assert.equal(codePointToUtf16('hello', i), i);
    assert.equal(utf16ToCodePoint('hello', i), i);
  }
});

test('an emoji shifts later UTF-16 offsets by one', () => {
  const cps = [...TEXT];
  const at = cps.indexOf('§'); // code-point index of §
  assert.equal(at, 4);
  assert.equal(codePointToUtf16(TEXT, at), TEXT.indexOf('§')); // 5 in UTF-16
  assert.equal(TEXT.indexOf('§'), 5);
});

test('every code point round-trips, including two non-BMP characters', () => {
  const cps = [...TEXT];
  let units = 0;
  for (let i = 0; i <= cps.length; i++) {
    assert.equal(codePointToUtf16(TEXT, i), units, `code point ${i}`);
    assert.equal(utf16ToCodePoint(TEXT, units), i, `utf-16 ${units}`);
    units += i < cps.length ? cps[i].length : 0;
  }
  assert.equal(codePointToUtf16(TEXT, cps.length), TEXT.length);
});

test('offsets past the end clamp to the end', () => {
  assert.equal(codePointToUtf16('a😀', 10), 3);
  assert.equal(utf16ToCodePoint('a😀', 10), 2);
});

test('an offset inside a surrogate pair counts the whole pair', () => {
  assert.equal(utf16ToCodePoint('😀x', 1), 1);
});

test('a lone surrogate counts as one code point, as Python does', () => {
  const s = 'a\ud800b';
  assert.equal(codePointToUtf16(s, 2), 2);
  assert.equal(utf16ToCodePoint(s, 3), 3);
});

test('negative or fractional offsets are rejected', () => {
  assert.throws(() => codePointToUtf16('abc', -1), RangeError);
  assert.throws(() => utf16ToCodePoint('abc', 1.5), RangeError);
});
