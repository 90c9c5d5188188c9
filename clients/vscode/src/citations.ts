/**
 * The "Citations" tree's model, built from the server's `citecheck/citations` notification.
 *
 * Pure: it validates the notification (a bad payload is dropped, never thrown into VS Code) and
 * turns each document's citations into display nodes. It holds no citation logic: labels, status
 * and findings come from the server as they are; this module only chooses icons and wording.
 * Ranges arrive as LSP ranges in UTF-16 (what the client negotiated); a payload that carries
 * code-point spans instead is converted with `positions.ts` against the document text.
 */
import { codePointToUtf16 } from './positions';

export const CITATIONS_NOTIFICATION = 'citecheck/citations';

export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface CitationFinding {
  kind: string;
  severity?: string;
  message?: string;
}

export interface CitationInfo {
  index: number;
  text: string;
  form?: string;
  range?: LspRange;
  /** Code-point offsets, used when no range is given. */
  span?: { start: number; end: number };
  status?: string;
  /** Worst severity among the findings, as the server computed it. */
  severity?: string;
  caseName?: string;
  matchedCase?: string;
  /** The matched record's court, decision date and link, when the server found one. */
  matchedCourt?: string;
  matchedDate?: string;
  matchedUrl?: string;
  /** A statute or regulation citation: what it stands for ("42 U.S.C. § 1983"), its code's name and jurisdiction. */
  statute?: { resolved?: string; codeName?: string; jurisdiction?: string };
  findings: CitationFinding[];
}

export interface DocumentCitations {
  uri: string;
  version?: number;
  citations: CitationInfo[];
  /** Anything else the server reports about the check (stage, source reachability). */
  extra: Record<string, unknown>;
}

export interface CitationNode {
  type: 'citation';
  uri: string;
  index: number;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  range: LspRange | undefined;
  children: FindingNode[];
}

export interface FindingNode {
  type: 'finding';
  uri: string;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  range: LspRange | undefined;
}

/** A line above the citations: how many could not be verified and how to enable verification. */
export interface NoteNode {
  type: 'note';
  uri: string;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  range: undefined;
  children: [];
}

export type TreeNode = CitationNode | FindingNode | NoteNode;

/** Status words a person reads (the server's status ids are for programs). */
export const STATUS_WORDS: Record<string, string> = {
  verified: 'verified',
  problem: 'problem',
  'cannot-verify': 'not verified',
  'not-checked': 'not checked',
  pending: 'checking…',
};

/** How many citations of the document could not be verified (status `cannot-verify`). */
export function unverifiedCount(doc: DocumentCitations): number {
  return doc.citations.filter((c) => c.status === 'cannot-verify' || c.status === 'cannot_verify').length;
}

/** Parse one notification; returns undefined (and the reason) for a payload we cannot use. */
export function parseCitations(payload: unknown): { ok: DocumentCitations } | { error: string } {
  if (!isObject(payload)) return { error: 'payload is not an object' };
  const { uri, version, citations, ...extra } = payload;
  if (typeof uri !== 'string' || uri === '') return { error: 'payload has no uri' };
  if (!Array.isArray(citations)) return { error: 'payload has no citations array' };
  const parsed: CitationInfo[] = [];
  citations.forEach((raw, i) => {
    const c = parseCitation(raw, i);
    if (c) parsed.push(c);
  });
  return {
    ok: { uri, version: typeof version === 'number' ? version : undefined, citations: parsed, extra },
  };
}

function parseCitation(raw: unknown, position: number): CitationInfo | undefined {
  if (!isObject(raw)) return undefined;
  const text = str(raw.text) ?? '';
  const findingsRaw = Array.isArray(raw.findings) ? raw.findings : [];
  const findings: CitationFinding[] = [];
  for (const f of findingsRaw) {
    if (typeof f === 'string') findings.push({ kind: f });
    else if (isObject(f) && typeof (f.kind ?? f.code) === 'string') {
      findings.push({ kind: String(f.kind ?? f.code), severity: str(f.severity), message: str(f.message) });
    }
  }
  const span = isObject(raw.span) && isInt(raw.span.start) && isInt(raw.span.end)
    ? { start: raw.span.start as number, end: raw.span.end as number }
    : undefined;
  return {
    index: isInt(raw.index) ? (raw.index as number) : position,
    text,
    form: str(raw.form),
    range: parseRange(raw.range),
    span,
    status: str(raw.status),
    severity: str(raw.severity),
    caseName: str(raw.caseName ?? raw.case_name),
    matchedCase: str(raw.matchedCase ?? raw.matched_case ?? (isObject(raw.record) ? raw.record.name : undefined)),
    matchedCourt: isObject(raw.record) ? str(raw.record.court) : undefined,
    matchedDate: isObject(raw.record) ? str(raw.record.date) : undefined,
    matchedUrl: isObject(raw.record) ? str(raw.record.url) : undefined,
    statute: isObject(raw.statute)
      ? { resolved: str(raw.statute.resolved), codeName: str(raw.statute.code_name), jurisdiction: str(raw.statute.jurisdiction) }
      : undefined,
    findings,
  };
}

function parseRange(raw: unknown): LspRange | undefined {
  if (!isObject(raw) || !isObject(raw.start) || !isObject(raw.end)) return undefined;
  const { start, end } = raw;
  if (![start.line, start.character, end.line, end.character].every(isInt)) return undefined;
  return {
    start: { line: start.line as number, character: start.character as number },
    end: { line: end.line as number, character: end.character as number },
  };
}

/** The range to reveal: the server's range, else the code-point span converted against `text`. */
export function rangeOf(c: CitationInfo, text: string | undefined): LspRange | undefined {
  if (c.range) return c.range;
  if (!c.span || text === undefined) return undefined;
  return { start: positionAt(text, codePointToUtf16(text, c.span.start)), end: positionAt(text, codePointToUtf16(text, c.span.end)) };
}

