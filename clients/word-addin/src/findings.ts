// The API's answer, typed: the JSON report of server/citecheck/report/json.py (schema "citecheck-report"
// version 1, documented in docs/report-json.md) plus the `word` positions server/citecheck/serve/wire.py
// adds. test/findings.test.ts checks `parseCheckAnswer` against a sample the Python tests produce
// (test/fixtures/check-answer.json), so a field renamed on one side fails a test on the other.

export type Severity = 'error' | 'warning' | 'info';
export type Status = 'problem' | 'verified' | 'cannot-verify' | 'not-checked';
export type Part = 'body' | 'table' | 'footnote' | 'endnote' | 'header' | 'footer';

/** Where something is in Word: paragraph index (as sent) and UTF-16 offsets inside it. */
export interface WordPlace {
  paragraph: number;
  start: number;
  end: number;
  part: Part;
  text: string;
}

/** Code-point span into the joined text (report/json.py `span_json`). */
export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

export interface Evidence {
  source?: string;
  record_id?: string;
  case_name?: string;
  citation?: string;
  court?: string;
  date?: string;
  url?: string;
  page?: string;
  passage?: string;
  draft?: string;
  diff?: string;
  note?: string;
  model?: string; // holding findings: who judged, with which prompt, and what it said
  prompt_version?: string;
  verdict?: string;
  misuse?: string;
}

export interface FixEdit {
  span: { start: number; end: number };
  new_text: string;
  word: WordPlace;
}

export interface Fix {
  title: string;
  edits: FixEdit[];
  /** false for one of several close candidates: shown, never applied without the user choosing it */
  preferred: boolean;
  /** on a fix that proposes an authority: every reason to think the draft meant it, how sure, and the case */
  why?: string;
  confidence?: 'high' | 'medium' | 'low';
  case?: Evidence;
}

export interface IgnoreKey {
  kind: string;
  citation: string;
  quoteHash: string;
}

export interface Finding {
  kind: string;
  /** The kind in plain English (server/citecheck/findings.py KIND_TITLE), the heading a lawyer reads. */
  title: string;
  severity: Severity;
  span: Span;
  page: string | null;
  message: string;
  citation_index: number | null;
  evidence: Evidence;
  fixes: Fix[];
  word: WordPlace;
  ignore_key: IgnoreKey;
}

export interface CaseRecord {
  id: string;
  source: string;
  name: string;
  court: string | null;
  court_name: string | null;
  decision_date: string | null;
  citations: string[];
  url: string | null;
}

const TREATMENTS = new Set(['overruled', 'negatively-treated', 'acknowledged', 'none-found', 'not-asked']);

/** How much a cited decision counts in the forum (server/citecheck/jurisdiction/weight.py). */
export interface Weight {
  weight: 'binding' | 'persuasive' | 'unknown';
  reason: string;
  court: string | null;
  court_name: string | null;
}

/** What later courts did to a cited case, and the data asked (docs/report-json.md, "Treatment"). */
export interface TreatmentInfo {
  status: 'overruled' | 'negatively-treated' | 'acknowledged' | 'none-found' | 'not-asked';
  acknowledged: string | null;
  sources: string[];
  treatments: { kind: string; whole: boolean; by: string | null; basis: string; quote: string | null; url: string | null }[];
}

/** The holding judge's result for a citation's proposition (docs/report-json.md, "Holding"). */
export interface Holding {
  outcome: 'judged' | 'unverified' | 'failed' | 'no-passages' | 'undecided';
  verdict: 'supported' | 'partly' | 'not-supported' | 'contradicted' | null;
  misuse: string | null;
  rationale: string | null;
  quote: string | null;
  quote_page: string | null;
  passages: { page: string | null; start: number; end: number; text: string }[];
  model: string;
  prompt_version: string;
  reason: string | null;
  cached: boolean;
}

/** The court the brief is filed in, and where citecheck learned it. */
export interface Forum {
  court: string;
  court_name: string;
  question: string;
  origin: string;
  law_state: string | null;
}

