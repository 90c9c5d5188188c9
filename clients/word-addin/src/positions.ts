// The ONE place of UTF-16 arithmetic in the pane. The backend sends, for every citation and finding,
// `word: {paragraph, start, end}` in UTF-16 code units (what a JavaScript string and Word's API count);
// the core's own spans are code points. Word has no "range at offset" API: a range is found by
// searching the paragraph for the text and taking the nth match, and a search string may be at most
// 255 characters, so longer targets are found as a head and a tail match joined with expandTo.

/** Word's limit on `Range.search` text. */
export const SEARCH_LIMIT = 255;

/** Code-point offset → UTF-16 offset into `text` (an astral character such as 😀 is 2 units). */
export function codePointToUtf16(text: string, codePoint: number): number {
  let units = 0;
  let seen = 0;
  for (const ch of text) {
    if (seen >= codePoint) break;
    units += ch.length;
    seen += 1;
  }
  return units;
}

/** UTF-16 offset → code-point offset; an offset inside a surrogate pair rounds down. */
export function utf16ToCodePoint(text: string, units: number): number {
  let u = 0;
  let cp = 0;
  for (const ch of text) {
    if (u + ch.length > units) break;
    u += ch.length;
    cp += 1;
  }
  return cp;
}

/** True when `offset` falls between the two halves of a surrogate pair. */
export function splitsPair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Word's search treats `^` as the start of a special code (^p, ^t…); a literal one is `^^`. */
export function escapeSearch(text: string): string {
  return text.replace(/\^/g, '^^');
}

/**
 * How many matches of `needle` Word's search reports before the one starting at `start`: matches
 * are found left to right and do not overlap, so this counts the same way.
 */
export function occurrenceIndex(haystack: string, needle: string, start: number): number {
  if (!needle) return 0;
  let n = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1 && at < start) {
    n += 1;
    at = haystack.indexOf(needle, at + needle.length);
  }
  return n;
}

/** One search in a paragraph: the (escaped) text to search for and which match to take. */
export interface SearchStep {
  search: string;
  nth: number;
}

/** A single search, or a head and a tail search whose ranges are joined (`head.expandTo(tail)`). */
export type SearchPlan = { kind: 'single'; step: SearchStep } | { kind: 'span'; head: SearchStep; tail: SearchStep };

/** The longest prefix of `text` whose escaped form fits `limit`, never cutting a surrogate pair. */
function fittingLength(text: string, limit: number, fromEnd: boolean): number {
  let len = 0;
  let escaped = 0;
  const chars = Array.from(text);
  const seq = fromEnd ? chars.reverse() : chars;
  for (const ch of seq) {
    const cost = ch === '^' ? 2 : ch.length;
    if (escaped + cost > limit) break;
    escaped += cost;
    len += ch.length;
  }
  return len;
}

/**
 * How to find UTF-16 range [start, end) of `paragraph` with Word's search. Returns null for an empty
 * or out-of-range target (the paragraph changed since the check).
 */
export function searchPlan(paragraph: string, start: number, end: number, limit = SEARCH_LIMIT): SearchPlan | null {
  if (start < 0 || end > paragraph.length || end <= start) return null;
  const target = paragraph.slice(start, end);
  if (escapeSearch(target).length <= limit) {
    return { kind: 'single', step: { search: escapeSearch(target), nth: occurrenceIndex(paragraph, target, start) } };
  }
  const headLen = fittingLength(target, limit, false);
  const tailLen = fittingLength(target, limit, true);
  const head = target.slice(0, headLen);
  const tailStart = end - tailLen;
  const tail = paragraph.slice(tailStart, end);
  return {
    kind: 'span',
    head: { search: escapeSearch(head), nth: occurrenceIndex(paragraph, head, start) },
    tail: { search: escapeSearch(tail), nth: occurrenceIndex(paragraph, tail, tailStart) },
  };
}
