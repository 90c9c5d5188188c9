import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WordPlace } from '../src/findings';
import { PlaceChanged, rangeOf, readDocument, replacePlaces, selectPlace, type Support } from '../src/word';
import { FakeDocument, NotLoaded } from './fake-word';

const ALL: Support = { notes: true, events: true, comments: true, expand: true };

function place(paragraph: number, text: string, needle: string, nth = 0): WordPlace {
  let at = -1;
  for (let i = 0; i <= nth; i += 1) at = text.indexOf(needle, at + 1);
  return { paragraph, start: at, end: at + needle.length, part: 'body', text: needle };
}

test('the document is read as body, table, footnote and endnote paragraphs', async () => {
  const doc = new FakeDocument({
    body: ['Intro.', { text: 'In a table: 100 A.2d 450.', table: true }],
    footnotes: [['First note 😀.', 'Second paragraph of it.']],
    endnotes: [['An endnote.']],
  });
  const snap = await readDocument(doc.host(), ALL);
  assert.deepEqual(snap.paragraphs.map((p) => p.part), ['body', 'table', 'footnote', 'footnote', 'endnote']);
  assert.equal(snap.paragraphs[2].text, 'First note 😀.');
  assert.deepEqual(snap.locators[3], { where: 'footnote', note: 0, index: 1 });
  const noNotes = await readDocument(doc.host(), { ...ALL, notes: false });
  assert.equal(noNotes.paragraphs.length, 2);
});

test('the fake enforces load and sync like Word', async () => {
  const doc = new FakeDocument({ body: ['x'] });
  await doc.host().run(async (ctx) => {
    const ps = ctx.document.body.paragraphs;
    assert.throws(() => ps.items, NotLoaded);
    ps.load('items/text');
    await ctx.sync();
    assert.equal(ps.items[0].text, 'x');
  });
});

test('click selects the nth occurrence after astral characters', async () => {
  const para = '😀𝒮 See Id. at 5. 🙂 Then Id. at 5 again.';
  const doc = new FakeDocument({ body: ['Intro.', para] });
  const second = place(1, para, 'Id. at 5', 1);
  assert.ok(second.start > para.indexOf('🙂'));
  await selectPlace(doc.host(), { where: 'body', index: 1 }, second, para);
  assert.deepEqual(doc.journal.selections, ['Id. at 5']);
  assert.deepEqual(doc.journal.selectedAt, [second.start], 'the second match, not the first');
});

test('a footnote citation is found in its footnote', async () => {
  const note = '🙂 Berry v. Keith, 100 A.2d 831 (D.C. Mun. App. 1953).';
  const doc = new FakeDocument({ body: ['Body.'], footnotes: [[note]] });
  await selectPlace(doc.host(), { where: 'footnote', note: 0, index: 0 }, { ...place(0, note, '100 A.2d 831'), part: 'footnote' }, note);
  assert.deepEqual(doc.journal.selections, ['100 A.2d 831']);
});

test('a quotation longer than 255 characters is selected with two searches', async () => {
  const quote = `“${'the deposit is held in trust '.repeat(12)}𝒮”`;
  const para = `He wrote ${quote} and left.`;
  const doc = new FakeDocument({ body: [para] });
  await selectPlace(doc.host(), { where: 'body', index: 0 }, place(0, para, quote), para);
  assert.deepEqual(doc.journal.selections, [quote]);
  assert.ok(doc.journal.searches.every((s) => s.length <= 255));
});

test('a paragraph edited since the check is reported, not guessed at', async () => {
  const doc = new FakeDocument({ body: ['Savage v. Parks, 100 A.2d 450.'] });
  doc.type(0, 'Savage v. Parks, 100 A.2d 451.');
  await assert.rejects(
    doc.host().run((ctx) => rangeOf(ctx, { where: 'body', index: 0 }, place(0, 'Savage v. Parks, 100 A.2d 450.', '100 A.2d 450'), 'Savage v. Parks, 100 A.2d 450.')),
    PlaceChanged,
  );
});

test('two fixes in one paragraph are applied last first', async () => {
  const para = 'Smiht v. Jones, 100 A.2d 450, 4551 (1953).';
  const doc = new FakeDocument({ body: [para] });
  await replacePlaces(doc.host(), [
    { loc: { where: 'body', index: 0 }, place: place(0, para, 'Smiht'), expected: para, newText: 'Smith' },
    { loc: { where: 'body', index: 0 }, place: place(0, para, '4551'), expected: para, newText: '455' },
  ]);
  assert.equal(doc.texts()[0], 'Smith v. Jones, 100 A.2d 450, 455 (1953).');
});

test('an empty place is an insertion: the subsequent history after a citation, even at a paragraph\'s start', async () => {
  const para = 'A right 😀 to abortion. Roe v. Wade, 410 U.S. 113 (1973). Later text.';
  const at = para.indexOf(' Later');
  const doc = new FakeDocument({ body: [para, 'Roe v. Wade, 410 U.S. 113 (1973).'] });
  const history = ', overruled by Dobbs v. Jackson Women’s Health Organization, 597 U.S. 215 (2022)';
  const empty = (paragraph: number, start: number): WordPlace => ({ paragraph, start, end: start, part: 'body', text: '' });
  await replacePlaces(doc.host(), [
    { loc: { where: 'body', index: 0 }, place: empty(0, at - 1), expected: para, newText: history },
    { loc: { where: 'body', index: 1 }, place: empty(1, 0), expected: 'Roe v. Wade, 410 U.S. 113 (1973).', newText: 'See ' },
  ]);
  assert.equal(doc.texts()[0], para.slice(0, at - 1) + history + para.slice(at - 1));
  assert.equal(doc.texts()[1], 'See Roe v. Wade, 410 U.S. 113 (1973).');
  assert.deepEqual(doc.journal.replacements.map((r) => r.from), ['', '']); // nothing of the draft replaced
  // the place past the paragraph's end, or a paragraph changed since: said, not guessed at
  await assert.rejects(replacePlaces(doc.host(), [{ loc: { where: 'body', index: 1 }, place: empty(1, 999), expected: doc.texts()[1], newText: 'x' }]), PlaceChanged);
});
