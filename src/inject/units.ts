/**
 * Splits a model response into the units AutoInject corrupts, as the paper does for any message of
 * the target: the code lines of its fenced blocks and the sentences of the prose around them, all
 * its lines when it looks like code, its sentences otherwise. A unit is a span of the original
 * text, so rewriting units leaves everything around them (indentation, fences, list markers, blank
 * lines) byte for byte as it was.
 */
import { bracketDelta } from './fallback-edit.js';
import { maskCode } from './logic-edit.js';

export type UnitKind = 'line' | 'sentence';

export interface Unit {
  index: number;
  /** Offsets into the content: the unit without its indentation and trailing whitespace. */
  start: number;
  end: number;
  text: string;
  /** Leading whitespace of the line (lines only; kept whatever a rewrite says). */
  indent: string;
  /** A line of code or a sentence of prose: which rules fit it. */
  kind: UnitKind;
  /** Lines only: a statement of its own, not part of one spread over several lines. */
  whole?: boolean;
}

export interface Segmentation {
  /** `mixed`: code lines in fences and sentences of prose around them. */
  kind: UnitKind | 'mixed';
  units: Unit[];
}

interface Line {
  start: number;
  text: string;
}

function linesOf(content: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of content.split('\n')) {
    out.push({ start, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw });
    start += raw.length + 1;
  }
  return out;
}

const FENCE = /^\s*(```|~~~)/;
const COMMENT = /^(#(?!include|define|!)|\/\/|\/\*|\*|<!--|--\s)/;
const TRIPLE = /"""|'''/g;

/** A code line worth corrupting: not blank, not a comment, not docstring text. */
function codeUnits(lines: Line[], units: Unit[]): void {
  let inDocstring = false;
  // Open brackets and a trailing backslash carry a statement onto the next line.
  let depth = 0;
  let continued = false;
  for (const line of lines) {
    const trimmed = line.text.trim();
    const triples = (trimmed.match(TRIPLE) ?? []).length;
    if (inDocstring) {
      if (triples % 2 === 1) inDocstring = false;
      continue;
    }
    if (triples > 0 && /^[rRuUbBfF]?("""|''')/.test(trimmed)) {
      // A docstring line; it opens a block when its quotes do not close on the same line.
      if (triples % 2 === 1) inDocstring = true;
      continue;
    }
    if (trimmed === '' || COMMENT.test(trimmed)) continue;
    const indent = /^\s*/.exec(line.text)![0];
    const body = line.text.slice(indent.length).replace(/\s+$/, '');
    const masked = maskCode(body).replace(/[\s\u0000]+$/, '');
    const startsInside = depth > 0 || continued;
    depth = Math.max(0, depth + bracketDelta(masked));
    continued = masked.endsWith('\\');
    // A line that opens a string running onto the next lines is no statement of its own either.
    const whole = !startsInside && depth === 0 && !continued && triples % 2 === 0;
    units.push({
      index: units.length,
      start: line.start + indent.length,
      end: line.start + indent.length + body.length,
      text: body,
      indent,
      kind: 'line',
      whole,
    });
    if (triples % 2 === 1) inDocstring = true;
  }
}

const CODE_KEYWORD =
  /^\s*(def|class|import|from|return|if|elif|else|for|while|try|except|finally|with|raise|yield|const|let|var|function|async|await|public|private|static|fn|func|package|#include|switch|case)\b/;
const CODE_SHAPE = /[{};:)\]]\s*$|^\s*[\w.[\]]+\s*[-+*/%]?=\s*\S|[=!<>]=|\w\([^)]*\)\s*$/;

/** Most non-blank lines look like statements: a raw completion, a diff-less code answer. */
export function looksLikeCode(content: string): boolean {
  const lines = content.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return false;
  const codeLike = lines.filter((l) => CODE_KEYWORD.test(l) || CODE_SHAPE.test(l)).length;
  // Prose sentences end in a period; code lines rarely do.
  const prose = lines.filter((l) => /[A-Za-z][.!?]["')]?\s*$/.test(l) && /\s\w+\s\w+\s/.test(l)).length;
  return codeLike / lines.length >= 0.6 && prose / lines.length < 0.3;
}

const LIST_MARKER = /^\s*(?:[-*+]\s+|\d+[.)]\s+|#{1,6}\s+|>\s*)*/;
const SENTENCE_END = /[.!?]+["')\]]*(?=\s|$)/g;

function sentenceUnits(lines: Line[], units: Unit[]): void {
  for (const line of lines) {
    if (line.text.trim() === '') continue;
    const prefix = LIST_MARKER.exec(line.text)![0];
    const body = line.text.slice(prefix.length);
    const base = line.start + prefix.length;
    let from = 0;
    const push = (s: number, e: number) => {
      const seg = body.slice(s, e);
      const lead = seg.length - seg.trimStart().length;
      const text = seg.trim();
      if (!/[A-Za-z0-9]/.test(text)) return;
      units.push({ index: units.length, start: base + s + lead, end: base + s + lead + text.length, text, indent: '', kind: 'sentence' });
    };
    for (const m of body.matchAll(SENTENCE_END)) {
      const end = m.index! + m[0].length;
      // "e.g. this" or "3.5 m": a lowercase word next is not a new sentence.
      const next = body.slice(end).trimStart()[0];
      if (next !== undefined && /[a-z]/.test(next)) continue;
      push(from, end);
      from = end;
    }
    if (from < body.length) push(from, body.length);
  }
}

export function segment(content: string): Segmentation {
  const lines = linesOf(content);
  const units: Unit[] = [];
  if (lines.some((l) => FENCE.test(l.text))) {
    // Code lines inside fences, sentences outside them; an unclosed fence runs to the end.
    const inside: Line[] = [];
    const outside: Line[] = [];
    let open = false;
    for (const l of lines) {
      if (FENCE.test(l.text)) open = !open;
      else (open ? inside : outside).push(l);
    }
    codeUnits(inside, units);
    sentenceUnits(outside, units);
    units.sort((a, b) => a.start - b.start);
    units.forEach((u, i) => (u.index = i));
    const kinds = new Set(units.map((u) => u.kind));
    return { kind: kinds.size === 2 ? 'mixed' : kinds.has('sentence') ? 'sentence' : 'line', units };
  }
  if (looksLikeCode(content)) {
    codeUnits(lines, units);
    return { kind: 'line', units };
  }
  sentenceUnits(lines, units);
  return { kind: 'sentence', units };
}

/** Replaces the given units' spans; everything else stays as it was. */
export function applyRewrites(content: string, units: readonly Unit[], rewrites: ReadonlyMap<number, string>): string {
  let out = '';
  let at = 0;
  for (const u of units) {
    const r = rewrites.get(u.index);
    if (r === undefined) continue;
    out += content.slice(at, u.start) + r;
    at = u.end;
  }
  return out + content.slice(at);
}
