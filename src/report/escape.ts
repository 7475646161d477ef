/**
 * The one place that makes text safe to render (docs/security.md, "Security"). Every string that comes from
 * a run log, a config, a model, a pipeline or any other input and ends up in report.md, the pull
 * request comment, the job summary or the dashboard passes through one of these: run logs are
 * artifacts anyone who can upload one can forge, and model text is hostile by default. Nothing
 * rendered may ping people (@-mentions), inject HTML, break a table, close a code fence early,
 * flip the text's direction, or run on without a bound.
 */

/** Control characters and direction overrides, which can hide or reorder what a reader sees. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** An @ that GitHub would read as a mention (or a team mention): not right after a letter or digit, as in pass@1 or an e-mail address. */
const MENTION = /(?<![A-Za-z0-9])@(?=\w)/g;

/** Text for a table cell or a sentence: no HTML, no @-mentions, no pipes or newlines, at most `maxLength` characters. */
export function escapeInline(text: string, maxLength = 160): string {
  let t = String(text)
    .replace(INVISIBLE, '')
    .replace(/\r\n|\r|\n/g, ' ⏎ ');
  if (t.length > maxLength) t = `${t.slice(0, maxLength - 1)}…`;
  return t
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, 'ˋ')
    .replace(MENTION, '@\u200b')
    .replace(/([*_~[\]#])/g, '\\$1');
}

/** The longest run of backticks in `text` (a loop: a spread over a hostile number of runs would overflow). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/** A fenced block that the content cannot close: the fence is longer than any backtick run inside. */
export function fenced(content: string, lang = ''): string {
  const fence = '`'.repeat(Math.max(2, longestBacktickRun(content)) + 1);
  const safe = content.replace(INVISIBLE, '').replace(MENTION, '@\u200b');
  return `${fence}${lang.replace(/[^A-Za-z0-9_-]/g, '')}\n${safe}\n${fence}`;
}

/**
 * Code span for short identifiers (task ids, agent names, hashes) that an input supplied, in text,
 * in a table cell or in a <summary>: backticks, pipes and angle brackets become look-alikes (inside
 * a code span neither a backslash escape nor an entity works), newlines spaces, cut at `maxLength`.
 */
export function code(text: string, maxLength = 200): string {
  // Look-alikes for < and > too, and no mention: a code span inside an HTML block (a <summary>) is no code span.
  let clean = String(text)
    .replace(INVISIBLE, '')
    .replace(/`/g, 'ˋ')
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/\|/g, '¦')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(MENTION, '@\u200b');
  if (clean.length > maxLength) clean = `${clean.slice(0, maxLength - 1)}…`;
  // A code span that starts or ends with a space loses it; one made only of spaces is no span.
  if (clean.trim() === '') clean = clean.length ? '␠' : '∅';
  return `\`${clean}\``;
}

/** A URL for a Markdown link, or undefined when it is not a plain http(s) URL (no javascript:, no breaking parentheses). */
export function safeUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\/[^\s()<>"'`]+$/.test(url) && url.length <= 2048 ? url : undefined;
}

/** Text inside HTML (the dashboard): element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return String(text)
    .replace(INVISIBLE, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON safe inside a <script> element: no "</script>", no HTML comment openers, no line separators, no direction overrides. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(INVISIBLE, '')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A label inside a Mermaid chart's double quotes: only characters that cannot end the string or start a directive. */
export function mermaidText(text: string, maxLength = 48): string {
  return String(text)
    .replace(/ · /g, ' - ')
    .replace(/[^A-Za-z0-9 ._/#()+-]/g, '')
    .slice(0, maxLength);
}
