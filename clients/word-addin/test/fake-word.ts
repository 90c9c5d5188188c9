// A typed fake of the part of Word's JavaScript API the pane uses (src/word.ts's interfaces), with
// Office's load/sync discipline: a property or a search result read before `load()` + `context.sync()`
// throws, as in Word. Searches behave like Word's: case-sensitive, left to right, non-overlapping,
// `^^` for a literal caret, and a search text over 255 characters is an error. Used by the unit tests
// and, bundled (`node esbuild.mjs fake`), by the browser test in tests/serve/test_browser.py.

import type { WBody, WContext, WEvent, WNoteItem, WNoteItemCollection, WParagraph, WParagraphCollection, WRange, WRangeCollection, WordHost } from '../src/word';

export class NotLoaded extends Error {}

/** Everything that happened, for assertions. */
export interface Journal {
  selections: string[];
  /** UTF-16 offset in its paragraph where each selection starts. */
  selectedAt: number[];
  comments: { on: string; text: string }[];
  replacements: { from: string; to: string }[];
  searches: string[];
  syncs: number;
}

class Loadable {
  protected loaded = false;
  constructor(protected readonly doc: FakeDocument) {}
  load(): this {
    this.doc.pending.push(() => {
      this.loaded = true;
    });
    return this;
  }
  protected need(what: string): void {
    if (!this.loaded) throw new NotLoaded(`The property '${what}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`);
  }
}

export class FakeParagraph extends Loadable implements WParagraph {
  constructor(doc: FakeDocument, private value: string, private readonly nesting = 0) {
    super(doc);
  }
  get text(): string {
    this.need('text');
    return this.value;
  }
  get tableNestingLevel(): number {
    this.need('tableNestingLevel');
    return this.nesting;
  }
  raw(): string {
    return this.value;
  }
  setRaw(v: string): void {
    this.value = v;
  }
  private whole(): FakeRange {
    return new FakeRange(this.doc, this, 0, this.value.length);
  }
  search(searchText: string, options?: { matchCase?: boolean }): WRangeCollection {
    return this.whole().search(searchText, options);
  }
  expandTo(range: WRange): WRange {
    return this.whole().expandTo(range);
  }
  insertComment(text: string): unknown {
    return this.whole().insertComment(text);
  }
  insertText(text: string, loc: 'Replace' | 'Start' | 'End'): WRange {
    return this.whole().insertText(text, loc);
  }
  select(): void {
    this.whole().select();
  }
}

export class FakeRange implements WRange {
  constructor(private readonly doc: FakeDocument, readonly para: FakeParagraph, readonly start: number, readonly end: number) {}
  get text(): string {
    return this.para.raw().slice(this.start, this.end);
  }
  search(searchText: string, options?: { matchCase?: boolean }): WRangeCollection {
    this.doc.journal.searches.push(searchText);
    if (searchText.length > 255) throw new Error('SearchStringInvalidOrTooLong: the search string is longer than 255 characters.');
    const needle = searchText.replace(/\^\^/g, '^');
    const hay = this.para.raw().slice(this.start, this.end);
    const found: FakeRange[] = [];
    if (needle) {
      const h = options?.matchCase ? hay : hay.toLowerCase();
      const n = options?.matchCase ? needle : needle.toLowerCase();
      for (let at = h.indexOf(n); at !== -1; at = h.indexOf(n, at + n.length)) {
        found.push(new FakeRange(this.doc, this.para, this.start + at, this.start + at + n.length));
      }
    }
    return new FakeRangeCollection(this.doc, found);
  }
  expandTo(range: WRange): WRange {
    const r = range as FakeRange;
    if (r.para !== this.para) throw new Error('InvalidArgument: ranges in different paragraphs (fake limitation)');
    return new FakeRange(this.doc, this.para, Math.min(this.start, r.start), Math.max(this.end, r.end));
  }
  insertComment(text: string): unknown {
    this.doc.journal.comments.push({ on: this.text, text });
    return {};
  }
  insertText(text: string, insertLocation: 'Replace' | 'Start' | 'End' = 'Replace'): WRange {
    const v = this.para.raw();
    // Word's locations: 'Start' and 'End' insert at that end of the range, inside it; 'Replace' replaces it
    const [from, to] = { Replace: [this.start, this.end], Start: [this.start, this.start], End: [this.end, this.end] }[insertLocation];
    this.doc.journal.replacements.push({ from: v.slice(from, to), to: text });
    this.para.setRaw(v.slice(0, from) + text + v.slice(to));
    this.doc.changed();
    return new FakeRange(this.doc, this.para, from, from + text.length);
  }
  select(): void {
    this.doc.journal.selections.push(this.text);
    this.doc.journal.selectedAt.push(this.start);
    this.doc.selection = this.text;
  }
}

