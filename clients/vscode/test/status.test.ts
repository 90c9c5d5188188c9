import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { RESTART_COMMAND, SHOW_PROBLEMS, STALE_CHECK_MS, StatusModel } from '../src/status';
import { countDiagnostics, StatusBar } from '../src/statusBar';
import { fake, Uri } from './fake-vscode';

const A = 'file:///brief.md';
const B = 'file:///memo.txt';

function running(): StatusModel {
  const m = new StatusModel();
  m.setServer('running');
  m.setActive(A);
  return m;
}

test('starting, then no findings', () => {
  const m = new StatusModel();
  assert.match(m.view().text, /starting/);
  m.setServer('running');
  assert.equal(m.view().text, '$(check) citecheck: no findings');
  assert.equal(m.view().command, SHOW_PROBLEMS);
});

test('checking… while the active document has a check in flight', () => {
  const m = running();
  m.checking(A, 3);
  assert.match(m.view().text, /checking…/);
  m.checked(A, 2); // an older version's result does not end the newer check
  assert.match(m.view().text, /checking…/);
  m.checked(A, 3);
  assert.doesNotMatch(m.view().text, /checking/);
});

test('a check that never reports back stops showing as checking… after a while', () => {
  let now = 1000;
  const m = new StatusModel(() => now);
  m.setServer('running');
  m.setActive(A);
  m.checking(A, 1);
  now += STALE_CHECK_MS - 1;
  assert.match(m.view().text, /checking…/);
  now += 2;
  assert.equal(m.view().text, '$(check) citecheck: no findings');
  m.checking(A, 2); // a new edit starts a new wait
  assert.match(m.view().text, /checking…/);
});

test('a check of another document does not show as checking this one', () => {
  const m = running();
  m.checking(B, 1);
  assert.doesNotMatch(m.view().text, /checking/);
  assert.equal(m.isChecking(B), true);
});

test('N findings for the active document, with the worst level', () => {
  const m = running();
  m.setFindings(A, { error: 1, warning: 2, info: 1 });
  m.setFindings(B, { error: 0, warning: 7, info: 0 });
  const v = m.view();
  assert.equal(v.text, '$(error) citecheck: 4 findings');
  assert.equal(v.level, 'error');
  assert.match(v.tooltip, /1 error\(s\), 2 warning\(s\), 1 info/);
  assert.match(v.tooltip, /in this document/);
  m.setActive(undefined); // no editor: the total over open documents
  assert.equal(m.view().text, '$(error) citecheck: 11 findings');
  m.setFindings(A, { error: 0, warning: 0, info: 1 });
  m.setActive(A);
  assert.equal(m.view().text, '$(info) citecheck: 1 finding');
  assert.equal(m.view().level, undefined); // information only: no warning colour
});

test('cannot reach CourtListener is shown with the count, and says nothing is called fabricated', () => {
  const m = running();
  m.setFindings(A, { error: 0, warning: 0, info: 2 });
  m.setCourtListener('unreachable');
  const v = m.view();
  assert.equal(v.text, '$(cloud-offline) citecheck: cannot reach CourtListener · 2 findings');
  assert.match(v.tooltip, /never as fabricated/);
  assert.equal(v.level, 'warning');
  m.setCourtListener('ok');
  assert.doesNotMatch(m.view().text, /CourtListener/);
});

test('a stopped server offers a restart on click and drops pending checks', () => {
  const m = running();
  m.checking(A, 1);
  m.setServer('failed', 'exited while starting');
  const v = m.view();
  assert.equal(v.command, RESTART_COMMAND);
  assert.match(v.tooltip, /exited while starting/);
  m.setServer('running');
  assert.doesNotMatch(m.view().text, /checking/);
});

test('forget drops a closed document', () => {
  const m = running();
  m.setFindings(A, { error: 3, warning: 0, info: 0 });
  m.forget(A);
  assert.equal(m.view().text, '$(check) citecheck: no findings');
});

test('only citecheck diagnostics are counted, and hints (could not be verified) are not findings', () => {
  assert.deepEqual(
    countDiagnostics([
      { source: 'citecheck', severity: 0 },
      { source: 'citecheck', severity: 1 },
      { source: 'citecheck', severity: 2 },
      { source: 'citecheck', severity: 3 },
      { source: 'cSpell', severity: 0 },
      { severity: 0 },
    ]),
    { error: 1, warning: 1, info: 1 },
  );
});

test('citations that could not be verified are counted once, with how to enable verification', () => {
  const m = running();
  m.setActive(A);
  m.setFindings(A, { error: 1, warning: 1, info: 0 });
  m.setUnverified(A, 11);
  const v = m.view();
  assert.equal(v.text, '$(error) citecheck: 2 findings · 11 not verified');
  assert.match(v.tooltip, /11 citations could not be verified/);
  assert.match(v.tooltip, /To enable verification: import a corpus/);
  assert.match(v.tooltip, /Set CourtListener token/);
  m.setUnverified(A, 0);
  assert.doesNotMatch(m.view().text, /not verified/);
  m.setFindings(A, { error: 0, warning: 0, info: 0 });
  m.setUnverified(A, 1);
  assert.equal(m.view().text, '$(check) citecheck: no findings · 1 not verified');
  assert.match(m.view().tooltip, /1 citation could not be verified: no source available to citecheck covers it/);
});

beforeEach(() => fake.reset());

test('StatusBar renders the model into a status bar item and recounts from diagnostics', () => {
  const bar = new StatusBar();
  const item = fake.statusItems[0];
  assert.equal(item.visible, true);
  assert.match(item.text, /starting/);
  bar.model.setServer('running');
  bar.model.setActive(A);
  fake.diagnostics.set(A, [
    { source: 'citecheck', severity: 0 },
    { source: 'citecheck', severity: 2 },
  ]);
  bar.refreshCounts([Uri.parse(A) as unknown as import("vscode").Uri]);
  assert.equal(item.text, '$(error) citecheck: 2 findings');
  assert.equal(item.command, SHOW_PROBLEMS);
  assert.equal((item.backgroundColor as { id: string }).id, 'statusBarItem.errorBackground');
  fake.diagnostics.set(A, []);
  bar.refreshCounts([Uri.parse(A) as unknown as import("vscode").Uri]);
  assert.equal(item.backgroundColor, undefined);
  bar.dispose();
  assert.equal(item.disposed, true);
});
