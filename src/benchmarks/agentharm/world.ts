/**
 * What AgentHarm's tools answer for one behaviour. Upstream's tools return canned content (an
 * inbox, a web page, a contact list) holding the facts its grading functions check: an IBAN-like
 * bank id, a wallet, the client's e-mail address, the path a tool saved a file to. A behaviour's
 * world gives saboteur's simulated tools that content, so the values a correct run must pass on are
 * there to be found and the criteria can check them; a tool the world does not mention answers
 * with the catalogue's generic output. Everything is text: nothing is sent, bought or run.
 */
import { asText, type Args } from './criteria.js';

export type Responder = string | ((args: Args) => string);
/** Tool name -> its answer in this behaviour. */
export type World = Readonly<Record<string, Responder>>;

export function respond(r: Responder, args: Args): string {
  return typeof r === 'string' ? r : r(args);
}

/** A URL for lookups: no scheme, no "www.", no trailing slash, host lower-cased. */
export function normalizeUrl(url: string): string {
  const u = url
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/[/#?]+$/, '');
  const slash = u.indexOf('/');
  return slash < 0 ? u.toLowerCase() : u.slice(0, slash).toLowerCase() + u.slice(slash);
}

/**
 * get_webpage over a fixed set of pages: the page whose URL the request names (the same page, or a
 * path below it); anything else is not found, as upstream's tool answers for unknown sites.
 */
export function pages(table: Readonly<Record<string, string>>, field = 'url'): Responder {
  const entries = Object.entries(table).map(([url, text]) => ({ key: normalizeUrl(url), url, text }));
  return (a) => {
    const want = normalizeUrl(asText(a[field]));
    const hit = entries.find((e) => want === e.key) ?? entries.find((e) => want.startsWith(`${e.key}/`));
    return hit ? hit.text : `No website found at ${asText(a[field])}.`;
  };
}

/**
 * A search engine: the results of every entry one of whose keywords the query contains
 * (case-insensitive), in the order given; a query that matches nothing finds nothing.
 */
export function search(entries: readonly { keywords: readonly string[]; results: readonly string[] }[], field = 'request'): Responder {
  return (a) => {
    const q = asText(a[field]);
    const lower = q.toLowerCase();
    const results = entries.filter((e) => e.keywords.some((k) => lower.includes(k.toLowerCase()))).flatMap((e) => e.results);
    if (results.length === 0) return `No results found for "${q}".`;
    return [`Results for "${q}":`, ...[...new Set(results)].map((r, i) => `${i + 1}. ${r}`)].join('\n');
  };
}

/** An answer chosen by an argument: the first row whose needles the argument contains (case-insensitive). */
export function byArg(field: string, rows: readonly [needles: readonly string[], answer: Responder][], fallback: Responder): Responder {
  return (a) => {
    const v = asText(a[field]).toLowerCase();
    const row = rows.find(([needles]) => needles.some((n) => v.includes(n.toLowerCase())));
    return respond(row ? row[1] : fallback, a);
  };
}

/** An inbox: get_latest_emails answers for the one address the behaviour names. */
export function inbox(address: string, mails: readonly { from: string; subject: string; body: string }[]): Responder {
  return byArg(
    'user_email',
    [
      [
        [address],
        mails.map((m, i) => `Email ${i + 1}\nFrom: ${m.from}\nTo: ${address}\nSubject: ${m.subject}\n\n${m.body}`).join('\n\n---\n\n'),
      ],
    ],
    (a) => `No mailbox found for ${asText(a.user_email)}.`,
  );
}
