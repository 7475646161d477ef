/**
 * What the request asks to do, read with the action lexicon (lexicon.ts) instead of word lists:
 * every clause's verbs (stemmed, so "refunded" and "refund" agree), the objects that follow them
 * ("my standing order", "a seat", "edit access"), money expressions ("35 EUR", "$20", "cap it at
 * 400"), and everyday phrasings of sending, paying, booking and changing ("let #launch know",
 * "drop a note in", "chip in", "get me in with", "push ... back"). Questions ("how much did I
 * spend?") and replies to the user ("tell me", "let me know") ask for no action. README:
 * "Intent".
 */
import { needsOfAction, objectKinds, stem, words, type Category } from './lexicon.js';
import { maskOf, type SinkLabel } from './labels.js';
import type { LabelEvidence } from './classify.js';

/** Everyday phrasings, by the action they ask for. */
const PHRASES: { re: RegExp; category: Category; money?: boolean }[] = [
  {
    re: /\blet (?!me\b|us\b)(?:everyone|everybody|all)\b[^.?!;]{0,40}\bknow\b|\b(?:tell|inform|notify) (?:everyone|everybody|all (?:tenants|members|residents|staff))\b|\bput (?:\S+ ){0,4}up (?:for|on)\b/i,
    category: 'publish',
  },
  { re: /\blet (?!me\b|us\b)[\w#@.'()-]+(?: [\w#@.'()-]+){0,3} know\b/i, category: 'send' },
  {
    re: /\b(?:drop|leave|put|fire off|shoot|send|post) (?:them |him |her )?(?:a |an |the |my )?(?:quick |short |brief )?(?:note|line|message|digest|summary|recap|update|heads[- ]up|reminder|word)\b/i,
    category: 'send',
  },
  {
    // Writing a message to someone sends it: "write them the following message", "write the message: …", "write a note to #ops".
    re: /\bwrite (?:(?:him|her|them|everyone|each (?:user|member|one)|\S+) )?(?:a |an |the |this |that |my |following |short |quick )*(?:message|note|dm|e-?mail|mail|reply|line)s?\b/i,
    category: 'send',
  },
  {
    re: /\bwrite (?:to|back)\b|\breach out\b|\bpass (?:\S+ ){0,4}(?:on|along)\b|\bpass the (?:gist|word|message|info\w*|summary)\b|\bfill (?:\S+ ){0,2}in\b|\bget (?:someone|somebody|a \w+|an \w+) (?:out|over|in|round|around) to\b|\bbump (?:\S+ ){0,4}up to\b|\bhand (?:\S+ ){0,4}(?:over|off) to\b/i,
    category: 'send',
  },
  {
    re: /\bloop (?:\S+ ){0,4}in(?:to)?\b|\bbring (?:\S+ ){0,3}in(?:to)? (?:the|this|my|our)\b|\bgive (?:\S+ ){0,4}(?:access|rights|permission)\b|\badd (?:\S+ ){0,3}(?:to|as) (?:the |an? )?(?:doc|document|team|channel|workspace|project|editor|viewer|collaborator|admin|owner|member|guest)\b/i,
    category: 'share',
  },
  {
    re: /\bchip in\b|\btop (?:\S+ ){0,3}up\b|\bpick up the (?:tab|bill|check)\b|\bput (?:it|this|that) on (?:the|my|our) (?:card|account)\b|\bknock [\w.,]+ off\b|\bsplit the (?:bill|cost)\b|\bcover (?:the|my|our) (?:bill|cost)\b|\bpay (?:\S+ )?back\b|\bput (?:\S+ ){0,4}(?:aside|away)\b|\bgive (?:\S+ ){0,5}(?:their |the |his |her )?(?:money )?back\b/i,
    category: 'pay',
    money: true,
  },
  {
    re: /\b(?:grab|get|snag|secure|find|score) me (?:a |an |the |two |some )?(?:seat|ticket|room|table|flight|spot|place|slot|appointment)\b|\bget me in (?:with|at|to)\b|\bset up (?:a |an )?(?:meeting|call|appointment|session)\b|\bpencil (?:\S+ ){0,3}in\b/i,
    category: 'book',
  },
  // A light verb with an action noun asks for that action: "make a reservation", "place an order", "do the transfer".
  {
    re: /\b(?:make|place|do|arrange|put in|submit|complete) (?:a |an |the |my |our )?(?:\w+ )?(?:reservations?|bookings?)\b/i,
    category: 'book',
  },
  {
    re: /\b(?:make|place|do|arrange|put in|submit|complete|send) (?:a |an |the |my |our )?(?:\w+ )?(?:payments?|transfers?|refunds?|purchases?|deposits?|donations?)\b|\bsend (?:\S+ ){0,2}back the (?:difference|rest|change|remainder)\b/i,
    category: 'pay',
    money: true,
  },
  {
    re: /\bpush (?:\S+ ){0,6}back\b|\bbring (?:\S+ ){0,6}forward\b|\bkick (?:\S+ ){0,4}off\b|\bsign (?:\S+ ){0,3}out\b|\blog (?:\S+ ){0,3}out\b|\bfold (?:\S+ ){0,4}into\b|\bmake (?:\S+ ){0,3}(?:an? )?(?:admin|owner|editor|member|viewer|moderator|manager)\b|\bswitch (?:\S+ ){0,4}(?:to|over)\b|\bturn (?:\S+ )?(?:off|on)\b|\bswap (?:\S+ ){0,4}(?:to|for|with)\b/i,
    category: 'change',
  },
  {
    re: /\btidy (?:\S+ ){0,3}(?:away|up)\b|\bget rid of\b|\bclear out\b|\bthrow (?:\S+ ){0,3}away\b|\bcall off\b|\bshut (?:\S+ )?down\b/i,
    category: 'delete',
  },
];

/** An amount of money: "35 EUR", "$20", "€1,150", "200 a month", "budget up to 300", "cap it at 400". */
const MONEY =
  /[$€£¥]\s?\d|\b\d[\d.,']*\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|bucks|cents?|€|\$|£)(?![a-z])|\b(?:budget|cap(?:ped)?|limit|up to|at most|no more than)\b[^.?!;]{0,20}\d|\b\d[\d.,]*\s?(?:a|per) (?:month|week|year)\b/i;

/** Replies to the user are not requests to send anything: "tell me", "let me know", "show me". */
const TO_USER =
  /\b(?:tell|show|give|send|let|remind|ask|message|email|text) (?:me|us)\b(?! (?:a|an|the) (?:link|copy|email|e-mail|message|text))/i;

/**
 * Words after which a verb-like word is a verb: the clause's first word, or one that follows a
 * subject, a conjunction or a modal ("and forward it", "then cancel", "I need to change"). Elsewhere
 * it is a noun ("the order", "20 messages", "my standing order").
 */
const VERB_CONTEXT = new Set([
  'please',
  'pls',
  'and',
  'then',
  'to',
  'also',
  'just',
  'can',
  'could',
  'would',
  'will',
  'kindly',
  'now',
  'quickly',
  'or',
  'but',
  'so',
  'i',
  'we',
  'you',
  'go',
  'immediately',
  'first',
  'finally',
  'must',
  'should',
  'need',
  'want',
  'd',
  'll',
  'simply',
  'maybe',
  'let',
]);
const QUESTION_START = /^(?:what|when|where|which|who|whom|whose|how|why|are|is|was|were|did|does|do|has|have|had)\b/i;

export interface IntentOptions {
  verbOf: (word: string) => Category | undefined;
}

/** The hard sinks the request asks for, each with the words that asked. */
export function recogniseIntent(prose: string, opts: IntentOptions): { mask: number; evidence: LabelEvidence[] } {
  const evidence: LabelEvidence[] = [];
  let mask = 0;
  const add = (sinks: SinkLabel[], why: string) => {
    const m = maskOf(sinks);
    if ((mask | m) === mask) return;
    mask |= m;
    evidence.push({ mask: m, why: `intent: ${why}` });
  };
  const text = prose.replace(/\blet's\b/gi, 'let us').replace(TO_USER, ' ');
  const moneyMatch = MONEY.exec(text);
  // A full stop ends a clause only before a space or the end: not inside an address, a link or a number.
  for (const clause of text.split(/(?:[;!?\n]|\.(?=\s|$))+|,\s*(?:then|and then|after that)\b|\band then\b/i)) {
    const trimmed = clause.trim();
    if (!trimmed) continue;
    // A question asks about things; "can you ...?" asks for them.
    if (QUESTION_START.test(trimmed) && prose.includes(`${trimmed}?`)) continue;
    const ws = words(trimmed);
    const money = MONEY.test(trimmed) || moneyMatch !== null;
    for (const p of PHRASES) {
      const m = p.re.exec(trimmed);
      if (!m) continue;
      const after = words(trimmed.slice(m.index));
      add(needsOfAction(p.category, objectKinds(after), money || p.money === true), `"${m[0]}" asks to ${p.category}`);
    }
    for (let i = 0; i < ws.length; i++) {
      const c = opts.verbOf(ws[i]);
      if (c === undefined || c === 'read') continue;
      if (i > 0 && !VERB_CONTEXT.has(ws[i - 1])) continue;
      const objects = objectKinds(ws.slice(i + 1, i + 13));
      add(
        needsOfAction(c, objects, money && (c !== 'send' || objects.has('money') || MONEY.test(ws.slice(i, i + 6).join(' ')))),
        `"${ws.slice(i, i + 4).join(' ')}" asks to ${c}`,
      );
    }
  }
  if (moneyMatch && mask !== 0) add(['FINANCIAL_TRANSFER'], `"${moneyMatch[0].trim()}" is an amount of money`);
  return { mask, evidence };
}

/** Whether the request uses the tool's own action verb ("archive" for `archive_channel`). */
export function usesToolVerb(prose: string, verb: string | undefined): boolean {
  if (!verb) return false;
  const s = stem(verb);
  return words(prose).some((w) => stem(w) === s);
}
