import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { activate, deactivate } from '../src/extension';
import {
  type EditorView,
  type Timers,
  VISIBLE_RANGES_DEBOUNCE_MS,
  type VisibleRangesParams,
  VisibleRangesReporter,
  visibleRangesParams,
} from '../src/visibleRanges';
import { EventEmitter, fake, outputLines, Range } from './fake-vscode';

const LANGS = ['plaintext', 'markdown'];

function editor(uri: string, languageId: string, ...ranges: [number, number, number, number][]): EditorView {
  const scheme = uri.split(':')[0];
  return {
    document: { uri: { toString: () => uri, scheme }, languageId },
    visibleRanges: ranges.map(([a, b, c, d]) => new Range(a, b, c, d)),
  };
}

/** Timers the test advances by hand. */
class ManualTimers implements Timers {
  now = 0;
  private pending = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= this.now) {
        this.pending.delete(id);
        t.fn();
      }
    }
  }
}

test('the view is the checked documents shown, as LSP ranges, one entry per document', () => {
  const params = visibleRangesParams(
    [
      editor('file:///brief.md', 'markdown', [10, 0, 52, 7]),
      editor('output:extension-output-citecheck', 'log', [0, 0, 40, 0]), // the Output panel: not checked
      editor('file:///x.py', 'python', [0, 0, 40, 0]), // a language citecheck does not check
      editor('file:///brief.md', 'markdown', [300, 2, 340, 0]), // the same brief, split into a second editor
      editor('untitled:Untitled-1', 'plaintext', [0, 0, 3, 1], [9, 0, 12, 0]), // folded: two ranges
    ],
    LANGS,
  );
  assert.deepEqual(params, {
    documents: [
      {
        uri: 'file:///brief.md',
        ranges: [
          { start: { line: 10, character: 0 }, end: { line: 52, character: 7 } },
          { start: { line: 300, character: 2 }, end: { line: 340, character: 0 } },
        ],
      },
      {
        uri: 'untitled:Untitled-1',
        ranges: [
          { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } },
          { start: { line: 9, character: 0 }, end: { line: 12, character: 0 } },
        ],
      },
    ],
  });
  // plain JSON objects (what goes over the wire), not vscode.Position instances
  assert.equal(Object.getPrototypeOf(params.documents[0].ranges[0].start), Object.prototype);
  assert.deepEqual(visibleRangesParams([], LANGS), { documents: [] });
});

test('a scroll is sent once, after it settles; an unchanged view is not sent again', () => {
  const timers = new ManualTimers();
  const sent: VisibleRangesParams[] = [];
  let top = 0;
  const reporter = new VisibleRangesReporter(
    () => visibleRangesParams([editor('file:///b.md', 'markdown', [top, 0, top + 40, 0])], LANGS),
    (p) => sent.push(p),
    VISIBLE_RANGES_DEBOUNCE_MS,
    timers,
  );
  for (let i = 0; i < 30; i++) {
    top += 3; // thirty scroll events, 10 ms apart
    reporter.changed();
    timers.advance(10);
  }
  assert.equal(sent.length, 0, 'nothing while scrolling');
  timers.advance(VISIBLE_RANGES_DEBOUNCE_MS);
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0].documents[0].ranges[0].start, { line: 90, character: 0 });
  reporter.changed(); // e.g. another editor group was focused: same view
  timers.advance(VISIBLE_RANGES_DEBOUNCE_MS);
  assert.equal(sent.length, 1, 'the same view is not sent twice');
  reporter.flush(); // a new server: the view is sent at once, even though it did not change
  assert.equal(sent.length, 2);
  top = 500;
  reporter.changed();
  reporter.dispose(); // the extension stops: a pending send is dropped
  timers.advance(VISIBLE_RANGES_DEBOUNCE_MS);
  assert.equal(sent.length, 2);
});

test('a view that could not be sent (no server) is sent on the next chance', () => {
  const timers = new ManualTimers();
  const sent: VisibleRangesParams[] = [];
  let running = false;
  const reporter = new VisibleRangesReporter(
    () => visibleRangesParams([editor('file:///b.md', 'markdown', [0, 0, 40, 0])], LANGS),
    (p) => (running ? sent.push(p) : false),
    VISIBLE_RANGES_DEBOUNCE_MS,
    timers,
  );
  reporter.changed();
  timers.advance(VISIBLE_RANGES_DEBOUNCE_MS);
  assert.equal(sent.length, 0);
  running = true;
  reporter.changed();
  timers.advance(VISIBLE_RANGES_DEBOUNCE_MS);
  assert.equal(sent.length, 1);
});

const pythons = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
const PYTHON = pythons.find((p) => spawnSync(p, ['-c', 'import citecheck.lsp']).status === 0);
const noServer = PYTHON ? false : `no Python (${pythons.join(', ')}) can import citecheck.lsp; install the package or set CITECHECK_PYTHON`;

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${outputLines.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeEach(() => fake.reset());

test('the real server receives the view when the editor scrolls', { skip: noServer, timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-view-'));
  const uri = pathToFileURL(path.join(tmp, 'brief.txt')).toString();
  fake.config.set('citecheck.python', PYTHON);
  fake.config.set('citecheck.offline', true);
  fake.config.set('citecheck.capFetch', false);
  fake.config.set('citecheck.corpusPath', path.join(tmp, 'c.sqlite'));
  fake.config.set('citecheck.cachePath', path.join(tmp, 'k.sqlite'));
  const doc = fake.document(uri, 'See Roe v. Wade, 410 U.S. 113 (1973).\n'.repeat(200), 'plaintext', 1);
  fake.activeDocument = doc;
  const secrets = new Map<string, string>();
  const ctx = {
    subscriptions: [] as { dispose(): unknown }[],
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
      onDidChange: new EventEmitter<{ key: string }>().event,
    },
  };
  const said = () => outputLines.some((l) => l.includes('CourtListener lookups for citations on screen go first'));
  try {
    await activate(ctx as never);
    await until('the server to run', () => fake.statusItems[0]?.text.includes('citecheck') && !/starting/.test(fake.statusItems[0].text));
    assert.equal(said(), false, 'no editor shown yet: nothing to say');
    fake.visibleEditors = [{ document: doc, visibleRanges: [new Range(120, 0, 160, 0)] }];
    fake.onVisibleRanges.fire({});
    await until('the server to acknowledge the view in its log', said);
    assert.ok(!outputLines.some((l) => l.includes('ignored a citecheck/visibleRanges')), outputLines.join('\n'));
  } finally {
    for (const d of ctx.subscriptions) d.dispose();
    await deactivate();
    rmSync(tmp, { recursive: true, force: true });
  }
});
