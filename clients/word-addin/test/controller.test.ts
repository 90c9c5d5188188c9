import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Api, NOT_RUNNING, TOKEN_HEADER, type FetchLike } from '../src/api';
import { Controller, type PaneState } from '../src/controller';
import type { CheckAnswer } from '../src/findings';
import type { Support } from '../src/word';
import { FakeDocument } from './fake-word';
import { briefParagraphs, sampleAnswer } from './sample';

const ALL: Support = { notes: true, events: true, comments: true, expand: true };

interface Call {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: { paragraphs: { text: string; part?: string }[] } | null;
}

/** A stand-in for the backend: answers /check with the sample the Python tests produced. */
function backend(calls: Call[], fail = false): FetchLike {
  return async (url, init) => {
    if (fail) throw new TypeError('Failed to fetch');
    calls.push({ path: url, method: init?.method ?? 'GET', headers: init?.headers ?? {}, body: init?.body ? (JSON.parse(init.body) as Call['body']) : null });
    const json = url.endsWith('/check') ? sampleAnswer().raw : url.endsWith('/ignore') ? { ignored: true } : {};
    const saved = url.endsWith('/report') ? '/cases/.citecheck/reports/word-report.html' : null;
    return { ok: true, status: 200, json: async () => json, text: async () => '<html>report</html>', headers: { get: (n: string) => (n.toLowerCase() === 'x-citecheck-saved' ? saved : null) } };
  };
}

function setup(opts: { fail?: boolean; debounceMs?: number } = {}) {
  const doc = new FakeDocument({ body: briefParagraphs() });
  const calls: Call[] = [];
  const renders: PaneState[] = [];
  const saved: string[] = [];
  const c = new Controller(doc.host(), ALL, new Api('tok', backend(calls, opts.fail)), { render: (s) => renders.push({ ...s }) }, 'doc1', {
    debounceMs: opts.debounceMs ?? 5,
    save: (html) => saved.push(html),
  });
  return { doc, calls, renders, saved, c };
}

function answer(c: Controller): CheckAnswer {
  assert.ok(c.state.answer);
  return c.state.answer;
}

test('check sends every paragraph with the token and shows progress, then the answer', async () => {
  const { c, calls, renders } = setup();
  await c.check();
  assert.equal(calls.length, 1);
  assert.equal(calls[0].path, '/api/v1/check');
  assert.equal(calls[0].headers[TOKEN_HEADER], 'tok');
  assert.equal(calls[0].body?.paragraphs.length, briefParagraphs().length);
  assert.deepEqual(calls[0].body?.paragraphs[0], { text: briefParagraphs()[0], part: 'body' });
  assert.ok(renders.some((r) => r.busy && r.progress.startsWith('Checking')));
  assert.equal(c.state.busy, false);
  assert.equal(c.state.error, null);
  assert.ok(answer(c).report.files[0].findings.length > 0);
});

test('click selects the finding’s text; add comment inserts the finding with its evidence', async () => {
  const { c, doc } = setup();
  await c.check();
  const withPassage = answer(c).report.files[0].findings.find((f) => f.evidence.passage) ?? answer(c).report.files[0].findings[0];
  await c.select(withPassage.word);
  assert.deepEqual(doc.journal.selections, [withPassage.word.text]);
  assert.deepEqual(doc.journal.selectedAt, [withPassage.word.start]);
  await c.comment(withPassage);
  assert.equal(doc.journal.comments.length, 1);
  assert.equal(doc.journal.comments[0].on, withPassage.word.text);
  assert.ok(doc.journal.comments[0].text.includes(withPassage.message));
  if (withPassage.evidence.passage) assert.ok(doc.journal.comments[0].text.includes('Opinion says:'));
  assert.equal(c.state.notice, 'Comment added.');
});

test('apply fix replaces the text in Word and re-checks', async () => {
  const { c, doc, calls } = setup();
  await c.check();
  const f = answer(c).report.files[0].findings.find((x) => x.fixes.length > 0);
  assert.ok(f, 'the sample has a finding with a fix');
  const edits = f.fixes[0].edits;
  await c.applyFix(f);
  assert.equal(c.state.error, null);
  // every edit of the fix, applied last first so the earlier offsets stay right
  assert.deepEqual(
    [...doc.journal.replacements].sort((a, b) => a.from.localeCompare(b.from)),
    edits.map((e) => ({ from: e.word.text, to: e.new_text })).sort((a, b) => a.from.localeCompare(b.from)),
  );
  for (const e of edits) assert.ok(doc.texts()[e.word.paragraph].includes(e.new_text));
  assert.equal(calls.filter((x) => x.path === '/api/v1/check').length, 2);
  assert.ok(c.state.notice?.startsWith('Applied:'));
});

test('ignore posts the finding’s key to the shared store and re-checks', async () => {
  const { c, calls } = setup();
  await c.check();
  const f = answer(c).report.files[0].findings[0];
  await c.ignore(f, 'citation');
  const post = calls.find((x) => x.path === '/api/v1/ignore');
  assert.deepEqual(post?.body, { key: f.ignore_key, scope: 'citation' });
  assert.equal(calls.filter((x) => x.path === '/api/v1/check').length, 2);
});

test('a change event re-checks once, after the debounce', async () => {
  const { c, doc, calls } = setup({ debounceMs: 20 });
  await c.watch();
  assert.equal(c.state.watching, true);
  await c.check();
  doc.type(3, `${doc.texts()[3]} More.`);
  doc.type(3, `${doc.texts()[3]} Even more.`);
  await new Promise((r) => setTimeout(r, 80));
  await c.check(); // waits for a running check, if any
  const checks = calls.filter((x) => x.path === '/api/v1/check');
  assert.ok(checks.length >= 2 && checks.length <= 3, `checks: ${checks.length}`);
  assert.ok(checks[1].body?.paragraphs[3].text.endsWith('Even more.'));
});

test('export saves the HTML report', async () => {
  const { c, saved } = setup();
  await c.check();
  await c.exportReport();
  assert.deepEqual(saved, ['<html>report</html>']);
  assert.equal(c.state.notice, 'Report exported (also saved as /cases/.citecheck/reports/word-report.html).');
});

test('a backend that is not running gives the clear message', async () => {
  const { c } = setup({ fail: true });
  await c.check();
  assert.equal(c.state.error, NOT_RUNNING);
  assert.ok(NOT_RUNNING.includes('citecheck serve'));
  assert.equal(c.state.busy, false);
});

test('a refused token says to reload the pane', async () => {
  const api = new Api('bad', async () => ({ ok: false, status: 401, json: async () => ({ error: 'missing or wrong citecheck token' }), text: async () => '' }));
  await assert.rejects(api.check('d', []), /Reload the pane/);
});