class FakeRangeCollection extends Loadable implements WRangeCollection {
  constructor(doc: FakeDocument, private readonly found: FakeRange[]) {
    super(doc);
  }
  get items(): WRange[] {
    this.need('items');
    return this.found;
  }
  load(): this {
    return super.load();
  }
}

class FakeParagraphs extends Loadable implements WParagraphCollection {
  constructor(doc: FakeDocument, private readonly list: FakeParagraph[]) {
    super(doc);
  }
  get items(): WParagraph[] {
    this.need('items');
    return this.list;
  }
  load(): this {
    this.list.forEach((p) => p.load());
    return super.load();
  }
}

class FakeNotes extends Loadable implements WNoteItemCollection {
  constructor(doc: FakeDocument, private readonly notes: FakeParagraph[][]) {
    super(doc);
  }
  get items(): WNoteItem[] {
    this.need('items');
    return this.notes.map((paras) => ({ body: { paragraphs: new FakeParagraphs(this.doc, paras) } }));
  }
  load(): this {
    return super.load();
  }
}

class FakeEvent implements WEvent {
  handlers: ((args: unknown) => Promise<unknown>)[] = [];
  add(handler: (args: unknown) => Promise<unknown>): unknown {
    this.handlers.push(handler);
    return {};
  }
}

export interface FakeSpec {
  body: (string | { text: string; table?: boolean })[];
  footnotes?: string[][];
  endnotes?: string[][];
}

/** A Word document: paragraphs of the body (some in tables), footnotes and endnotes. */
export class FakeDocument {
  pending: (() => void)[] = [];
  journal: Journal = { selections: [], selectedAt: [], comments: [], replacements: [], searches: [], syncs: 0 };
  selection = '';
  readonly body: FakeParagraph[];
  readonly footnotes: FakeParagraph[][];
  readonly endnotes: FakeParagraph[][];
  readonly onParagraphChanged = new FakeEvent();

  constructor(spec: FakeSpec) {
    this.body = spec.body.map((p) => (typeof p === 'string' ? new FakeParagraph(this, p) : new FakeParagraph(this, p.text, p.table ? 1 : 0)));
    this.footnotes = (spec.footnotes ?? []).map((n) => n.map((t) => new FakeParagraph(this, t)));
    this.endnotes = (spec.endnotes ?? []).map((n) => n.map((t) => new FakeParagraph(this, t)));
  }

  /** Fire the change event, as Word does after an edit. */
  changed(): void {
    for (const h of this.onParagraphChanged.handlers) void h({ type: 'paragraphChanged' });
  }

  /** The user types: replace the text of body paragraph `i`. */
  type(i: number, text: string): void {
    this.body[i].setRaw(text);
    this.changed();
  }

  texts(): string[] {
    return this.body.map((p) => p.raw());
  }

  host(): WordHost {
    const ctx = (): WContext => {
      const body: WBody = {
        paragraphs: new FakeParagraphs(this, this.body),
        footnotes: new FakeNotes(this, this.footnotes),
        endnotes: new FakeNotes(this, this.endnotes),
      };
      return {
        document: { body, onParagraphChanged: this.onParagraphChanged },
        sync: async () => {
          this.journal.syncs += 1;
          const todo = this.pending;
          this.pending = [];
          todo.forEach((f) => f());
        },
      };
    };
    return { run: async <T>(batch: (c: WContext) => Promise<T>) => batch(ctx()) };
  }
}
