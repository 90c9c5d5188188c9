// The thin layer over Word's JavaScript API: read the document as paragraphs, find a place again,
// select it, comment on it, replace it. Only the calls listed in the interfaces below are used, so a
// typed fake (test/fake-word.ts) can stand in for Word in unit tests and in the browser test.
// Requirement sets: WordApi 1.1 (paragraphs, search, insertText, select), 1.3 (expandTo,
// tableNestingLevel), 1.4 (insertComment), 1.5 (footnotes/endnotes), 1.6 (onParagraphChanged).

import { searchPlan, type SearchStep } from './positions';
import type { Part, WordPlace } from './findings';

export interface WRangeCollection {
  items: WRange[];
  load(propertyNames?: string): WRangeCollection;
}

export interface WRange {
  search(searchText: string, searchOptions?: { matchCase?: boolean; matchWildcards?: boolean }): WRangeCollection;
  expandTo(range: WRange): WRange;
  insertComment(commentText: string): unknown;
  insertText(text: string, insertLocation: 'Replace' | 'Start' | 'End'): WRange;
  select(selectionMode?: 'Select'): void;
}

export interface WParagraph extends WRange {
  text: string;
  tableNestingLevel: number;
}

export interface WParagraphCollection {
  items: WParagraph[];
  load(propertyNames?: string): WParagraphCollection;
}

export interface WNoteItem {
  body: { paragraphs: WParagraphCollection };
}

export interface WNoteItemCollection {
  items: WNoteItem[];
  load(propertyNames?: string): WNoteItemCollection;
}

export interface WBody {
  paragraphs: WParagraphCollection;
  footnotes?: WNoteItemCollection;
  endnotes?: WNoteItemCollection;
}

export interface WEvent {
  add(handler: (args: unknown) => Promise<unknown>): unknown;
}

export interface WContext {
  document: { body: WBody; onParagraphChanged?: WEvent; onParagraphAdded?: WEvent; onParagraphDeleted?: WEvent };
  sync(): Promise<unknown>;
}

export interface WordHost {
  run<T>(batch: (context: WContext) => Promise<T>): Promise<T>;
}

/** Which optional requirement sets the host has (Office.context.requirements.isSetSupported). */
export interface Support {
  notes: boolean; // WordApi 1.5: footnotes and endnotes
  events: boolean; // WordApi 1.6: paragraph change events
  comments: boolean; // WordApi 1.4
  expand: boolean; // WordApi 1.3
}

export type Locator = { where: 'body'; index: number } | { where: 'footnote' | 'endnote'; note: number; index: number };

/** The document as the backend gets it, and how to find each paragraph again. */
export interface Snapshot {
  paragraphs: { text: string; part: Part }[];
  locators: Locator[];
}

export class PlaceChanged extends Error {}

/** Every paragraph of the body (table cells marked 'table'), then footnotes, then endnotes. */
export async function readDocument(host: WordHost, support: Support): Promise<Snapshot> {
  return host.run(async (ctx) => {
    const body = ctx.document.body;
    const paras = body.paragraphs.load('items/text,items/tableNestingLevel');
    const notes: [('footnote' | 'endnote'), WNoteItemCollection][] = [];
    if (support.notes && body.footnotes) notes.push(['footnote', body.footnotes.load('items')]);
    if (support.notes && body.endnotes) notes.push(['endnote', body.endnotes.load('items')]);
    await ctx.sync();
    const noteParas: [('footnote' | 'endnote'), number, WParagraphCollection][] = [];
    for (const [kind, coll] of notes) {
      coll.items.forEach((item, i) => noteParas.push([kind, i, item.body.paragraphs.load('items/text')]));
    }
    if (noteParas.length) await ctx.sync();
    const snap: Snapshot = { paragraphs: [], locators: [] };
    paras.items.forEach((p, index) => {
      snap.paragraphs.push({ text: p.text, part: p.tableNestingLevel > 0 ? 'table' : 'body' });
      snap.locators.push({ where: 'body', index });
    });
    for (const [kind, note, coll] of noteParas) {
      coll.items.forEach((p, index) => {
        snap.paragraphs.push({ text: p.text, part: kind });
        snap.locators.push({ where: kind, note, index });
      });
    }
    return snap;
  });
}

async function paragraphAt(ctx: WContext, loc: Locator): Promise<WParagraph | undefined> {
  const body = ctx.document.body;
  if (loc.where === 'body') {
    const ps = body.paragraphs.load('items/text');
    await ctx.sync();
    return ps.items[loc.index];
  }
  const notes = (loc.where === 'footnote' ? body.footnotes : body.endnotes)?.load('items');
  if (!notes) return undefined;
  await ctx.sync();
  const note = notes.items[loc.note];
  if (!note) return undefined;
  const ps = note.body.paragraphs.load('items/text');
  await ctx.sync();
  return ps.items[loc.index];
}

