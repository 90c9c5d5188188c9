// What the panel says, computed from an answer: the summary line, citations grouped by status, each
// finding's plain-language title and evidence, and the text of a Word comment. Pure (no DOM, no
// Word), so unit tests read exactly what a lawyer reads.

import type { CheckAnswer, Citation, Finding, Fix, Status } from './findings';

export const STATUS_ORDER: Status[] = ['problem', 'cannot-verify', 'not-checked', 'verified'];

export const STATUS_LABEL: Record<Status, string> = {
  problem: 'Problems',
  'cannot-verify': 'Could not be verified — not an accusation',
  'not-checked': 'Not checked',
  verified: 'Verified',
};

export const STATUS_HELP: Record<Status, string> = {
  problem: 'citecheck found something to look at before filing.',
  'cannot-verify': 'No source available to citecheck covers these citations. They may well be right; check them by hand or add a source.',
  'not-checked': 'Nothing to look up (e.g. a short form without a full citation), or a statute or regulation citecheck has no source for (each one names its code). Not an accusation.',
  verified: 'Found in a source, and nothing looked wrong.',
};

/** How a citation is listed: "Name, cite" for a case; the statute as written, then its code, for a statute. */
export function citationLabel(c: Citation): string {
  if (c.statute) {
    const s = c.statute;
    const code = s.code_name ?? (s.form === 'full' ? null : 'code not named');
    return code && !c.text.includes(code) ? `${c.text} (${code}${s.jurisdiction && s.jurisdiction !== 'United States' ? `, ${s.jurisdiction}` : ''})` : c.text;
  }
  return c.case_name ? `${c.case_name}, ${c.cite ?? c.text}` : c.text;
}

/** The heading a lawyer reads: the server's plain-English title of the kind (one table, findings.py). */
export function findingTitle(f: Finding): string {
  return f.title || f.kind;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "2 errors · 1 warning · 3 could not be verified · 14 citations" (ignored ones noted at the end). */
export function summaryLine(answer: CheckAnswer): string {
  const s = answer.report.summary;
  const parts = [
    plural(s.findings.error, 'error', 'errors'),
    plural(s.findings.warning, 'warning', 'warnings'),
    `${s.status['cannot-verify']} could not be verified`,
    plural(s.citations, 'citation', 'citations') + (s.statutes ? ` (${plural(s.statutes, 'statute', 'statutes')})` : ''),
  ];
  if (answer.ignored) parts.push(`${answer.ignored} ignored`);
  return parts.join(' · ');
}

/** "Filed in: District of Columbia Court of Appeals (from the caption)", or '' when unknown. */
export function forumLine(answer: CheckAnswer): string {
  const forum = answer.report.files[0]?.forum;
  if (!forum) return '';
  const origin = forum.origin ? ` (from ${forum.origin === 'config' ? 'your settings' : `the ${forum.origin}`})` : '';
  return `Filed in: ${forum.court_name}${origin}. Binding and persuasive authority is judged for this court.`;
}

export interface CitationView {
  citation: Citation;
  findings: Finding[];
}

export interface Group {
  status: Status;
  label: string;
  help: string;
  items: CitationView[];
}

/** Citations grouped by status (problems first), each with its findings, most severe first. */
export function groupCitations(answer: CheckAnswer, shown: ReadonlySet<Status>): Group[] {
  const file = answer.report.files[0];
  if (!file) return [];
  const byCitation = new Map<number, Finding[]>();
  for (const f of file.findings) {
    if (f.citation_index === null) continue;
    const list = byCitation.get(f.citation_index) ?? [];
    list.push(f);
    byCitation.set(f.citation_index, list);
  }
  return STATUS_ORDER.filter((s) => shown.has(s))
    .map((status) => ({
      status,
      label: STATUS_LABEL[status],
      help: STATUS_HELP[status],
      items: file.citations.filter((c) => c.status === status).map((c) => ({ citation: c, findings: byCitation.get(c.index) ?? [] })),
    }))
    .filter((g) => g.items.length > 0);
}

/** Findings about the document as a whole (no citation), e.g. "too large to check". */
export function documentFindings(answer: CheckAnswer): Finding[] {
  return answer.report.files[0]?.findings.filter((f) => f.citation_index === null) ?? [];
}

/** The evidence a finding carries, labelled as in the HTML report (report/model.py evidence_items). */
export function evidenceItems(f: Finding): [string, string][] {
  const e = f.evidence;
  // the statute index's findings compare a section's words, and their date is a regulation's latest version
  const statute = e.source === 'statute index';
  const items: [string, string | undefined][] = [
    ['Source', e.source], ['Case', e.case_name], ['Citation', e.citation], ['Court', e.court],
    [statute ? 'Amended' : 'Decided', e.date], ['Page', e.page], ['Draft says', e.draft],
    [statute ? 'Section says' : 'Opinion says', e.passage], ['Difference', e.diff], ['Note', e.note],
    ['Record', e.record_id], ['Link', e.url],
  ];
  return items.filter((x): x is [string, string] => Boolean(x[1]));
}

/** The text of the Word comment "Add comment" inserts: the finding and its evidence, plainly. */
export function commentText(f: Finding): string {
  const lines = [`citecheck — ${findingTitle(f)} (${f.severity})`, f.message];
  for (const [label, value] of evidenceItems(f)) {
    if (label === 'Record') continue;
    lines.push(`${label}: ${value.length > 600 ? `${value.slice(0, 600)}…` : value}`);
  }
  return lines.join('\n');
}

export const STATUS_SHORT: Record<Status, string> = {
  problem: 'problem',
  'cannot-verify': 'could not verify',
  'not-checked': 'not checked',
  verified: 'verified',
};

/** The words under a fix's button: how sure and why, and a warning when it is one of several candidates. */
export function fixNote(fix: Fix): string {
  const parts: string[] = [];
  if (fix.confidence) parts.push(`${fix.confidence} confidence`);
  if (fix.why) parts.push(fix.why);
  let note = parts.join(': ');
  if (!fix.preferred) note += `${note ? ' ' : ''}(one of several candidates: check it before applying)`;
  return note;
}

/** Subsequent treatment in words: silence is never "good law", so "none found" says in what data. */
export function treatmentLine(citation: Citation): string {
  const t = citation.treatment;
  if (!t || t.status === 'not-asked') return '';
  if (t.status === 'none-found') return `Subsequent treatment: none found in the treatment data we have (${t.sources.join('; ')}) — not proof it is still good law.`;
  if (t.status === 'acknowledged') return `Subsequent treatment: the draft gives it (“${t.acknowledged ?? ''}”).`;
  const first = t.treatments[0];
  return first ? `Subsequent treatment: ${first.kind}${first.whole ? '' : ' in part'}${first.by ? ` by ${first.by}` : ''}.` : '';
}
