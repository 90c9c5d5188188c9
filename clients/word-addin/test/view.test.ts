import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCheckAnswer } from '../src/findings';
import { citationLabel, commentText, evidenceItems, findingTitle, fixNote, groupCitations, STATUS_LABEL, summaryLine, treatmentLine } from '../src/view';
import { sampleAnswer, type Mangle } from './sample';

const answer = parseCheckAnswer(sampleAnswer().raw);

test('the summary line counts errors, warnings and could-not-verify', () => {
  const s = answer.report.summary;
  const line = summaryLine(answer);
  assert.ok(line.includes(`${s.findings.error} error`));
  assert.ok(line.includes(`${s.findings.warning} warning`));
  assert.ok(line.includes(`${s.status['cannot-verify']} could not be verified`));
  assert.ok(summaryLine({ ...answer, ignored: 2 }).endsWith('2 ignored'));
});

test('citations are grouped problems first and filters hide groups', () => {
  const all = groupCitations(answer, new Set(['problem', 'cannot-verify', 'not-checked', 'verified']));
  assert.equal(all[0].status, 'problem');
  const total = all.reduce((n, g) => n + g.items.length, 0);
  assert.equal(total, answer.report.files[0].citations.length);
  const onlyVerified = groupCitations(answer, new Set(['verified']));
  assert.deepEqual(onlyVerified.map((g) => g.status), ['verified']);
  assert.ok(all.flatMap((g) => g.items).some((i) => i.findings.length > 0));
});

test('uncovered citations are called unverified, never wrong', () => {
  assert.match(STATUS_LABEL['cannot-verify'], /not an accusation/);
  const cv = answer.report.files[0].findings.find((f) => f.kind === 'cannot-verify');
  assert.ok(cv, 'the sample has a citation no source covers');
  assert.match(findingTitle(cv), /Could not be verified — not an accusation/);
});

test('every finding kind the engine has gets a plain title', () => {
  for (const f of answer.report.files[0].findings) assert.notEqual(findingTitle(f), f.kind, f.kind);
});

test('a comment carries the message and the evidence', () => {
  const f = answer.report.files[0].findings.find((x) => x.evidence.passage);
  assert.ok(f);
  const text = commentText(f);
  assert.ok(text.startsWith('citecheck — '));
  assert.ok(text.includes(f.message));
  for (const [label] of evidenceItems(f).filter(([l]) => l !== 'Record')) assert.ok(text.includes(`${label}: `), label);
});

test('a statute finding labels its evidence as the HTML report does: the section says, when amended', () => {
  const f = answer.report.files[0].findings.find((x) => x.evidence.passage);
  assert.ok(f);
  const statute = { ...f, evidence: { ...f.evidence, source: 'statute index', date: '2020-06-01' } };
  const labels = evidenceItems(statute).map(([l]) => l);
  assert.ok(labels.includes('Section says') && labels.includes('Amended'), labels.join(', '));
  assert.ok(!labels.includes('Opinion says') && !labels.includes('Decided'), labels.join(', '));
  const opinion = evidenceItems({ ...f, evidence: { ...f.evidence, date: '1953-11-20' } }).map(([l]) => l);
  assert.ok(opinion.includes('Opinion says') && opinion.includes('Decided'), opinion.join(', '));
});

test('a proposed authority says how sure and why, and a candidate among several says so', () => {
  const fixes = answer.report.files[0].findings.flatMap((f) => f.fixes);
  const candidate = fixes.find((x) => !x.preferred && x.why);
  assert.ok(candidate, 'the example brief has a name mismatch with two candidates (issue 24)');
  assert.match(fixNote(candidate), /confidence: .*(name|case at)/);
  assert.match(fixNote(candidate), /one of several candidates/);
  const plain = fixes.find((x) => x.preferred && !x.why);
  assert.ok(plain);
  assert.equal(fixNote(plain), '');
  assert.throws(
    () => parseCheckAnswer(JSON.parse(JSON.stringify(sampleAnswer().raw).replace('"confidence":"medium"', '"confidence":"sure"'))),
    /confidence: unknown confidence sure/,
  );
});

test('statutes are counted, titled and labelled with their code (issue 27)', () => {
  const raw = JSON.parse(JSON.stringify(sampleAnswer().raw)) as { report: { summary: { statutes?: number }; files: { citations: Record<string, unknown>[]; findings: Record<string, unknown>[] }[] } };
  const file = raw.report.files[0];
  const first = file.citations[0];
  const full = { ...first, index: file.citations.length, text: 'KRS 446.070', form: 'statute', case_name: null, cite: null, status: 'not-checked',
    statute: { form: 'full', code: 'Ky. Rev. Stat. Ann.', code_name: 'Ky. Rev. Stat. Ann.', jurisdiction: 'Kentucky', regulation: false, title: null, section: '446.070', subsections: [], resolved: 'Ky. Rev. Stat. Ann. § 446.070' } };
  const short = { ...full, index: full.index + 1, text: '§ 446.070', antecedent: full.index,
    statute: { ...full.statute, form: 'short' } };
  file.citations.push(full, short);
  raw.report.summary.statutes = 2;
  const parsed = parseCheckAnswer(raw);
  assert.match(summaryLine(parsed), /citations \(2 statutes\)/);
  const [f, s] = parsed.report.files[0].citations.slice(-2);
  assert.equal(citationLabel(f), 'KRS 446.070 (Ky. Rev. Stat. Ann., Kentucky)');
  assert.equal(citationLabel(s), '§ 446.070 (Ky. Rev. Stat. Ann., Kentucky)');
  const notChecked = groupCitations(parsed, new Set(['not-checked']));
  assert.ok(notChecked[0].items.some((i) => i.citation.text === 'KRS 446.070'));
  const bad = JSON.parse(JSON.stringify(raw)) as Mangle;
  bad.report.files[0].citations[bad.report.files[0].citations.length - 1].statute = { form: 'short' };
  assert.throws(() => parseCheckAnswer(bad), /statute/);
});

test('a case citation says what later courts did to it, and where nothing was found says in what', () => {
  const c = answer.report.files[0].citations[0];
  const none = { ...c, treatment: { status: 'none-found' as const, acknowledged: null, sources: ['the table'], treatments: [] } };
  assert.match(treatmentLine(none), /none found in the treatment data we have \(the table\) — not proof it is still good law/);
  const overruled = { ...c, treatment: { status: 'overruled' as const, acknowledged: null, sources: ['the table'],
    treatments: [{ kind: 'overruled', whole: true, by: 'Lawrence v. Texas, 539 U.S. 558 (2003)', basis: 'congress-table', quote: null, url: null }] } };
  assert.equal(treatmentLine(overruled), 'Subsequent treatment: overruled by Lawrence v. Texas, 539 U.S. 558 (2003).');
  assert.equal(treatmentLine({ ...c, treatment: undefined }), '');
});