async function runSteps(ctx: WContext, para: WRange, steps: SearchStep[]): Promise<(WRange | undefined)[]> {
  const found = steps.map((s) => para.search(s.search, { matchCase: true, matchWildcards: false }).load('items'));
  await ctx.sync(); // one sync for all searches
  return found.map((coll, i) => coll.items[steps[i].nth]);
}

/**
 * The Word range of `place` in the paragraph `expected` was read from. Throws PlaceChanged when the
 * paragraph's text is no longer what was checked (the user typed since): re-check, then try again.
 */
export async function rangeOf(ctx: WContext, loc: Locator, place: WordPlace, expected: string): Promise<WRange> {
  const para = await paragraphAt(ctx, loc);
  if (!para || para.text !== expected) throw new PlaceChanged('The paragraph changed since the last check; check again.');
  const plan = searchPlan(expected, place.start, place.end);
  if (!plan) throw new PlaceChanged('This citation is no longer where it was; check again.');
  if (plan.kind === 'single') {
    const [r] = await runSteps(ctx, para, [plan.step]);
    if (r) return r;
  } else {
    const [head, tail] = await runSteps(ctx, para, [plan.head, plan.tail]);
    if (head && tail) return head.expandTo(tail);
  }
  throw new PlaceChanged(`Word could not find “${place.text.slice(0, 60)}” in its paragraph; check again.`);
}

export async function selectPlace(host: WordHost, loc: Locator, place: WordPlace, expected: string): Promise<void> {
  await host.run(async (ctx) => {
    (await rangeOf(ctx, loc, place, expected)).select('Select');
    await ctx.sync();
  });
}

export async function commentOn(host: WordHost, loc: Locator, place: WordPlace, expected: string, text: string): Promise<void> {
  await host.run(async (ctx) => {
    (await rangeOf(ctx, loc, place, expected)).insertComment(text);
    await ctx.sync();
  });
}

/** Characters of text an insertion is anchored to (Word finds a range by searching for its text). */
const ANCHOR = 24;

/** Where an insertion (an empty place: the subsequent history after a citation) is made: at the end of the
 * few characters before it, or at the start of those after it when it opens its paragraph; null when the
 * paragraph is empty or shorter than the place. Never splits a surrogate pair. */
export function insertionAnchor(paragraph: string, place: WordPlace): { place: WordPlace; at: 'Start' | 'End' } | null {
  const low = (i: number) => i > 0 && i < paragraph.length && (paragraph.charCodeAt(i) & 0xfc00) === 0xdc00;
  const at = place.start;
  if (at < 0 || at > paragraph.length || paragraph.length === 0) return null;
  let start = at > 0 ? Math.max(0, at - ANCHOR) : 0;
  let end = at > 0 ? at : Math.min(paragraph.length, ANCHOR);
  if (low(start)) start -= 1;
  if (low(end)) end += 1;
  return { place: { ...place, start, end, text: paragraph.slice(start, end) }, at: at > 0 ? 'End' : 'Start' };
}

/** Replace each edit's place (last first, so earlier offsets in a paragraph stay valid); an empty place is
 * an insertion there. */
export async function replacePlaces(
  host: WordHost,
  edits: { loc: Locator; place: WordPlace; expected: string; newText: string }[],
): Promise<void> {
  const ordered = [...edits].sort((a, b) => a.place.paragraph - b.place.paragraph || b.place.start - a.place.start);
  const current = new Map<number, string>();
  await host.run(async (ctx) => {
    for (const e of ordered) {
      const expected = current.get(e.place.paragraph) ?? e.expected;
      // each replacement changes the paragraph the next one searches, so one sync per edit
      if (e.place.start === e.place.end) {
        const anchor = insertionAnchor(expected, e.place);
        if (!anchor) throw new PlaceChanged('This citation is no longer where it was; check again.');
        (await rangeOf(ctx, e.loc, anchor.place, expected)).insertText(e.newText, anchor.at);
      } else {
        (await rangeOf(ctx, e.loc, e.place, expected)).insertText(e.newText, 'Replace');
      }
      await ctx.sync();
      current.set(e.place.paragraph, expected.slice(0, e.place.start) + e.newText + expected.slice(e.place.end));
    }
  });
}

/** Call `onChange` after paragraph edits, where the host has the events (WordApi 1.6). */
export async function watchChanges(host: WordHost, support: Support, onChange: () => void): Promise<boolean> {
  if (!support.events) return false;
  return host.run(async (ctx) => {
    const d = ctx.document;
    // Office.js wants a handler that returns a promise; the change itself is handled synchronously
    const handler = () => {
      onChange();
      return Promise.resolve();
    };
    let any = false;
    for (const ev of [d.onParagraphChanged, d.onParagraphAdded, d.onParagraphDeleted]) {
      if (ev) {
        ev.add(handler);
        any = true;
      }
    }
    await ctx.sync();
    return any;
  });
}
