/**
 * Code-point ↔ UTF-16 offset conversion, the one place the client does offset arithmetic.
 *
 * The Python core counts code points; JavaScript strings (and VS Code positions) count UTF-16
 * units. They differ only for characters outside the Basic Multilingual Plane (emoji,
 * mathematical letters), which take two UTF-16 units but one code point. The server sends
 * LSP ranges already in UTF-16, so this is only needed for payloads that carry raw spans.
 */

/** UTF-16 offset of the code point at `codePointOffset` in `text` (clamped to the text's end). */
export function codePointToUtf16(text: string, codePointOffset: number): number {
  if (!Number.isInteger(codePointOffset) || codePointOffset < 0) {
    throw new RangeError(`bad code-point offset ${codePointOffset}`);
  }
  let units = 0;
  let points = 0;
  while (points < codePointOffset && units < text.length) {
    units += isHighSurrogateAt(text, units) ? 2 : 1;
    points += 1;
  }
  return units;
}

/**
 * Code-point offset of the UTF-16 offset `utf16Offset` in `text` (clamped to the text's end).
 * An offset that points between the two halves of a surrogate pair counts the whole pair.
 */
export function utf16ToCodePoint(text: string, utf16Offset: number): number {
  if (!Number.isInteger(utf16Offset) || utf16Offset < 0) {
    throw new RangeError(`bad UTF-16 offset ${utf16Offset}`);
  }
  const end = Math.min(utf16Offset, text.length);
  let units = 0;
  let points = 0;
  while (units < end) {
    units += isHighSurrogateAt(text, units) ? 2 : 1;
    points += 1;
  }
  return points;
}

function isHighSurrogateAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) {
    return false;
  }
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}
