import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { citationNodes, CitationStore, courtListenerReach, parseCitations, positionAt, rangeOf } from '../src/citations';
import { CitationsProvider, REVEAL_COMMAND } from '../src/citationsView';
import { fake } from './fake-vscode';

const URI = 'file:///brief.md';

function payload(version: number, citations: unknown[]): unknown {
  return { uri: URI, version, citations };
}

const ROE = {
  index: 0,
  text: '410 U.S. 113',
  form: 'full',
  range: { start: { line: 2, character: 16 }, end: { line: 2, character: 28 } },
  status: 'verified',
  caseName: 'Roe v. Wade',
  matchedCase: 'Roe v. Wade',
  findings: [],
};
const BOONE = {
  index: 1,
  text: '446 Cal. Rptr. 4th 183',
  form: 'full',
  range: { start: { line: 4, character: 21 }, end: { line: 4, character: 43 } },
  status: 'not-found',
  caseName: 'Boone v. Vinson',
  findings: [{ kind: 'impossible-citation', severity: 'error', message: 'Cal. Rptr. has no 4th series.' }],
};

function parsed(p: unknown) {
  const r = parseCitations(p);
  assert.ok('ok' in r, JSON.stringify(r));
  return r.ok;
}

test('a citations notification becomes one node per citation, in document order', () => {
  const nodes = citationNodes(parsed(payload(3, [BOONE, ROE])));
  assert.deepEqual(
    nodes.map((n) => [n.label, n.description, n.icon]),
    [
      ['Roe v. Wade, 410 U.S. 113', 'verified', 'pass'],
      ['Boone v. Vinson, 446 Cal. Rptr. 4th 183', 'not-found · impossible-citation', 'error'],
    ],
  );
  const boone = nodes[1];
  assert.deepEqual(boone.range, BOONE.range);
  assert.equal(boone.children.length, 1);
  assert.equal(boone.children[0].label, 'impossible-citation');
  assert.equal(boone.children[0].icon, 'error');
  assert.match(boone.tooltip, /Cal\. Rptr\. has no 4th series/);
});

