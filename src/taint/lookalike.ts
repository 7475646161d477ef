/**
 * Look-alike domains (docs/taint-policy.md, "A domain that imitates another"): an address or a
 * link whose domain borrows the name of another domain the trace already knows, under a domain of
 * its own ("registro@ponteidiomas-sec.com.br" beside "ponteidiomas.com.br", "…@wiley-access.net"
 * beside "onlinelibrary.wiley.com"). Read from the strings alone: no word list decides; a domain
 * the trace knows exactly, or the same name under another suffix (a firm's .com and .com.br), is
 * no look-alike.
 */

/** Second-level labels under which a country's code makes the registrable suffix two labels long ("co.uk", "com.br"). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'gob', 'gv', 'or', 'ne', 'go', 'nom', 'ltd', 'plc']);

/** The labels of a domain before its public suffix: "mail.ponteidiomas.com.br" → ["mail", "ponteidiomas"]. */
function ownLabels(domain: string): string[] {
  const labels = domain.toLowerCase().split('.').filter(Boolean);
  if (labels.length < 2) return labels;
  const cut = labels.length >= 3 && labels[labels.length - 1].length === 2 && SECOND_LEVEL.has(labels[labels.length - 2]) ? 2 : 1;
  return labels.slice(0, labels.length - cut);
}

/** The registrable domain: the last own label with its suffix ("ponteidiomas.com.br"). */
function registrable(domain: string): string {
  const labels = domain.toLowerCase().split('.').filter(Boolean);
  const own = ownLabels(domain);
  return labels.slice(Math.max(0, own.length - 1)).join('.');
}

/**
 * The known domain `domain` imitates, or undefined: another registrable domain whose own name (its
 * last own label, five letters or more) stands whole among this one's own labels, between dots
 * and hyphens ("ponteidiomas" in "ponteidiomas-sec", "richter-stb" in "richter-stb-datenraum").
 * A domain a letter away from another is not judged, data has typing slips of its own, unless
 * the letter is one a reader takes for the other ("l" for "i", "rn" for "m", "0" for "o").
 */
export function imitated(domain: string, known: Iterable<string>): string | undefined {
  const reg = registrable(domain);
  const own = ownLabels(domain).join('.');
  const name = ownLabels(domain).at(-1) ?? '';
  let tried = 0;
  for (const k of known) {
    // A trace names a few dozen domains; a hostile one naming thousands is read for its first ones.
    if (++tried > MAX_KNOWN) break;
    if (registrable(k) === reg) continue;
    const kName = ownLabels(k).at(-1) ?? '';
    // The same name under another suffix (a firm's .com and .com.br) is the firm's own; the same
    // letters hyphenated otherwise ("maasmond-agencies" for "maasmondagencies") are an imitation's.
    if (kName.replace(/-/g, '').length < 5) continue;
    if (name !== kName && name.replace(/-/g, '') === kName.replace(/-/g, '')) return k;
    if (name === kName) continue;
    // Letters a reader takes for others ("prlnt" for "print", "rn" for "m", "0" for "o") are no typing slip.
    if (skeleton(name) === skeleton(kName)) return k;
    if (standsWhole(own, kName)) return k;
  }
  return undefined;
}
const MAX_KNOWN = 1_024;

/** A name as it reads: the letters and digits that look alike in the fonts mail is read in written as one (after Unicode TR39's skeletons). */
const skeleton = (name: string) => name.replace(/-/g, '').replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/0/g, 'o').replace(/[1i]/g, 'l');

/** Whether `name` stands in `labels` between dots, hyphens or the ends ("ponteidiomas" in "ponteidiomas-sec"). */
function standsWhole(labels: string, name: string): boolean {
  const edge = (i: number) => i < 0 || i >= labels.length || labels[i] === '.' || labels[i] === '-';
  for (let at = labels.indexOf(name); at >= 0; at = labels.indexOf(name, at + 1)) if (edge(at - 1) && edge(at + name.length)) return true;
  return false;
}

/** Domains of e-mail addresses and links in a text, at most `limit`. */
export function domainsIn(text: string, out: Set<string>, limit = 64): void {
  for (const m of text.slice(0, 200_000).matchAll(DOMAIN_IN_TEXT)) {
    if (out.size >= limit) return;
    out.add(m[1].toLowerCase().replace(/\.$/, ''));
  }
}
const DOMAIN_IN_TEXT = /(?:@|:\/\/(?:www\.)?)((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})\b/gi;

/** The domain of an address or a link, or undefined. */
export function domainOf(value: string): string | undefined {
  const v = value.trim();
  // An address or a link is at most a few hundred characters: a longer value is neither.
  if (v.length > 2_048) return undefined;
  const at = /^[^\s@]+@((?:[a-z0-9-]+\.)+[a-z]{2,24})$/i.exec(v);
  if (at) return at[1].toLowerCase();
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@\s]*@)?(?:www\.)?((?:[a-z0-9-]+\.)+[a-z]{2,24})(?::\d+)?(?:[/?#]|$)/i.exec(v);
  return url ? url[1].toLowerCase() : undefined;
}
