/**
 * Tells the server what the user sees (`citecheck/visibleRanges`), so that CourtListener's small
 * allowance (60 citations a minute on a free account) is spent on the citations on screen first.
 *
 * Every notification carries the whole view: each checked document shown in an editor, with its
 * visible ranges (VS Code's ranges are LSP positions in UTF-16 — the only position encoding
 * vscode-languageclient negotiates — and the server converts them to code points). A document not
 * named is not visible. Scrolling fires many events a second, so sends are debounced, and a view
 * identical to the last one sent is not sent again. See docs/editors.md.
 */
import type { LspPosition, LspRange } from './citations';
import type { Disposable } from './vscodeapi';

export const VISIBLE_RANGES_NOTIFICATION = 'citecheck/visibleRanges';
/** Long enough to coalesce a scroll (tens of events a second), short next to a lookup's wait. */
export const VISIBLE_RANGES_DEBOUNCE_MS = 250;

export interface ShownDocument {
  uri: string;
  ranges: LspRange[];
}
export interface VisibleRangesParams {
  documents: ShownDocument[];
}

/** The part of a `vscode.TextEditor` this module reads. */
export interface EditorView {
  document: { uri: { toString(): string; scheme: string }; languageId: string };
  visibleRanges: readonly { start: LspPosition; end: LspPosition }[];
}

/**
 * The params for the editors shown: only documents citecheck checks (its languages, `file` or
 * `untitled`), one entry per document (a document split into two editors has both views' ranges).
 */
export function visibleRangesParams(editors: readonly EditorView[], languages: readonly string[]): VisibleRangesParams {
  const byUri = new Map<string, LspRange[]>();
  for (const editor of editors) {
    const { uri, languageId } = editor.document;
    if (!['file', 'untitled'].includes(uri.scheme) || !languages.includes(languageId)) continue;
    const key = uri.toString();
    const ranges = byUri.get(key) ?? [];
    for (const r of editor.visibleRanges) {
      ranges.push({
        start: { line: r.start.line, character: r.start.character },
        end: { line: r.end.line, character: r.end.character },
      });
    }
    byUri.set(key, ranges);
  }
  return { documents: [...byUri].map(([uri, ranges]) => ({ uri, ranges })) };
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Debounces view changes into `send(params)`; `flush()` sends the current view now (server (re)started). */
export class VisibleRangesReporter implements Disposable {
  private timer: unknown;
  private lastSent: string | undefined;

  constructor(
    private readonly view: () => VisibleRangesParams,
    private readonly send: (params: VisibleRangesParams) => unknown,
    private readonly delayMs = VISIBLE_RANGES_DEBOUNCE_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  /** The view changed (scroll, editor shown or hidden): send it once things settle. */
  changed(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.sendIfNew();
    }, this.delayMs);
  }

  /** A new server knows nothing yet: send the current view at once, even if an earlier server had it. */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.lastSent = undefined;
    this.sendIfNew();
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private sendIfNew(): void {
    let params: VisibleRangesParams;
    try {
      params = this.view();
    } catch {
      return; // the view is a hint; without it the server keeps document order
    }
    const key = JSON.stringify(params);
    if (key === this.lastSent) return;
    this.lastSent = key;
    try {
      const sent = this.send(params);
      if (sent === false) this.lastSent = undefined; // no server to tell: the next start flushes it
      else if (sent instanceof Promise) sent.catch(() => (this.lastSent = undefined));
    } catch {
      this.lastSent = undefined; // not running: the next start flushes it
    }
  }
}