/** LSP position of a UTF-16 offset; only \n, \r\n and \r end a line (not \v, \f or U+2028). */
export function positionAt(text: string, utf16Offset: number): LspPosition {
  const end = Math.min(utf16Offset, text.length);
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}

/** Status → icon. The server's statuses (docs/editors.md): verified | problem | cannot-verify | not-checked | pending. */
const STATUS_ICON: Record<string, string> = {
  verified: 'pass',
  problem: 'warning',
  'not-checked': 'circle-slash',
  found: 'pass',
  ok: 'pass',
  'not-found': 'error',
  not_found: 'error',
  fabricated: 'error',
  impossible: 'error',
  ambiguous: 'question',
  'cannot-verify': 'circle-outline',
  cannot_verify: 'circle-outline',
  unverified: 'circle-outline',
  pending: 'loading~spin',
  checking: 'loading~spin',
};

const SEVERITY_ICON: Record<string, string> = { error: 'error', warning: 'warning', info: 'info', information: 'info' };

/** Display nodes for one document's citations, in document order. */
export function citationNodes(doc: DocumentCitations, text?: string): CitationNode[] {
  return [...doc.citations]
    .sort((a, b) => a.index - b.index)
    .map((c) => {
      const range = rangeOf(c, text);
      const status = c.status ?? 'unknown';
      const worst = worstSeverity(c.findings) ?? c.severity;
      let icon = STATUS_ICON[status] ?? 'circle-outline';
      if (icon === 'pass' && c.findings.length > 0) icon = worst === 'error' ? 'error' : worst === 'info' ? 'info' : 'warning';
      if (worst === 'error') icon = 'error';
      const name = c.caseName ?? c.matchedCase;
      const label = name ? `${name}, ${c.text}` : c.text || `citation ${c.index + 1}`;
      // the status once: a cannot-verify finding on a cannot-verify citation adds nothing
      const kinds = c.findings.map((f) => f.kind).filter((k) => k !== 'cannot-verify' || status !== 'cannot-verify');
      const word = STATUS_WORDS[status] ?? status;
      const description = kinds.length > 0 ? `${word} · ${kinds.join(', ')}` : word;
      const tooltipLines = [c.text, `Status: ${word}`];
      if (c.form) tooltipLines.push(`Form: ${c.form}`);
      if (c.statute) {
        const where = c.statute.jurisdiction && c.statute.jurisdiction !== 'United States' ? ` (${c.statute.jurisdiction})` : '';
        tooltipLines.push(c.statute.resolved ? `Statute: ${c.statute.resolved}${where}` : 'Statute section: its code is not named here or in an earlier citation');
      }
      if (c.matchedCase) {
        const when = [c.matchedCourt, c.matchedDate].filter(Boolean).join(', ');
        tooltipLines.push(`Matched: ${c.matchedCase}${when ? ` (${when})` : ''}`);
      }
      if (c.matchedUrl) tooltipLines.push(c.matchedUrl);
      for (const f of c.findings) tooltipLines.push(`• ${f.kind}${f.message ? `: ${f.message}` : ''}`);
      const children: FindingNode[] = c.findings.map((f) => ({
        type: 'finding',
        uri: doc.uri,
        label: f.kind,
        description: f.message ?? '',
        tooltip: f.message ?? f.kind,
        icon: SEVERITY_ICON[f.severity ?? ''] ?? 'warning',
        range,
      }));
      return { type: 'citation', uri: doc.uri, index: c.index, label, description, tooltip: tooltipLines.join('\n'), icon, range, children };
    });
}

function worstSeverity(findings: CitationFinding[]): string | undefined {
  for (const s of ['error', 'warning', 'info']) {
    if (findings.some((f) => (f.severity ?? '').toLowerCase() === s)) return s;
  }
  return undefined;
}

/** Statuses that mean the source-backed stage ran for the citation. */
const LOOKED_UP = new Set(['verified', 'problem', 'cannot-verify', 'found', 'not-found', 'ambiguous']);

const UNREACHABLE = /courtlistener[^.;\n]*?(unavailable|unreachable|cannot reach|could not reach|timed out|connection)/i;

/**
 * Whether the last check of this document could reach CourtListener: the server's own field when it
 * sends one (`courtlistener: "ok" | "unreachable"`), else read from the cannot-verify findings it
 * produced when the lookup failed. "unknown" while the check is pending or when nothing says.
 */
export function courtListenerReach(doc: DocumentCitations): 'ok' | 'unreachable' | 'unknown' {
  const field = doc.extra.courtlistener;
  if (field === 'ok' || field === 'unreachable') return field;
  let checked = false;
  for (const c of doc.citations) {
    if (c.status && LOOKED_UP.has(c.status)) checked = true;
    if (c.findings.some((f) => f.kind === 'cannot-verify' && UNREACHABLE.test(f.message ?? ''))) return 'unreachable';
  }
  return checked ? 'ok' : 'unknown';
}

/** Latest citations per document; an older version never replaces a newer one. */
export class CitationStore {
  private readonly docs = new Map<string, DocumentCitations>();

  update(doc: DocumentCitations): boolean {
    const old = this.docs.get(doc.uri);
    if (old?.version !== undefined && doc.version !== undefined && doc.version < old.version) return false;
    this.docs.set(doc.uri, doc);
    return true;
  }

  get(uri: string): DocumentCitations | undefined {
    return this.docs.get(uri);
  }

  forget(uri: string): void {
    this.docs.delete(uri);
  }

  clear(): void {
    this.docs.clear();
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
