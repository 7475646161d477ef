/**
 * Model text is hostile by default: it must not ping people, inject HTML, break a table or
 * close a code fence early. Every piece of model or pipeline text in a report passes here.
 */

/** Text for a table cell or a sentence: no HTML, no @-mentions, no pipes or newlines. */
export function escapeInline(text: string, maxLength = 160): string {
  let t = text.replace(/\r?\n/g, ' ⏎ ');
  if (t.length > maxLength) t = `${t.slice(0, maxLength - 1)}…`;
  return t
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, 'ˋ')
    .replace(/@(?=\w)/g, '@\u200b')
    .replace(/([*_~[\]#])/g, '\\$1');
}

/** A fenced block that the content cannot close: the fence is longer than any backtick run inside. */
export function fenced(content: string, lang = ''): string {
  const longest = Math.max(2, ...Array.from(content.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const safe = content.replace(/@(?=\w)/g, '@\u200b');
  return `${fence}${lang}\n${safe}\n${fence}`;
}

/** Code span for short identifiers (task ids, agent names) that the user supplied. */
export function code(text: string): string {
  const clean = text.replace(/`/g, 'ˋ').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  return `\`${clean}\``;
}