test('the matched record (server shape) shows in the tooltip', () => {
  const c = { ...ROE, matchedCase: undefined, record: { id: 'cl-1', name: 'Roe v. Wade', court: 'scotus', date: '1973-01-22', url: 'https://www.courtlistener.com/x/', citations: ['410 U.S. 113'] } };
  const node = citationNodes(parsed(payload(1, [c])))[0];
  assert.match(node.tooltip, /Matched: Roe v\. Wade \(scotus, 1973-01-22\)\nhttps:\/\/www\.courtlistener\.com\/x\//);
});

test('a verified citation with a warning finding gets a warning icon', () => {
  const c = { ...ROE, findings: [{ kind: 'year-mismatch', severity: 'warning' }] };
  assert.equal(citationNodes(parsed(payload(1, [c])))[0].icon, 'warning');
  const plain = { ...ROE, findings: ['name-misspelled'] }; // kinds as bare strings are accepted too
  const node = citationNodes(parsed(payload(1, [plain])))[0];
  assert.equal(node.icon, 'warning');
  assert.equal(node.children[0].label, 'name-misspelled');
});

test('the server\'s statuses each get an icon; a problem takes its worst severity', () => {
  const icons = ['verified', 'problem', 'cannot-verify', 'not-checked', 'pending', 'something-new'].map(
    (status) => citationNodes(parsed(payload(1, [{ ...ROE, status }])))[0].icon,
  );
  assert.deepEqual(icons, ['pass', 'warning', 'circle-outline', 'circle-slash', 'loading~spin', 'circle-outline']);
  const problem = { ...ROE, status: 'problem', severity: 'error', findings: [{ kind: 'misquote' }] };
  assert.equal(citationNodes(parsed(payload(1, [problem])))[0].icon, 'error');
});

test('CourtListener reachability: unknown while pending or not checked, ok once looked up', () => {
  assert.equal(courtListenerReach(parsed(payload(1, [{ ...ROE, status: 'pending' }]))), 'unknown');
  assert.equal(courtListenerReach(parsed(payload(1, [{ ...ROE, status: 'not-checked' }]))), 'unknown');
  assert.equal(courtListenerReach(parsed(payload(1, [{ ...ROE, status: 'verified' }]))), 'ok');
  const down = {
    ...ROE,
    status: 'cannot-verify',
    findings: [{ kind: 'cannot-verify', severity: 'info', message: '410 U.S. 113 could not be verified: courtlistener unavailable: cannot connect' }],
  };
  assert.equal(courtListenerReach(parsed(payload(1, [down]))), 'unreachable');
  const offline = { ...down, findings: [{ kind: 'cannot-verify', severity: 'info', message: 'offline mode: CourtListener not consulted' }] };
  assert.equal(courtListenerReach(parsed(payload(1, [offline]))), 'ok');
  assert.equal(courtListenerReach(parsed({ uri: URI, citations: [], courtlistener: 'unreachable' })), 'unreachable');
});

test('cannot-verify is shown as unverified, never as an error', () => {
  const c = { ...ROE, status: 'cannot-verify', findings: [{ kind: 'cannot-verify', severity: 'info' }] };
  assert.equal(citationNodes(parsed(payload(1, [c])))[0].icon, 'circle-outline');
});

test('bad payloads are rejected with a reason, bad entries skipped', () => {
  assert.deepEqual(parseCitations(null), { error: 'payload is not an object' });
  assert.deepEqual(parseCitations({ citations: [] }), { error: 'payload has no uri' });
  assert.deepEqual(parseCitations({ uri: URI }), { error: 'payload has no citations array' });
  const doc = parsed(payload(1, [42, { text: 'x', range: { start: { line: -1 } } }]));
  assert.equal(doc.citations.length, 1);
  assert.equal(doc.citations[0].range, undefined);
  assert.equal(doc.citations[0].index, 1);
});

test('extra fields are kept for the status bar', () => {
  const doc = parsed({ uri: URI, version: 2, citations: [], courtlistener: 'unreachable' });
  assert.equal(doc.extra.courtlistener, 'unreachable');
});

test('a code-point span is converted to a UTF-16 range against the text (emoji before it)', () => {
  const text = 'Intro\nSee 😀 Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019).';
  const cite = '446 Cal. Rptr. 4th 183';
  const startCp = [...text.slice(0, text.indexOf(cite))].length; // code points before the cite
  const c = parsed(payload(1, [{ index: 0, text: cite, span: { start: startCp, end: startCp + cite.length } }])).citations[0];
  const r = rangeOf(c, text);
  // "See 😀 Boone v. Vinson, " is 23 code points but 24 UTF-16 units
  assert.deepEqual(r, { start: { line: 1, character: 24 }, end: { line: 1, character: 46 } });
  assert.equal(rangeOf(c, undefined), undefined);
});

test('positionAt splits lines only on \\n, \\r\\n and \\r', () => {
  const text = 'a\r\nb\rc\vd\u2028e\nf';
  assert.deepEqual(positionAt(text, text.indexOf('b')), { line: 1, character: 0 });
  assert.deepEqual(positionAt(text, text.indexOf('c')), { line: 2, character: 0 });
  assert.deepEqual(positionAt(text, text.indexOf('e')), { line: 2, character: 4 }); // \v and U+2028 are not line ends
  assert.deepEqual(positionAt(text, text.indexOf('f')), { line: 3, character: 0 });
});

test('an older version never replaces a newer one', () => {
  const store = new CitationStore();
  assert.equal(store.update(parsed(payload(5, [ROE]))), true);
  assert.equal(store.update(parsed(payload(4, []))), false);
  assert.equal(store.get(URI)?.citations.length, 1);
  assert.equal(store.update(parsed(payload(6, []))), true);
  assert.equal(store.get(URI)?.citations.length, 0);
});

beforeEach(() => fake.reset());

test('the tree shows the active document; clicking an item reveals its range', async () => {
  const provider = new CitationsProvider();
  let refreshes = 0;
  provider.onDidChangeTreeData(() => refreshes++);
  provider.update(parsed(payload(1, [ROE, BOONE])));
  assert.deepEqual(provider.getChildren(), []); // no active document yet
  provider.setActive(URI);
  const roots = provider.getChildren();
  assert.equal(roots.length, 2);
  const item = provider.getTreeItem(roots[1]) as unknown as {
    label: string;
    collapsibleState: number;
    iconPath: { id: string };
    command: { command: string; arguments: unknown[] };
  };
  assert.equal(item.label, 'Boone v. Vinson, 446 Cal. Rptr. 4th 183');
  assert.equal(item.collapsibleState, 2); // expanded: it has a finding
  assert.equal(item.iconPath.id, 'error');
  assert.equal(item.command.command, REVEAL_COMMAND);
  assert.deepEqual(item.command.arguments, [URI, BOONE.range]);
  assert.equal(provider.getChildren(roots[1]).length, 1);
  const before = refreshes;
  provider.update(parsed(payload(2, [ROE])));
  assert.equal(refreshes, before + 1);
  assert.equal(provider.getChildren().length, 1);
});

const SAVAGE = {
  index: 2,
  text: '100 A.2d 450',
  form: 'full',
  range: { start: { line: 6, character: 4 }, end: { line: 6, character: 16 } },
  status: 'cannot-verify',
  caseName: 'Savage v. Parks',
  findings: [{ kind: 'cannot-verify', severity: 'info', message: '100 A.2d 450 could not be verified: …' }],
};

test('the status is said once, in words: no "cannot-verify · cannot-verify"', () => {
  const [node] = citationNodes(parsed(payload(1, [SAVAGE])));
  assert.equal(node.description, 'not verified');
  assert.doesNotMatch(node.description, /cannot-verify/);
  assert.match(node.tooltip, /Status: not verified/);
  const withWarning = { ...SAVAGE, status: 'problem', findings: [...SAVAGE.findings, { kind: 'malformed-pincite', severity: 'warning' }] };
  assert.equal(citationNodes(parsed(payload(1, [withWarning])))[0].description, 'problem · cannot-verify, malformed-pincite');
});

test('the tree starts with how many citations could not be verified and how to enable verification', () => {
  const provider = new CitationsProvider();
  provider.update(parsed(payload(1, [ROE, SAVAGE, { ...SAVAGE, index: 3, text: 'Id.', form: 'id', findings: [] }])));
  provider.setActive(URI);
  const [note, ...rest] = provider.getChildren();
  assert.equal(note.type, 'note');
  assert.equal(note.label, '2 citations could not be verified');
  assert.match(note.tooltip, /To enable verification: import a corpus/);
  assert.equal(rest.length, 3);
  const item = provider.getTreeItem(note) as unknown as { command: { command: string; arguments: unknown[] } };
  assert.deepEqual([item.command.command, item.command.arguments], ['workbench.action.openSettings', ['citecheck']]);
  provider.update(parsed(payload(2, [ROE])));
  assert.notEqual(provider.getChildren()[0].type, 'note'); // nothing unverified: no note
});

test('a statute citation says what it stands for in the tooltip (issue 27)', () => {
  const short = { ...ROE, text: '§ 446.070', form: 'statute', caseName: undefined, matchedCase: undefined, status: 'not-checked',
    statute: { form: 'short', resolved: 'Ky. Rev. Stat. Ann. § 446.070', code_name: 'Ky. Rev. Stat. Ann.', jurisdiction: 'Kentucky' } };
  const unresolved = { ...short, index: 9, text: '§ 2000e', statute: { form: 'short', resolved: null, code_name: null, jurisdiction: null } };
  const [a, b] = citationNodes(parsed(payload(1, [short, unresolved])));
  assert.equal(a.label, '§ 446.070');
  assert.match(a.tooltip, /Statute: Ky\. Rev\. Stat\. Ann\. § 446\.070 \(Kentucky\)/);
  assert.match(b.tooltip, /its code is not named/);
});
