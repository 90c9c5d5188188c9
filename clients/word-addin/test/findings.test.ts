import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCheckAnswer, WireError } from '../src/findings';
import { briefParagraphs, mangleable, sampleAnswer, type Mangle } from './sample';

test('the answer the Python side produces parses as the pane’s CheckAnswer', (t) => {
  const { raw, from } = sampleAnswer();
  t.diagnostic(`sample: ${from}`);
  const answer = parseCheckAnswer(raw);
  const file = answer.report.files[0];
  assert.ok(file.citations.length > 5);
  assert.ok(file.findings.some((f) => f.fixes.length > 0), 'the brief has at least one finding with a fix');
  // the places are UTF-16 offsets into the paragraphs Word gave
  const paras = briefParagraphs();
  for (const f of file.findings) assert.equal(paras[f.word.paragraph].slice(f.word.start, f.word.end), f.word.text);
  for (const c of file.citations) assert.equal(paras[c.word.paragraph].slice(c.word.start, c.word.end), c.word.text);
});

function mutated(edit: (a: Mangle) => void): unknown {
  const copy = mangleable();
  edit(copy);
  return copy;
}

test('an answer with a field renamed or missing is refused, naming the field', () => {
  assert.throws(() => parseCheckAnswer(mutated((a) => delete a.report.files[0].findings[0].word)), /findings\[0\]\.word/);
  assert.throws(() => parseCheckAnswer(mutated((a) => (a.report.files[0].findings[0].severity = 'fatal'))), WireError);
  assert.throws(() => parseCheckAnswer(mutated((a) => (a.report.files[0].citations[0].status = 'fake'))), /status/);
  assert.throws(() => parseCheckAnswer(mutated((a) => (a.api = 2))), /version 1/);
  assert.throws(() => parseCheckAnswer(mutated((a) => delete (a.report.files[0].findings[0].ignore_key as Record<string, unknown>).quoteHash)), /quoteHash/);
});
