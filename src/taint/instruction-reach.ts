/**
 * How far an instruction found in data reaches (docs/taint-policy.md, "Principles", 2 and 3). The
 * detector's passage runs from the first ordering sentence to the end of its line, but the values
 * an instruction asks to act on often stand beside it, in the same block of text: on the next line
 * ("… to the account below:" then "IBAN: LT12 …"), or in a sentence before the order ("My new
 * address is eve@x.example. Send the files there."). The reach of a passage is its block:
 *
 *   - backwards to the start of its paragraph, or to the field that holds it when the passage's
 *     line opens one: a blank line, a list item or a `Label: value` line above ends the block (a
 *     record above is a neighbour, not part of the order);
 *   - forwards to the end of its paragraph or field: a blank line, a list item, a field or a
 *     table row (cells aligned with spaces) at the passage's own indentation or less ends it, except a field line right after a line that ends
 *     with ":" ("to the account below:" followed by "IBAN: …"), which the block introduces;
 *   - at most REACH_LINES lines and REACH_CHARS characters either side.
 *
 * A JSON field is its own block: its passage is the whole string value already. A value found in
 * the reach but not in the passage counts only for a call whose action the instruction asks for
 * (provenance.ts), so a record that merely lies beside an injection is not the injection's.
 */

const REACH_LINES = 6;
const REACH_CHARS = 1_500;
/** A line that opens a list item or a `Label: value` field, with its indentation. */
const OPENS_FIELD = /^([ \t]*)(?:[-*•][ \t]+|\d{1,3}[.)][ \t]+|[\p{L}_][\p{L}\p{N} _.'-]{0,39}:(?:[ \t]|$))/u;

/** A row of a table aligned with spaces (three cells or more), with its indentation: a record of its own, as a field is. */
const TABLE_ROW = /^([ \t]*)\S+(?: \S+)*(?: {2,}\S+(?: \S+)*){2,}\s*$/;

/** A table row (TABLE_ROW), not text spaced out letter by letter ("V i s i t   w w w . …"). */
const tableRow = (line: string) => (/(?:^| {2})(?:\S ){2,}\S(?: {2}|$)/.test(line) ? null : TABLE_ROW.exec(line));

/** The number of cells of a comma- or tab-separated line, quoted cells read whole ("a, b" is one). */
function cellCount(line: string): number {
  const sep = line.includes('\t') ? '\t' : ',';
  let n = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === sep && !quoted) n++;
  }
  return n;
}

/** A line of a delimited table: four cells or more, as many as the line above or below it has. */
function delimitedRow(lines: readonly Line[], i: number): boolean {
  const n = cellCount(lines[i].text);
  if (n < 4) return false;
  return [lines[i - 1], lines[i + 1]].some((l) => l !== undefined && cellCount(l.text) === n);
}

interface Line {
  start: number;
  end: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    out.push({ start, end, text: text.slice(start, end) });
    if (nl < 0) return out;
    start = nl + 1;
  }
}

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0].length;
const blank = (l: string) => l.trim() === '';

/** The index of the line holding character `at` (binary search). */
function lineAt(lines: readonly Line[], at: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid].start <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The block around one passage of a plain text, by the rules above. */
function blockOf(text: string, lines: readonly Line[], [a, b]: [number, number]): [number, number] {
  const first = lineAt(lines, a);
  const last = lineAt(lines, Math.max(a, b - 1));
  // A row of comma- or tab-separated values is a record of its own: an order in its notes column speaks of its row.
  if (first === last && delimitedRow(lines, first)) return [lines[first].start, lines[first].end];
  const own = indentOf(lines[first].text);
  let top = first;
  // The passage's own line opens a field or an item: the block starts with it.
  if (!OPENS_FIELD.test(lines[first].text)) {
    while (top > 0 && first - top < REACH_LINES) {
      const up = lines[top - 1].text;
      // A field above is a record the block lies beside, not part of it.
      if (blank(up) || OPENS_FIELD.test(up)) break;
      top--;
    }
  }
  let bottom = last;
  while (bottom < lines.length - 1 && bottom - last < REACH_LINES) {
    let down = lines[bottom + 1].text;
    const introduced = lines[bottom].text.trimEnd().endsWith(':');
    // An order that ends with a colon introduces what follows it, after one blank line too ("… to:", then the account).
    if (blank(down) && introduced && bottom + 2 < lines.length && !blank(lines[bottom + 2].text)) down = lines[++bottom + 1].text;
    if (blank(down)) break;
    const field = OPENS_FIELD.exec(down) ?? tableRow(down);
    if (field && field[1].length <= own && !introduced) break;
    bottom++;
  }
  return [Math.max(lines[top].start, a - REACH_CHARS), Math.min(lines[bottom].end, b + REACH_CHARS)];
}

/** The reach of each passage of `text` (ranges in `text`), in the passages' order. */
export function instructionReaches(text: string, passages: readonly [number, number][]): [number, number][] {
  const t = text.trimStart();
  const json = t.startsWith('{') || t.startsWith('[');
  let lines: Line[] | undefined;
  return passages.map((p) => (json && text[p[0]] === '"' ? [p[0], p[1]] : blockOf(text, (lines ??= linesOf(text)), p)));
}

/**
 * For a record laid out one field per line (reading.ts): the record around each passage that a
 * field holds (recordAround), undefined for a passage in no field. Its values are the order's for a
 * call's recipients, payees and links (provenance.ts), not for the record it acts on.
 */
