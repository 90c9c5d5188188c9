// The pane's behaviour, without the DOM: check (on demand and debounced on Word's change events),
// select, comment, apply a fix, ignore, export. The DOM side (panel.ts) only renders PaneState and
// calls these methods, so unit tests drive this class with a fake Word and a fake fetch.

import { Api, BackendError } from './api';
import type { CheckAnswer, Finding, Status, WordPlace } from './findings';
import { commentText } from './view';
import { commentOn, PlaceChanged, readDocument, replacePlaces, selectPlace, watchChanges, type Snapshot, type Support, type WordHost } from './word';

export interface PaneState {
  busy: boolean;
  progress: string;
  error: string | null;
  notice: string | null;
  answer: CheckAnswer | null;
  shown: Set<Status>;
  watching: boolean;
}

export interface PanelView {
  render(state: PaneState): void;
}

export interface Options {
  debounceMs: number;
  /** Hand the exported HTML report to the user (a download in the browser). */
  save(html: string, filename: string): void;
}

function message(e: unknown): string {
  if (e instanceof BackendError || e instanceof PlaceChanged) return e.message;
  return `Something went wrong: ${e instanceof Error ? e.message : String(e)}`;
}

export class Controller {
  readonly state: PaneState = {
    busy: false,
    progress: '',
    error: null,
    notice: null,
    answer: null,
    shown: new Set<Status>(['problem', 'cannot-verify', 'not-checked', 'verified']),
    watching: false,
  };
  private snapshot: Snapshot | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly host: WordHost,
    private readonly support: Support,
    private readonly api: Api,
    private readonly view: PanelView,
    private readonly documentId: string,
    private readonly options: Options,
  ) {}

  private update(patch: Partial<PaneState>): void {
    Object.assign(this.state, patch);
    this.view.render(this.state);
  }

  /** Check now; a request during a check runs once more right after it. */
  check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.runCheck().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.check();
      }
    });
    return this.running;
  }

  private async runCheck(): Promise<void> {
    this.update({ busy: true, error: null, notice: null, progress: 'Reading the document…' });
    try {
      const snap = await readDocument(this.host, this.support);
      this.update({ progress: `Checking ${snap.paragraphs.length} paragraphs…` });
      const answer = await this.api.check(this.documentId, snap.paragraphs);
      this.snapshot = snap;
      const secs = (answer.elapsed_ms / 1000).toFixed(1);
      this.update({ busy: false, answer, progress: `Checked ${answer.report.summary.citations} citations in ${secs} s.` });
    } catch (e) {
      this.update({ busy: false, progress: '', error: message(e) });
    }
  }

  /** Re-check `debounceMs` after the last change event. */
  scheduleCheck(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.check();
    }, this.options.debounceMs);
  }

  async watch(): Promise<void> {
    try {
      const on = await watchChanges(this.host, this.support, () => this.scheduleCheck());
      this.update({ watching: on });
    } catch {
      this.update({ watching: false });
    }
  }

  private where(place: WordPlace): { loc: Snapshot['locators'][number]; expected: string } {
    const snap = this.snapshot;
    const loc = snap?.locators[place.paragraph];
    const para = snap?.paragraphs[place.paragraph];
    if (!loc || !para) throw new PlaceChanged('The document changed since the last check; check again.');
    return { loc, expected: para.text };
  }

  private async act(what: () => Promise<void>, done?: string): Promise<void> {
    this.update({ error: null, notice: null });
    try {
      await what();
      if (done) this.update({ notice: done });
    } catch (e) {
      this.update({ error: message(e) });
    }
  }

  select(place: WordPlace): Promise<void> {
    return this.act(async () => {
      const { loc, expected } = this.where(place);
      await selectPlace(this.host, loc, place, expected);
    });
  }

  comment(f: Finding): Promise<void> {
    return this.act(async () => {
      if (!this.support.comments) throw new PlaceChanged('This version of Word cannot add comments from an add-in (WordApi 1.4).');
      const { loc, expected } = this.where(f.word);
      await commentOn(this.host, loc, f.word, expected, commentText(f));
    }, 'Comment added.');
  }

  applyFix(f: Finding, index = 0): Promise<void> {
    return this.act(async () => {
      const fix = f.fixes[index];
      if (!fix) throw new PlaceChanged('This finding has no fix to apply.');
      await replacePlaces(this.host, fix.edits.map((e) => ({ ...this.where(e.word), place: e.word, newText: e.new_text })));
      await this.check();
      this.update({ notice: `Applied: ${fix.title}` });
    });
  }

  ignore(f: Finding, scope: 'finding' | 'citation'): Promise<void> {
    return this.act(async () => {
      await this.api.ignore(f.ignore_key, scope);
      await this.check();
      this.update({ notice: scope === 'finding' ? 'Ignored this finding (shared with your editors).' : 'Ignored this citation (shared with your editors).' });
    });
  }

  exportReport(): Promise<void> {
    return this.act(async () => {
      if (!this.state.answer) await this.check();
      const { html, savedTo } = await this.api.reportHtml(this.documentId);
      this.options.save(html, 'citecheck-report.html');
      this.update({ notice: savedTo ? `Report exported (also saved as ${savedTo}).` : 'Report exported.' });
    });
  }

  setShown(status: Status, on: boolean): void {
    const shown = new Set(this.state.shown);
    if (on) shown.add(status);
    else shown.delete(status);
    this.update({ shown });
  }
}