export interface Citation {
  index: number;
  text: string;
  form: string;
  span: Span;
  full_span: { start: number; end: number };
  page: string | null;
  case_name: string | null;
  cite: string | null;
  database: string | null;
  /** Who decided it, for an agency's decision series (docs/report-json.md, "Citation"); absent from older servers. */
  agency?: string | null;
  pincite: string | null;
  court: string | null;
  year: number | null;
  antecedent: number | null;
  group: number | null;
  status: Status;
  reason: string | null;
  resolved_case: CaseRecord | null;
  page_used: string | null;
  passage: string | null;
  holding: Holding | null;
  weight: Weight | null;
  /** A statute or regulation citation's code, title and sections (docs/report-json.md, "Statute"); absent from older servers. */
  statute?: StatuteInfo | null;
  /** The section a U.S.C./C.F.R. citation matched in the statute index (docs/report-json.md, "Section"); absent from older servers. */
  section?: SectionInfo | null;
  /** Subsequent treatment (overruled, …) and the data asked; absent from older servers. */
  treatment?: TreatmentInfo | null;
  word: WordPlace;
}

/** A section of the U.S. Code or the C.F.R. as the statute index holds it: heading, status, edition. */
export interface SectionInfo {
  citation: string;
  heading: string;
  status: string;
  moved_to: string | null;
  edition: string;
  amended: string | null;
  url: string | null;
}

/** What a statute citation cites: code and title (a short form's are its full citation's), sections as written. */
export interface StatuteInfo {
  form: 'full' | 'short' | 'id';
  code: string | null;
  code_name: string | null;
  jurisdiction: string | null;
  regulation: boolean;
  title: string | null;
  section: string;
  subsections: string[];
  resolved: string | null;
  /** constitution, session law, act, chapter, title: what is cited when it is no code's section (absent from older servers). */
  kind?: string | null;
  chapter?: string | null;
  act_name?: string | null;
  act_section?: string | null;
}

export interface FileReport {
  path: string;
  kind: string;
  characters: number;
  forum: Forum | null;
  citations: Citation[];
  findings: Finding[];
  authorities: unknown[];
}

export interface Report {
  schema: 'citecheck-report';
  version: 1;
  offset_unit: 'codepoint';
  tool: { name: string; version: string };
  offline: boolean;
  sources: string;
  summary: {
    files: number;
    citations: number;
    /** How many of the citations are statutes or regulations (absent from older servers). */
    statutes?: number;
    findings: Record<Severity, number>;
    status: Record<Status, number>;
    input_errors: number;
  };
  files: FileReport[];
  errors: { path: string; message: string }[];
  notes: string[];
}

export interface CheckAnswer {
  api: 1;
  document: string;
  elapsed_ms: number;
  changed_chars: number;
  ignored: number;
  report: Report;
}

export class WireError extends Error {}

type Shape = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string?' | 'number?' | 'object?';

function expect(obj: unknown, where: string, fields: Record<string, Shape>): Record<string, unknown> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new WireError(`${where}: not an object`);
  const o = obj as Record<string, unknown>;
  for (const [name, shape] of Object.entries(fields)) {
    const v = o[name];
    const optional = shape.endsWith('?');
    const base = optional ? shape.slice(0, -1) : shape;
    if (v === null && optional) continue;
    const ok = base === 'array' ? Array.isArray(v) : base === 'object' ? typeof v === 'object' && v !== null : typeof v === base;
    if (!ok) throw new WireError(`${where}.${name}: expected ${shape}, got ${v === null ? 'null' : typeof v}`);
  }
  return o;
}

const SEVERITIES = new Set(['error', 'warning', 'info']);
const CONFIDENCES = new Set(['high', 'medium', 'low']);
const WEIGHTS = new Set(['binding', 'persuasive', 'unknown']);
const STATUSES = new Set(['problem', 'verified', 'cannot-verify', 'not-checked']);
const PLACE: Record<string, Shape> = { paragraph: 'number', start: 'number', end: 'number', part: 'string', text: 'string' };