export function recordReaches(text: string, passages: readonly [number, number][]): ([number, number] | undefined)[] {
  let lines: Line[] | undefined;
  return passages.map(([a, b]) => {
    lines ??= linesOf(text);
    const field = holdingField(lines, lineAt(lines, a));
    if (field === undefined) return undefined;
    const [top, bottom] = recordAround(lines, field, lineAt(lines, Math.max(a, b - 1)));
    return [Math.max(lines[top].start, a - REACH_CHARS), Math.min(lines[bottom].end, b + REACH_CHARS)];
  });
}

/** A record's `key: value` line, a list item's first field included (`- from: …`): a key is one token, as a record's keys are. */
const FIELD_LINE = /^([ \t]*)(?:[-*•][ \t]+)?[\p{L}_][\p{L}\p{N}_.-]{0,39}:(?:[ \t]|$)/u;
/** A FIELD_LINE with nothing after its key: the lines below it are its value. */
const KEY_ALONE = /^[ \t]*(?:[-*•][ \t]+)?[\p{L}_][\p{L}\p{N}_.-]{0,39}:[ \t]*$/u;

/**
 * The line of the record field that holds a passage starting on line `first`: that line itself
 * when it opens a field (`note: Please send …`), or the `key: |` line a text block hangs under.
 */
function holdingField(lines: readonly Line[], first: number): number | undefined {
  if (FIELD_LINE.test(lines[first].text)) return first;
  const own = indentOf(lines[first].text);
  for (let i = first - 1; i >= 0 && first - i <= REACH_LINES * 4; i--) {
    const l = lines[i].text;
    if (blank(l)) continue;
    if (indentOf(l) >= own) continue;
    return /:[ \t]*[|>][-+]?[ \t]*$/.test(l) && FIELD_LINE.test(l) ? i : undefined;
  }
  return undefined;
}

/**
 * The record a field belongs to: the fields beside it at its indentation (their nested lines too),
 * up to the first line of its list item and down to the next item or a shallower line. An order
 * written in a record's field speaks of that record ("send my P45 to this address" in a message
 * whose `from` is the address; "send the refund to the refund_to account"), so the values of its
 * other fields are in its reach.
 */
function recordAround(lines: readonly Line[], field: number, last: number): [number, number] {
  const m = FIELD_LINE.exec(lines[field].text)!;
  // A list item's first field starts after its dash: that is the record's column.
  const own = /^[ \t]*[-*•][ \t]+/.exec(lines[field].text)?.[0].length ?? m[1].length;
  const item = (l: string) => /^[ \t]*[-*•][ \t]+/.exec(l)?.[0].length;
  // REACH_LINES fields of its own column either way; a field's nested lines come with it (up to four times as many lines).
  let top = field;
  let fields = 0;
  while (top > 0 && fields < REACH_LINES && field - top < REACH_LINES * 4 && item(lines[top].text) === undefined) {
    const up = lines[top - 1].text;
    if (blank(up)) break;
    if (indentOf(up) >= own) top--;
    else if (item(up) === own) top--;
    else break;
    if (indentOf(up) === own || item(up) === own) fields++;
  }
  // The key the record hangs under ("refund_instructions:" above its method, account and note): an order may name it.
  if (top > 0 && fields < REACH_LINES && KEY_ALONE.test(lines[top - 1].text)) top--;
  let bottom = last;
  while (bottom < lines.length - 1 && bottom - last < REACH_LINES) {
    const down = lines[bottom + 1].text;
    if (indentOf(down) < own && !blank(down)) break;
    if (blank(down) && (bottom + 2 >= lines.length || indentOf(lines[bottom + 2].text) < own)) break;
    bottom++;
  }
  return [top, bottom];
}

/** A record's `key: value` line, a list item's first included; the key an identifier (`refund_to`, `lateArrivalContact`); the value may be the lines below it. */
const KEYED_FIELD = /^([ \t]*)(?:[-*•][ \t]+)?([\p{L}][\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+|[\p{Ll}]+(?:[\p{Lu}][\p{Ll}\p{N}]+)+):[ \t]*(.*)$/u;
/** A nested field's line: its value after the key, or the line itself. */
const NESTED_VALUE = /^[ \t]*(?:[-*•][ \t]+)?[^:\s][^:]{0,40}:[ \t]+(\S.*)$/;

/**
 * The values of the fields of its record an order names by key ("send the refund to the refund_to
 * account", "copied to the receipt_cc address", "use the refund_preference account above" over a
 * nested record of sort code and account number): the order chose them, for any call.
 */
export function fieldsNamed(passage: string, record: string): string[] {
  const out: string[] = [];
  const lines = record.split('\n');
  for (const [i, line] of lines.entries()) {
    const m = KEYED_FIELD.exec(line);
    if (!m || !new RegExp(`(?<![\\p{L}\\p{N}_])${m[2]}(?![\\p{L}\\p{N}_])`, 'u').test(passage)) continue;
    const inline = m[3].trim();
    if (inline !== '' && !/^[|>][-+]?$/.test(inline)) {
      out.push(inline);
      continue;
    }
    // A key whose value is the block below it: every line indented deeper, up to REACH_LINES * 2 of them.
    for (const below of lines.slice(i + 1, i + 1 + REACH_LINES * 2)) {
      if (below.trim() === '' || indentOf(below) <= m[1].length) break;
      out.push((NESTED_VALUE.exec(below)?.[1] ?? below).trim());
    }
  }
  return out;
}
