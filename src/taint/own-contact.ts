/**
 * A writer's own contact (docs/taint-policy.md, "A writer's own number"): "call me back on
 * 07700 900 582", "text me at 903-555-0172", "rufen Sie mich unter … an".
 * Such a sentence asks its reader to act, but what it asks is to reach the one who wrote it, and
 * the number or address in it is that writer's. A reply to a message the request points at may go
 * there (provenance.ts); money never does, and a value any other order gives stays the order's.
 */

/** "call me", "text us", "get hold of me": a verb that reaches someone, with the writer as its object. */
const REACH_WRITER = String.raw`(?:call|ring|phone|text|sms|whatsapp|reach|contact|get hold of|get back to)\s+(?:me|us)\b`;

/**
 * An order to reach the writer right before the value: "call me back on", "text us at", "rufen Sie
 * mich unter", "llámame al". Only words that say when or how may stand between "me" and the value:
 * "text me the code at …" asks for something sent, and "send it to my address …" is no way to reach
 * anyone but the address's owner.
 */
const BEFORE = new RegExp(
  `(?:${[
    String.raw`\b${REACH_WRITER}(?:\s+(?:back|directly|instead|anytime|please|later|today|tomorrow|on\s+whatsapp|on\s+my\s+[\w-]+))?\s*(?:on|at|via|using|:)?`,
    String.raw`\b(?:mich|uns)\s+(?:bitte\s+|gerne\s+|jederzeit\s+)?(?:unter|auf)`,
    String.raw`\b(?:ll[aá]m[ae]me|ll[aá]m[ae]nos|rappelez-moi|appelez-moi|appelle-moi|contactez-moi|ligue-me|liga-me|chiamami|richiamami|chiamatemi|contattami|bel\s+me(?:\s+terug)?|bel\s+ons|zadzwo[nń]\s+do\s+mnie)\b\s*(?:al|au|para|no|op|na|:)?`,
  ]
    .map((x) => `(?:${x})`)
    .join('|')})${String.raw`\s*$`}`,
  'iu',
);

/** A phone number or an e-mail address: the only values a writer's own contact can be. */
const CONTACT = /^(?:\+?\d[\d\s()./-]{5,22}\d|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$/;

/** Whether `value`, as written in `passages`, stands where its writer says it is how to reach them. */
export function writersOwnContact(passages: string, value: string): boolean {
  const v = value.trim();
  if (!CONTACT.test(v) || passages.length > 200_000) return false;
  for (let at = passages.indexOf(v); at >= 0; at = passages.indexOf(v, at + 1)) {
    const before = passages.slice(Math.max(0, at - 60), at);
    // Within its own sentence: "… payment. Call me back on …" counts, "call me. Then send it to …" does not.
    const sentence = before.split(/[.!?\n](?=\s)/).pop() ?? '';
    if (BEFORE.test(sentence)) return true;
  }
  return false;
}

/** "call me", "text us", "ring me back", "ask the courier to call me": the orders whose one deed is reaching the writer. */
const REACH_ME = new RegExp(
  String.raw`\b(?:(?:ask|tell|have|get)\s+(?:the\s+|a\s+|an\s+|your\s+|our\s+)?[\w-]+\s+to\s+)?${REACH_WRITER}(?:\s+back\b)?`,
  'gi',
);

/** The text less its orders to reach the writer, to read what else it asks. */
export function withoutReachMe(text: string): string {
  return text.replace(REACH_ME, ' ');
}