/** Validate an answer of POST /api/v1/check; throws WireError naming the first field that is off. */
export function parseCheckAnswer(raw: unknown): CheckAnswer {
  const a = expect(raw, 'answer', { api: 'number', document: 'string', elapsed_ms: 'number', changed_chars: 'number', ignored: 'number', report: 'object' });
  if (a.api !== 1) throw new WireError(`answer.api: this pane speaks version 1, the server ${String(a.api)}`);
  const r = expect(a.report, 'report', { schema: 'string', version: 'number', offset_unit: 'string', tool: 'object', offline: 'boolean', sources: 'string', summary: 'object', files: 'array', errors: 'array', notes: 'array' });
  if (r.schema !== 'citecheck-report' || r.version !== 1) throw new WireError(`report: unknown schema ${String(r.schema)} v${String(r.version)}`);
  const s = expect(r.summary, 'report.summary', { files: 'number', citations: 'number', findings: 'object', status: 'object', input_errors: 'number' });
  expect(s.findings, 'report.summary.findings', { error: 'number', warning: 'number', info: 'number' });
  expect(s.status, 'report.summary.status', { problem: 'number', verified: 'number', 'cannot-verify': 'number', 'not-checked': 'number' });
  (r.files as unknown[]).forEach((f, fi) => {
    const file = expect(f, `files[${fi}]`, { path: 'string', kind: 'string', characters: 'number', forum: 'object?', citations: 'array', findings: 'array', authorities: 'array' });
    if (file.forum !== null) expect(file.forum, `files[${fi}].forum`, { court: 'string', court_name: 'string', origin: 'string' });
    (file.citations as unknown[]).forEach((c, ci) => {
      const w = `files[${fi}].citations[${ci}]`;
      const cit = expect(c, w, {
        index: 'number', text: 'string', form: 'string', span: 'object', full_span: 'object', page: 'string?', case_name: 'string?',
        cite: 'string?', database: 'string?', pincite: 'string?', court: 'string?', year: 'number?', antecedent: 'number?',
        group: 'number?', status: 'string', reason: 'string?', resolved_case: 'object?', page_used: 'string?', passage: 'string?',
        holding: 'object?', weight: 'object?', word: 'object',
      });
      if (cit.statute !== undefined && cit.statute !== null) {
        expect(cit.statute, `${w}.statute`, { form: 'string', code: 'string?', section: 'string', regulation: 'boolean', resolved: 'string?' });
      }
      if (cit.treatment !== undefined && cit.treatment !== null) {
        const tr = expect(cit.treatment, `${w}.treatment`, { status: 'string', sources: 'array', treatments: 'array' });
        if (!TREATMENTS.has(tr.status as string)) throw new WireError(`${w}.treatment.status: unknown status ${String(tr.status)}`);
      }
      if (cit.weight !== null) {
        const wt = expect(cit.weight, `${w}.weight`, { weight: 'string', reason: 'string' });
        if (!WEIGHTS.has(wt.weight as string)) throw new WireError(`${w}.weight.weight: unknown weight ${String(wt.weight)}`);
      }
      if (!STATUSES.has(cit.status as string)) throw new WireError(`${w}.status: unknown status ${String(cit.status)}`);
      expect(cit.word, `${w}.word`, PLACE);
    });
    (file.findings as unknown[]).forEach((x, xi) => {
      const w = `files[${fi}].findings[${xi}]`;
      const f = expect(x, w, { kind: 'string', title: 'string', severity: 'string', span: 'object', page: 'string?', message: 'string', citation_index: 'number?', evidence: 'object', fixes: 'array', word: 'object', ignore_key: 'object' });
      if (!SEVERITIES.has(f.severity as string)) throw new WireError(`${w}.severity: unknown severity ${String(f.severity)}`);
      expect(f.span, `${w}.span`, { start: 'number', end: 'number', line: 'number', column: 'number', end_line: 'number', end_column: 'number' });
      expect(f.word, `${w}.word`, PLACE);
      expect(f.ignore_key, `${w}.ignore_key`, { kind: 'string', citation: 'string', quoteHash: 'string' });
      for (const [k, v] of Object.entries(f.evidence as Record<string, unknown>)) {
        if (typeof v !== 'string') throw new WireError(`${w}.evidence.${k}: expected string`);
      }
      (f.fixes as unknown[]).forEach((fx, i) => {
        const fix = expect(fx, `${w}.fixes[${i}]`, { title: 'string', edits: 'array', preferred: 'boolean' });
        if (fix.why !== undefined && typeof fix.why !== 'string') throw new WireError(`${w}.fixes[${i}].why: expected string`);
        if (fix.confidence !== undefined && !CONFIDENCES.has(fix.confidence as string)) {
          throw new WireError(`${w}.fixes[${i}].confidence: unknown confidence ${typeof fix.confidence === 'string' ? fix.confidence : JSON.stringify(fix.confidence)}`);
        }
        (fix.edits as unknown[]).forEach((e, j) => {
          const edit = expect(e, `${w}.fixes[${i}].edits[${j}]`, { span: 'object', new_text: 'string', word: 'object' });
          expect(edit.word, `${w}.fixes[${i}].edits[${j}].word`, PLACE);
        });
      });
    });
  });
  return raw as CheckAnswer;
}
