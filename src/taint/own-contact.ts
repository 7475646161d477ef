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
 * "Call me", "rispondetemi", "sms me", "rappelez-moi", "llámame", "rufen Sie mich": a verb that
 * reaches someone with the writer as its object, in the languages read.
 */
const REACH_TO_WRITER = [
  String.raw`(?<!\p{L})(?:call|ring|phone|text|sms|whatsapp|message|email|e-mail|reach|contact|get hold of|get back to|reply to|respond to|answer)\s+(?:me|us)\b`,
  String.raw`(?<!\p{L})(?:bel|sms|app|mail|whatsapp|contacteer|bereik|antwoord)\s+(?:me|mij|ons)\b`,
  String.raw`(?<!\p{L})(?:(?:ri)?chiam|contatt|rispond|scriv|mand|invi|messaggi)(?:a|i|ate|ete|ite)(?:mi|ci)\b`,
  String.raw`(?<!\p{L})(?:ll[aá]m|escr[ií]b|resp[oó]nd|cont[aá]ct|m[aá]nd|env[ií])[aei](?:me|nos)\b`,
  String.raw`(?<!\p{L})(?:rappel|appel|contact|[ée]cri|r[ée]pond|envoy)(?:vez|ez|e|le|ie|s)?-(?:moi|nous)\b`,
  String.raw`(?<!\p{L})(?:ligu|lig|contact|escrev|respond|mand|envi)[ae]-(?:me|nos)\b`,
  String.raw`(?<!\p{L})(?:mich|uns)\b`,
  String.raw`(?<!\p{L})(?:schreiben|simsen|antworten|mailen)\s+sie\s+(?:mir|uns)\b`,
  // "send me a text on …", "schicken Sie mir eine SMS an …", "send mig en sms på …": what is sent is a message to the writer.
  String.raw`(?<!\p{L})(?:send|drop|schick|schicken\s+sie|senden\s+sie)\s+(?:me|us|mir|uns|mig|meg|os|oss)(?=(?:\s+\S+){0,3}?\s+(?:a\s+)?(?:text|sms|message|whatsapp|line|nachricht|besked|melding)\b)`,
  String.raw`(?<!\p{L})(?:ring|skriv|svar|sms)\s+(?:til\s+)?(?:mig|meg|os|oss)\b`,
  String.raw`(?<!\p{L})(?:laittakaa|laita|lähettäkää|lähetä|lahettakaa|laheta)\s+(?:vastaus|viesti|tekstiviesti)\b`,
  String.raw`(?<!\p{L})(?:soittakaa|soita|tekstatkaa|tekstaa)\s+(?:minulle|meille)\b`,
  String.raw`(?<!\p{L})zadzwo[nń]\s+do\s+mnie\b`,
].join('|');
/**
 * The words of how or when that may stand between "me" and the value: "back on", "with an SMS at",
 * "a.u.b. op mijn nieuwe nummer", "bitte unter", "al mio cellulare". Nothing else does: "text me
 * the code at …" asks for something sent, and "send it to my address …" is no way to reach anyone
 * but the address's owner.
 */
const HOW = String.raw`(?:back|terug|directly|instead|rather|plut[oô]t|invece|piuttosto|liever|mejor|lieber|melhor|anytime|jederzeit|gerne|gerust|even|please|bitte|per favore|svp|aub|later|dopo|today|tomorrow|domani|on|at|via|using|by|with|to|per|con|par|por|pelo|pela|al|allo|au|para|no|op|na|unter|auf|an|do|un|uno|una|une|um|uma|een|a|my|mijn|mio|mia|il|la|mon|ma|mi|meu|minha|meine|meiner|new|nieuwe|nuovo|nuova|nouveau|nouvelle|nuevo|novo|neue|neuen|sms|text|message|messaggio|bericht|whatsapp|mail|email|e-mail|number|nummer|numero|número|num[eé]ro|mobile|mobiel|cellulare|cell|portable|m[oó]vil|telemóvel|handy|handynummer|phone|telefoon|telefono|tel[eé]fono|t[ée]l[ée]phone|telefon|am|besten|liebsten|eine|einen|kurze|gerne|gerna|en|et|ei|p[aå]|til|mieluummin|tekstiviestin[aä]|numeroon|minulle)`;
const BEFORE = new RegExp(`(?:${REACH_TO_WRITER})(?:[\\s,]+${HOW}){0,7}[\\s:,]*$`, 'iu');

/** A phone number or an e-mail address: the only values a writer's own contact can be. */
const CONTACT = /^(?:\+?\d[\d\s()./-]{5,22}\d|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$/;

/** Whether `value`, as written in `passages`, stands where its writer says it is how to reach them. */
export function writersOwnContact(passages: string, value: string): boolean {
  const v = value.trim();
  if (!CONTACT.test(v) || passages.length > 200_000) return false;
  for (let at = passages.indexOf(v); at >= 0; at = passages.indexOf(v, at + 1)) {
    // "a.u.b." is one word, not a sentence's end.
    const before = passages.slice(Math.max(0, at - 90), at).replace(/\ba\.\s?u\.\s?b\./gi, 'aub');
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
