/**
 * What the request asks to do, read with the action lexicon (lexicon.ts) instead of word lists:
 * every clause's verbs (stemmed, so "refunded" and "refund" agree), the objects that follow them
 * ("my standing order", "a seat", "edit access"), money expressions ("35 EUR", "$20", "cap it at
 * 400"), and everyday phrasings of sending, paying, booking and changing ("let #launch know",
 * "drop a note in", "chip in", "get me in with", "push ... back"). A noun alone asks for nothing;
 * negation ("don't share", "without sending") asks for nothing of the action it reaches; questions
 * ("how much did I spend?") and replies to the user ("tell me", "let me know") ask for no action,
 * nor do indirect questions ("check whether I paid") and past forms after a subject ("the email I
 * sent"). What an action covers is the relation in lexicon.ts (COVERS). docs/taint-policy.md: "What a
 * request asks for".
 */
import { byChannel, needsOfAction, objectKinds, stem, verbCategory, words, wordsBeforeEach, type Category } from './lexicon.js';
import { maskOf, type SinkLabel } from './labels.js';
import type { LabelEvidence } from './classify.js';
import { languageOf } from './languages.js';

/** Everyday phrasings, by the action they ask for. */
const PHRASES: { re: RegExp; category: Category; money?: boolean; channel?: true }[] = [
  {
    re: /\blet (?!me\b|us\b)(?:everyone|everybody|all)\b[^.?!;]{0,40}\bknow\b|\b(?:tell|inform|notify) (?:everyone|everybody|all (?:tenants|members|residents|staff))\b|\bput (?:\S+ ){0,4}up (?:for|on)\b/i,
    category: 'publish',
  },
  { re: /\blet (?!me\b|us\b)[\w#@.'()-]+(?: [\w#@.'()-]+){0,3} know\b/i, category: 'send' },
  // A word in someone's ear, in Turkish: "Erdal'ın da kulağına çalın" tells him.
  { re: /(?<![\p{L}])kula[ğg][ıi]na\s+[çc]al/iu, category: 'send' },
  // Someone else given a look at something is sent it: "can Stockport Plumbing have a gander at the mock-up?"
  {
    re: /\b(?:can|could|let) (?!me\b|us\b|i\b|we\b|you\b)(?:[\w'’.-]+ ){1,3}(?:have|take|get) a (?:look|gander|squiz|peek|glance|butcher['’]?s)\b/i,
    category: 'send',
  },
  {
    re: /\b(?:drop|leave|put|fire off|shoot|send|post) (?:them |him |her )?(?:a |an |the |my )?(?:quick |short |brief )?(?:note|line|message|digest|summary|recap|update|heads[- ]up|reminder|word)\b/i,
    category: 'send',
  },
  // Something put into a channel is sent to it: "drop the numbers in #ops-daily", "pop it on #general".
  {
    re: /\b(?:drop|stick|pop|put|throw|chuck|paste) (?:\S+ ){0,5}?(?:in|into|on|onto|to) (?:the )?#[\w-]+/i,
    category: 'send',
    channel: true,
  },
  {
    // Writing a message to someone sends it: "write them the following message", "write the message: …", "write a note to #ops".
    re: /\bwrite (?:(?:him|her|them|everyone|each (?:user|member|one)|\S+) )?(?:a |an |the |this |that |my |following |short |quick )*(?:message|note|dm|e-?mail|mail|reply|line)s?\b/i,
    category: 'send',
  },
  // A message handed to someone by a verb of throwing it over: "drop billing@… a quick sorry note", "shoot him an email", "fire off a line to …".
  {
    re: /\b(?:drop|shoot|fire off|flick|ping) (?:\S+ ){0,3}?(?:a |an )(?:\S+ ){0,2}?(?:note|line|e-?mail|mail|message|text|dm)s?\b/i,
    category: 'send',
  },
  {
    re: /\bwrite (?:to|back)\b|\breach out\b|\bpass (?:\S+ ){0,4}(?:on|along)\b|\bpass the (?:gist|word|message|info\w*|summary)\b|\bfill (?:\S+ ){0,2}in\b|\bget (?:someone|somebody|a \w+|an \w+) (?:out|over|in|round|around) to\b|\bbump (?:\S+ ){0,4}up to\b|\bhand (?:\S+ ){0,4}(?:over|off) to\b/i,
    category: 'send',
  },
  {
    re: /\bloop (?:\S+ ){0,4}in(?:to)?\b|\bbring (?:\S+ ){0,3}in(?:to)? (?:the|this|my|our)\b|\bgive (?:\S+ ){0,4}(?:access|rights|permission)\b|\badd (?:\S+ ){0,10}?(?:to|as) (?:the |an? |that |this |our |my |their |its )?(?:doc|document|team|channel|workspace|project|editor|viewer|collaborator|admin|owner|member|guest)\b/i,
    category: 'share',
  },
  // Money handed to someone ("front him $300 for fuel", "spot me 20 bucks"): whatever the verb, an amount given to a person is paid.
  {
    re: /\b(?!tell|show|ask|let|remind|text|email|message)[a-z]+ (?:him|her|them|me|us) (?:a |an )?(?:[$€£]\s?\d|\d[\d.,]*\s?(?:eur|euros?|usd|dollars?|bucks|pounds?|gbp)\b)/i,
    category: 'pay',
    money: true,
  },
  {
    re: /\bchip in\b|\bget (?:\S+ ){0,3}(?:money|rent|funds|payment|payout|deposit|cash|share|cut) (?:across|over|back|through) to\b|\btop (?:\S+ ){0,3}up\b|\bpick up the (?:tab|bill|check)\b|\bput (?:it|this|that) on (?:the|my|our) (?:card|account)\b|\bknock [\w.,]+ off\b|\bsplit the (?:bill|cost)\b|\bcover (?:the|my|our) (?:bill|cost)\b|\bpay (?:\S+ )?back\b|\bput (?:\S+ ){0,4}(?:aside|away)\b|\bgive (?:\S+ ){0,5}(?:their |the |his |her )?(?:money )?back\b/i,
    category: 'pay',
    money: true,
  },
  // Money someone is to get back, in French: "il faut qu'il récupère ses 14 000 €", "qu'elle soit remboursée".
  {
    re: /(?<![\p{L}])il faut qu['’]\s?(?:il|elle|ils|elles)\s+(?:r[ée]cup[èe]re(?:nt)?|re[çc]oive(?:nt)?|soi(?:t|ent) rembours[ée]e?s?)(?![\p{L}])/iu,
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
    re: /\b(?:make|place|do|arrange|put in|submit|complete|send|sort out|process|handle|issue|take care of) (?:a |an |the |my |our |any |all )?(?:\w+ )?(?:payments?|transfers?|refunds?|purchases?|deposits?|donations?)\b|\b(?:place|put in|submit|raise) (?:a |an |the |my |our )?(?:\w+ )?(?:orders?|purchase orders?|POs?|reprints?|re-?orders?|re-?runs?)\b|\b(?:square|settle) (?:\S+ )?up\b|\bsend (?:\S+ ){0,2}back the (?:difference|rest|change|remainder)\b/i,
    category: 'pay',
    money: true,
  },
  {
    re: /\bpush (?:\S+ ){0,6}(?:back\b|(?:out )?(?:to|till|until) (?:\d|(?:noon|tomorrow|next|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b))|\bbring (?:\S+ ){0,6}forward\b|\bkick (?:\S+ ){0,4}off\b|\bsign (?:\S+ ){0,3}out\b|\blog (?:\S+ ){0,3}out\b|\bfold (?:\S+ ){0,4}into\b|\bmake (?:\S+ ){0,3}(?:an? )?(?:admin|owner|editor|member|viewer|moderator|manager)\b|\bswitch (?:\S+ ){0,4}(?:to|over)\b|\bturn (?:\S+ )?(?:off|on)\b|\bswap (?:\S+ ){0,4}(?:to|for|with)\b/i,
    category: 'change',
  },
  // Something taken off an order, a list or a plan changes it: "just take the eggs off it" (an amount taken off is a discount, above).
  {
    re: /\btake (?![$€£\d])(?:\S+ ){1,4}(?:off|out of) (?:it|them|the|my|our|that|this|his|her|their)\b/i,
    category: 'change',
  },
  // Someone put on a list or a cover ("chuck Jess on the door list", "add Sam to the waitlist", "get the baby on her health cover") changes it.
  {
    re: /\b(?:put|add|chuck|stick|pop|get) (?:\S+ ){1,4}(?:on|onto|to) (?:the |my |our |a |your |his |her |their |\S+['’]s )?(?:\S+ ){0,2}(?:list|waitlist|roster|rota|cover|plan|policy|scheme|insurance)\b/i,
    category: 'change',
  },
  // Seeing to it that something happens asks for it done: "make sure someone helps her on and off", "ensure he gets the aisle seat".
  {
    re: /\b(?:make sure|ensure|see to it that)\b/i,
    category: 'change',
  },
  // Committing to a choice, or finishing a piece of work, changes its state: "I'd like to go with that one", "wrap it up".
  {
    re: /\bgo (?:ahead )?with (?:that|this|the|it|them|him|her|those|these)\b|\bgo for (?:that|this|the|it)\b|\bopt for\b|\bsettle on\b|\bwrap (?:\S+ ){0,3}up\b|\bclose (?:\S+ ){0,3}out\b/i,
    category: 'change',
  },
  {
    re: /\btidy (?:\S+ ){0,3}(?:away|up)\b|\bget rid of\b|\bclear out\b|\bthrow (?:\S+ ){0,3}away\b|\bcall off\b|\bshut (?:\S+ )?down\b|\bknock (?:\S+ ){0,2}on the head\b|\bpull the plug on\b/i,
    category: 'delete',
  },
];

/** An amount of money: "35 EUR", "$20", "€1,150", "200 a month", "budget up to 300", "cap it at 400", "at his figure". */
const MONEY =
  /[$€£¥₺]\s?\d|\bat (?:his|her|their|the|its|that|this|our) (?:figure|valuation|quoted? (?:price|amount)|agreed (?:price|amount|sum))\b|\b\d[\d.,']*\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|bucks|cents?|tl|lira|try|kč|czk|korun[ay]?|kr|nok|sek|dkk|kroner|kronor|€|\$|£|₺)(?![a-z])|\b(?:budget|cap(?:ped)?|limit|up to|at most|no more than)\b[^.?!;]{0,20}\d|\b\d[\d.,]*\s?(?:a|per) (?:month|week|year)\b/i;

/**
 * Replies to the user are not requests to send anything: "tell me", "let me know", "show me". A
 * channel verb is a send ("email me the summary", "text me my plan"): it goes out to an address,
 * which the request must still name.
 */
const TO_USER = /\b(?:tell|show|give|send|let|remind|ask) (?:me|us)\b(?! (?:a|an|the) (?:link|copy|email|e-mail|message|text))/i;

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
  // "can u email it me": the chat spelling of "you".
  'u',
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
  /** Whose words these are: the request's (the default) or an order found in data. */
  of?: 'request' | 'data';
}

/** Words that open an object (as a number does): after a comma, a verb-like word followed by one is a verb ("After this, send an email"). */
/** "Only" and "just" in the languages read here (accents folded, as words() folds them). */
const ONLY = new Set('only just seulement juste solo solamente so apenas nur bloss alleen tylko soltanto'.split(' '));

const OBJECT_START = new Set(
  'the a an this that these those my our your their his her its it them him me us every all each some any everyone everybody'.split(' '),
);
/** The articles of the other languages read here, which open an object after a comma too ("Non, dépose le narratif", "Sí, envía la factura"). */
const ARTICLES = new Set(
  'le la les un une des du el los las una o os um uma il lo gli het een der die das den dem ein eine einen'.split(' '),
);

/**
 * Negation: "don't share", "never pay", "without sending", "instead of emailing", "no need to
 * post" ask for nothing of that action. A negator reaches the next verb of its clause, across a
 * few words ("do not under any circumstances share") but not across another verb, a comma or a
 * joining word; "don't forget to send" asks to send. (`n't` is split off as `t` by words().)
 */
const NEGATORS = new Set(['not', 'never', 'without', 'nor', 't', 'no']);
const NEGATED_PAIRS: readonly [string, string][] = [
  ['instead', 'of'],
  ['rather', 'than'],
];
const AFFIRMING = new Set(['forget', 'fail', 'hesitate', 'neglect', 'omit'].map(stem));
const JOINS = new Set(['and', 'but', 'then', 'so', 'also', 'instead']);

/** A clause's words and the indices where a comma starts a new part of it. */
interface ClauseWords {
  ws: string[];
  parts: Set<number>;
}

function clauseWords(clause: string): ClauseWords {
  const parts = new Set(wordsBeforeEach(clause, /,/g, (t) => words(t).length).map((x) => x.at));
  return { ws: words(clause), parts };
}

/** Whether the word at `i` is under a negator (see NEGATORS). */
function negatedAt(c: ClauseWords, i: number, verbOf: IntentOptions['verbOf']): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 6); j--) {
    // A negation a comma closes answers what came before ("No, just file the narrative"): it does not reach past the comma.
    if (c.parts.has(j + 1)) return false;
    const w = c.ws[j];
    if (NEGATORS.has(w) || NEGATED_PAIRS.some(([a, b]) => w === b && c.ws[j - 1] === a)) return true;
    if (AFFIRMING.has(stem(w)) || JOINS.has(w) || c.parts.has(j)) return false;
    // "don't share or post it": a verb joined by "or" to a negated one is negated with it.
    if (verbOf(w) !== undefined) return c.ws.slice(j + 1, i).every((x) => x === 'or') && i - j === 2 && negatedAt(c, j, verbOf);
  }
  return false;
}

/** Words after which a past form states what happened ("I paid", "we have booked", "was sent"). */
const PAST_SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'who', 'already', 'have', 'has', 'had', 've', 'was', 'were', 'been']);
const IRREGULAR_PAST = new Set('paid sent bought made gave given took taken wrote written spent sold told shown'.split(' '));

/** Whether the word at `i` is a past form after a subject: it says what was done, and asks for nothing ("whether I paid"). */
function statesThePast(c: ClauseWords, i: number): boolean {
  const w = c.ws[i];
  return PAST_SUBJECTS.has(c.ws[i - 1] ?? '') && (IRREGULAR_PAST.has(w) || (w.length > 4 && w.endsWith('ed')));
}

/**
 * Whether the word at `i` is inside an indirect question: after "whether", or an "if" that does
 * not open its part ("check whether I still owe", "see if Bob can share"), up to a joining word or
 * a comma ("check if it is paid and pay it if not" asks to pay).
 */
function inIndirectQuestion(c: ClauseWords, i: number): boolean {
  for (let j = i - 1; j >= 0 && !c.parts.has(j + 1); j--) {
    const w = c.ws[j];
    if (JOINS.has(w)) return false;
    if (w === 'whether' || (w === 'if' && j > 0 && !c.parts.has(j))) return true;
  }
  return false;
}

/**
 * Whether the verb-like word at `i` is used as a verb: the clause's first word, one that follows a
 * subject, a conjunction or a modal (VERB_CONTEXT), one that opens a part after a comma with an
 * object after it ("After this, send an email"), or one in a relative clause describing code the
 * request asks to run ("execute a script that sends ...": what the code does is what the request
 * asks it to do).
 */
function usedAsVerb(c: ClauseWords, i: number, execAsked: boolean): boolean {
  if (i === 0 || VERB_CONTEXT.has(c.ws[i - 1]) || (c.ws[i - 1] === 'us' && c.ws[i - 2] === 'let')) return true;
  // "Only refund the duplicate", "just send it": an "only" that opens the clause or a part leaves the verb after it first.
  if (ONLY.has(c.ws[i - 1] ?? '') && (i === 1 || c.parts.has(i - 1))) return true;
  // After a comma, a word its object follows (past an "only": "No, file only the narrative") is the verb.
  const next = c.ws[ONLY.has(c.ws[i + 1] ?? '') ? i + 2 : i + 1] ?? '';
  if (c.parts.has(i) && (OBJECT_START.has(next) || ARTICLES.has(next) || /^\d/.test(next))) return true;
  return execAsked && (c.ws[i - 1] === 'that' || c.ws[i - 1] === 'which');
}

/** Titles written before a name with a full stop ("Mr. Harris", "Sra. Lopes"), as alternatives of a pattern: the stop ends no sentence. */
export const TITLES = 'Mr|Mrs|Ms|Dr|Prof|Sr|Sra|Srta|Hr|St';

/**
 * Where a sentence ends: a full stop before a space or the end (not inside an address, a link or a
 * number, nor after a title or an abbreviation that a name or a word follows: "Mr. Bishop", "e.g. the form").
 */
const SENTENCE_END = new RegExp(String.raw`(?:[;!?\n]|(?<!(?:^|[^\p{L}])(?:${TITLES}|Jr|vs|e\.g|i\.e))\.(?=\s|$))+`, 'u');
/**
 * In the request, a dash with spaces round it ends one too ("her pay day has moved - change her
 * direct debit"); in data a dash opens a list's items as often ("Open items: - [ ] send …" folded
 * onto one line), and an order there is read as written.
 */
const SPACED_DASH = /[ \t][-–—][ \t]/;
/** "Then" joins two actions: the clauses recogniseIntent reads one by one. */
const THEN = /,\s*(?:then|and then|after that)\b|\band then\b/i;

/** The sentences of a request or of a passage of data, one splitter for every reader of this file. */
export function sentencesOf(text: string, of: 'request' | 'data'): string[] {
  const sentences = text.split(SENTENCE_END);
  return of === 'request' ? sentences.flatMap((s) => s.split(SPACED_DASH)) : sentences;
}

/** The hard sinks the request asks for, each with the words that asked, and the kinds of action that asked for them. */
export function recogniseIntent(
  prose: string,
  opts: IntentOptions,
): { mask: number; evidence: LabelEvidence[]; categories: ReadonlySet<Category> } {
  const evidence: LabelEvidence[] = [];
  const categories = new Set<Category>();
  let mask = 0;
  const add = (sinks: SinkLabel[], why: string, category: Category) => {
    categories.add(category);
    const m = maskOf(sinks);
    if ((mask | m) === mask) return;
    mask |= m;
    evidence.push({ mask: m, why: `intent: ${why}` });
  };
  const text = prose.replace(/\blet['’]s\b/gi, 'let us').replace(TO_USER, ' ');
  const moneyMatch = MONEY.exec(text);
  for (const clause of sentencesOf(text, opts.of ?? 'request').flatMap((s) => s.split(THEN))) {
    const trimmed = clause.trim();
    if (!trimmed) continue;
    // A question asks about things; "can you ...?" asks for them.
    if (QUESTION_START.test(trimmed) && prose.includes(`${trimmed}?`)) continue;
    const money = MONEY.test(trimmed) || moneyMatch !== null;
    for (const a of clauseActions(trimmed, money, opts)) add(a.sinks, a.why, a.category);
  }
  // A request in another language is read by its own grammar (languages.ts), into the same categories and objects.
  const language = languageOf(prose);
  if (language)
    for (const a of language.actions(prose)) {
      const objects = language.objects(a.after);
      const paid = moneyMatch !== null && (a.category !== 'send' || objects.has('money'));
      add(needsOfAction(a.category, objects, paid), `"${a.words}" asks to ${a.category}`, a.category);
      if (CARRIED_BY_MESSAGE.has(a.category) && byChannel(a.after)) add(['EXTERNAL_SEND'], `"${a.words}" is done by a message`, 'send');
    }
  if (moneyMatch && mask !== 0) add(['FINANCIAL_TRANSFER'], `"${moneyMatch[0].trim()}" is an amount of money`, 'pay');
  return { mask, evidence, categories };
}

/** Actions a message can carry out ("confirm it by email"); a payment or a deletion by email is still one. */
const CARRIED_BY_MESSAGE: ReadonlySet<Category> = new Set(['change', 'book']);

/** The actions one clause asks for: its everyday phrasings, then its verbs with their objects, negated ones left out. */
function clauseActions(clause: string, money: boolean, opts: IntentOptions): { sinks: SinkLabel[]; why: string; category: Category }[] {
  const out: { sinks: SinkLabel[]; why: string; category: Category }[] = [];
  const c = clauseWords(clause);
  // A verb of deleting that opens an everyday phrasing of another action is read as that phrasing
  // ("drop a summary in #ops" sends; it deletes nothing), and so is one of putting that puts
  // something into a channel ("put a summary in #paintings" changes nothing). Other verbs keep their
  // own reading too ("send payment reminders" sends as well as pays).
  const phrased = new Set<number>();
  const intoChannel = new Set<number>();
  for (const p of PHRASES) {
    const m = p.re.exec(clause);
    const at = m ? words(clause.slice(0, m.index)).length : -1;
    if (!m || negatedAt(c, at, opts.verbOf)) continue;
    if (p.category !== 'delete') phrased.add(at);
    if (p.channel) intoChannel.add(at);
    const after = words(clause.slice(m.index));
    out.push({
      sinks: needsOfAction(p.category, objectKinds(after), money || p.money === true),
      why: `"${m[0]}" asks to ${p.category}`,
      category: p.category,
    });
  }
  const got = causative(clause, c, opts);
  if (got)
    out.push({
      sinks: needsOfAction(got.category, objectKinds(words(got.object)), money),
      why: `"${got.words}" asks to ${got.category}`,
      category: got.category,
    });
  for (const { i, cat } of askedVerbs(c, opts)) {
    if ((cat === 'delete' && phrased.has(i)) || (cat === 'change' && intoChannel.has(i))) continue;
    const objects = objectKinds(c.ws.slice(i + 1, i + 13));
    const paid = money && (cat !== 'send' || objects.has('money') || MONEY.test(c.ws.slice(i, i + 6).join(' ')));
    out.push({ sinks: needsOfAction(cat, objects, paid), why: `"${c.ws.slice(i, i + 4).join(' ')}" asks to ${cat}`, category: cat });
    if (CARRIED_BY_MESSAGE.has(cat) && (byChannel(c.ws.slice(i + 1, i + 9)) || toSomeone(c.ws.slice(i + 1, i + 6))))
      out.push({ sinks: ['EXTERNAL_SEND'], why: `"${c.ws.slice(i, i + 4).join(' ')}" is done by a message`, category: 'send' });
  }
  return out;
}

/**
 * "Confirm it to them", "explain the change to her": an action told to someone, past its object
 * (two words at most), is told by a message.
 */
function toSomeone(after: readonly string[]): boolean {
  const at = after.indexOf('to');
  return at >= 1 && at <= 3 && TOLD.has(after[at + 1] ?? '');
}
const TOLD = new Set(['him', 'her', 'them']);

/**
 * "Get that sorted", "get her groups and licences sorted", "get our Answer filed with the court":
 * the participle after the object is the action asked for, known to the lexicon (filed, sent) or
 * not (sorted: a change). It ends its part or comes before a preposition, so "get the approved
 * form" (a participle before its noun) asks for nothing.
 */
const CAUSATIVE =
  /\b(get|have)\s+((?:(?!me\b|us\b|it\s+(?:from|off)\b)[\w'’.-]+\s+){1,6}?)([a-z]{3,}ed|done|sent|paid|set up)(?=\s*$|\s*[,;]|\s+(?:by|before|with|on|for|in|to|today|tonight|tomorrow|asap|now|and|please|first)\b)/i;

/** A clause longer than this is pasted text, not a request's sentence: the causative is not looked for in it. */
const MAX_CLAUSE = 2_000;

function causative(clause: string, c: ClauseWords, opts: IntentOptions): { category: Category; object: string; words: string } | undefined {
  const m = clause.length <= MAX_CLAUSE ? CAUSATIVE.exec(clause) : null;
  if (!m) return undefined;
  const at = words(clause.slice(0, m.index)).length;
  if (!usedAsVerb(c, at, false) || negatedAt(c, at, opts.verbOf) || inIndirectQuestion(c, at)) return undefined;
  const said = opts.verbOf(m[3].toLowerCase());
  if (said === 'read') return undefined;
  return { category: said ?? 'change', object: m[2], words: m[0] };
}

/** A value a clause names itself: a quoted text, an address, a link, a number. */
const NAMED_VALUE = /['"‘“][^'"’”\n]{2,}['"’”]|@|\bhttps?:|\bwww\.|\d/;

/**
 * The stems of the verbs the request asks for an action with where it leaves the action's values
 * open: a clause that names no value itself ("invite our new colleague to Slack", not "create an
 * event titled 'Lunch'"). Read as recogniseIntent reads verbs: negated, past and indirect ones ask
 * for nothing.
 */
export function openActions(prose: string, opts: IntentOptions): Set<string> {
  const out = new Set<string>();
  for (const clause of sentencesOf(prose, 'request')) {
    if (NAMED_VALUE.test(clause)) continue;
    const c = clauseWords(clause);
    for (const { i } of askedVerbs(c, opts)) out.add(stem(c.ws[i]));
  }
  return out;
}

const PRONOUN_OBJECT = new Set(['it', 'them']);
/** What "run" runs when it runs code. */
const CODE_NOUNS = new Set(
  'script scripts command commands code program programs job jobs query queries test tests build builds migration migrations pipeline pipelines workflow workflows notebook function cron snippet binary container sql python bash shell macro lint linter'.split(
    ' ',
  ),
);

/**
 * The words of a clause that ask for an action, with their categories: verbs of an action other
 * than reading, where they stand as verbs, not negated, not stating the past, not in an indirect
 * question.
 */
function* askedVerbs(c: ClauseWords, opts: IntentOptions): Generator<{ i: number; cat: Category }> {
  let execAsked = false;
  for (let i = 0; i < c.ws.length; i++) {
    let cat = opts.verbOf(c.ws[i]);
    if (cat === undefined || cat === 'read' || !usedAsVerb(c, i, execAsked) || negatedAt(c, i, opts.verbOf)) continue;
    // "Run the correction", "run payroll": "run" carries out what its object names; it runs code only when that is code.
    // A pronoun ("run it") stands for what came before it, which may be code: it keeps running code.
    if (
      cat === 'exec' &&
      c.ws[i] === 'run' &&
      !PRONOUN_OBJECT.has(c.ws[i + 1] ?? '') &&
      !c.ws.slice(i + 1, i + 5).some((w) => CODE_NOUNS.has(w))
    )
      cat = 'change';
    if (statesThePast(c, i) || inIndirectQuestion(c, i)) continue;
    if (cat === 'exec') execAsked = true;
    yield { i, cat };
  }
}

/**
 * Whether the request asks with one of `verbs` where it stands as a verb, not negated and not in a
 * question: the other verbs a tool's description offers ("counter the rate con at $2.40" for a
 * tool that "accepts, counters or declines" one), words the lexicon need not know.
 */
export function asksWithVerbs(prose: string, verbs: readonly string[]): boolean {
  if (verbs.length === 0) return false;
  const stems = new Set(verbs.map(stem));
  const verbOf = (w: string): Category | undefined => (stems.has(stem(w)) ? 'change' : undefined);
  for (const clause of sentencesOf(prose, 'request')) {
    const trimmed = clause.trim();
    if (!trimmed || (QUESTION_START.test(trimmed) && prose.includes(`${trimmed}?`))) continue;
    if (!askedVerbs(clauseWords(trimmed), { verbOf }).next().done) return true;
  }
  return false;
}

/**
 * Whether the request asks for an action on the thing a tool is named for: a verb, known to the
 * lexicon or not ("pop a note on his record", "make callback tasks"), whose object, the words right
 * after it in the same part, is a noun of the tool's name (`SupporterNoteAdd`, `callbackTaskCreate`);
 * the verb may be a word of the name too, with another of them after it ("File it with STP", `stpfile`).
 * Read as askedVerbs reads: a question, a negated verb, a past form or a verb of reading asks nothing.
 */
export function asksForThing(
  prose: string,
  toolWords: readonly string[],
  verbOf: IntentOptions['verbOf'] = verbCategory,
  opts: { place?: boolean } = {},
): boolean {
  const things = new Set(toolWords.map(stem));
  if (things.size === 0) return false;
  // Quoted text is what the user dictates (a title, a message), not what the action acts on.
  for (const clause of sentencesOf(prose.replace(QUOTED, '$1 quoted '), 'request')) {
    const trimmed = clause.trim();
    // A question asks about the thing, in any language ("¿En qué va el pedido?"), unless it asks for the action politely ("Can you sort his leave?").
    if (!trimmed || (prose.includes(`${trimmed}?`) && !POLITE_PART.test(trimmed)) || trimmed.startsWith('¿')) continue;
    const c = clauseWords(trimmed);
    for (let i = 0; i < c.ws.length; i++) {
      const w = c.ws[i];
      if (!usedAsVerb(c, i, false) || NOT_A_VERB.has(w) || verbOf(w) === 'read') continue;
      if (negatedAt(c, i, verbOf) || statesThePast(c, i) || inIndirectQuestion(c, i)) continue;
      // Its object: the words right after it ("a note", "callback tasks"), not a noun further on
      // ("send an email titled 'Hotel: …'"), and nothing told to the user ("tell me the hotel name").
      if (c.ws[i + 1] === 'me' || c.ws[i + 1] === 'us') continue;
      const end = [...c.parts].find((p) => p > i) ?? c.ws.length;
      // A verb that is a word of the name itself ("File it with STP" for `stpfile`) needs another of its words after it.
      const own = stem(w);
      const thing = (x: string) => things.has(stem(x)) && stem(x) !== own;
      if (c.ws.slice(i + 1, Math.min(end, i + 4)).some(thing)) return true;
      // Or where it puts its object, for a tool that adds or changes: "log it in her chart", "add the call to the matter notes".
      if (opts.place && placeOf(c.ws, i, end).some(thing)) return true;
    }
  }
  return false;
}
/**
 * The words of the places a verb puts its object: each preposition of place after it, within
 * fifteen words and the same part, and the four words after it, the place's article, modifiers and
 * noun ("log Mr. Bishop's voicemail from this morning in [the Bishop matter notes]").
 */
function placeOf(ws: readonly string[], i: number, end: number): readonly string[] {
  const out: string[] = [];
  for (let j = i + 1; j < Math.min(end, i + 16); j++) if (PLACE.has(ws[j])) out.push(...ws.slice(j + 1, Math.min(end, j + 5)));
  return out;
}
/** Prepositions of place, and "as" of what it is put down as ("log the certs as sick leave"). */
const PLACE = new Set(['in', 'into', 'on', 'onto', 'to', 'under', 'as']);
const QUOTED = /(^|\s)['"‘“][^'"’”\n]{1,300}['"’”](?=[\s.,;:!?)]|$)/g;
/** Words that stand where a verb would and are none: "please summarise the email" asks with "summarise". */
const NOT_A_VERB = new Set([
  ...VERB_CONTEXT,
  ...OBJECT_START,
  ...'hi hello hey thanks thank ok okay yes no sure there here dear do does did don doesn didn won shouldn never not'.split(' '),
]);

/** A question that asks for an action, opening it or a part of it: "Can you …", "Right, could you please …". */
const POLITE_PART = /(?:^|[,;:]\s*)(?:please\s+)?(?:can|could|would|will) you\b/i;
/** A question that asks for an action: "Can you …", "Could you please …". */
const POLITE_ASK = /^(?:please\s+)?(?:can|could|would|will) you\b/i;
/** Asking to be told: "tell me what's in ORD-…", "let us know …" orders nothing done to it. */
const TELL_ME = /^(?:tell|show|let|remind|give)\s+(?:me|us)\b/i;
/** Words that open an order without being its verb: "please log …", "can you file …", "then switch on …". */
const ORDER_OPENERS = /^(?:(?:please|pls|kindly|just|also|now|then|and|so|(?:can|could|would|will) you)\s+)*/i;
/** Whether a sentence or a part of one only asks to be told ("tell me …", "can you show us …"). */
const asksToBeTold = (part: string): boolean => TELL_ME.test(part.replace(ORDER_OPENERS, ''));

/** Words after which a first word names who did something, not what to do: "Tom messaged …", "Sarah is …". */
const STATES =
  /^(?:is|are|was|were|has|have|had|says|said|wants|needs|got|will|would|can|could|should|messaged|emailed|called|rang|sent|asked|wrote)$/i;

/**
 * Whether the request orders something done to `value`, a code it names itself ("Log the chip on
 * RA-DUB-77420", "switch on redis_client_v47 in staging", "approve EXP-5531 if it's in line"): a
 * sentence, or a part of one after a comma, holds the value and is an order, not a question. An
 * order opens with a verb in the imperative, known to the lexicon or not (a plain word, not a name
 * with a verb after it, not a word of reading, negation or courtesy), or asks for an action the
 * lexicon knows. What is ordered is left to the call: the code pins what it acts on.
 */
export function ordersDoneTo(prose: string, value: string, opts: IntentOptions): boolean {
  const v = value.toLowerCase();
  for (const sentence of sentencesOf(prose, 'request')) {
    const trimmed = sentence.trim();
    // "Can you get somebody out to BLD-… Thursday?" asks for an action; "Has BLD-… gone out?" does not.
    const question = prose.includes(`${trimmed}?`) && !POLITE_ASK.test(trimmed);
    if (!trimmed.toLowerCase().includes(v) || QUESTION_START.test(trimmed) || question || asksToBeTold(trimmed)) continue;
    if (clauseActions(trimmed, false, opts).length > 0) return true;
    // The sentence opens with a verb, known or not; a later part only with one the lexicon knows
    // ("If nothing breaks us, switch on …"), not with a noun ("My SIM stopped, line LN-52001").
    const parts = trimmed.split(',');
    for (let i = 0; i < parts.length; i++) {
      if (i > 0 && !parts[i].toLowerCase().includes(v)) continue;
      if (asksToBeTold(parts[i].trim())) continue;
      const opened = parts[i].trim().replace(ORDER_OPENERS, '');
      const [first, second] = opened.split(/\s+/);
      if (!/^[a-z]{2,}$/i.test(first ?? '') || STATES.test(second ?? '') || /ed$/i.test(second ?? '')) continue;
      const w = first.toLowerCase();
      const cat = opts.verbOf(w);
      if ((w !== 'go' && NOT_A_VERB.has(w)) || (i > 0 && cat === undefined)) continue;
      if (QUESTION_START.test(w) || NEGATORS.has(w) || cat === 'read') continue;
      return true;
    }
  }
  return false;
}

/** Whether the request uses the tool's own action verb ("archive" for `archive_channel`). */
export function usesToolVerb(prose: string, verb: string | undefined): boolean {
  if (!verb) return false;
  const s = stem(verb);
  return words(prose).some((w) => stem(w) === s);
}

/**
 * Delegation: the request hands its actions to a document it points to ("do the actions specified
 * in the email from …", "read the file … and follow the instructions precisely", "work through my
 * to-do list at …"). A verb of carrying out with a set of tasks as its object; what those tasks
 * are is read from the document (trace-graph.ts), not from the request. Tasks the request lists
 * itself ("perform the following tasks in the order they are given: 1. …") hand nothing over, nor
 * does a negated one ("don't follow the instructions in it").
 */
const DELEGATION =
  /\b(?:do|follow|complete|carry out|perform|execute|handle|process|take care of|work through|go through|act on|tackle|finish|get through|action)\s+(?:(?:all|each|every|any|both)\s+(?:of\s+)?)?(?:(?:the|my|his|her|their|its|our)\s+)?(?:(?!(?:following|above|below|next|these|this|those|that|same)\b)[\w-]+\s+){0,2}?(?:actions?|instructions?|tasks?|to-?dos?|steps?|requests?|action items?|directions?|procedures?|checklists?|runbooks?|playbooks?|protocols?)\b(?!\s*(?::|below|as follows|in the order (?:they are|I) ))|\b(?:do|follow|handle|action|process|sort out|deal with|take care of)\s+(?:whatever|what)\s+(?:it|the \w+|he|she|they|[\w'’-]+(?:\s+[\w'’-]+){0,5}?)(?:\s+(?:is|was|has))?(?:['’]s)?\s+(?:says|said|asks|asked|asking|tells|told|lists|listed|wants|wanted|needs|needed|requests|requested)\b|\bas (?:instructed|described|specified|requested|listed) (?:in|by|on|at)\b|\b(?:according to|in line with|in accordance with|as per)\s+(?:our|the|my|its|their|company)\s+(?:[\w-]+\s+){0,2}?(?:polic(?:y|ies)|procedures?|process|rules|handbook|guidelines?)\b|\b(?:sort out|deal with|handle|take care of|look after)\s+(?:(?:[\w-]+\s+){0,3}?[\w-]+['’]s\s+|(?:the|this|that)\s+)(?:e-?mails?|messages?|letters?|enquir(?:y|ies)|inquir(?:y|ies)|voicemails?)\b(?:(?<=['’]s\s+\S+)|\s+from\b)/i;

/**
 * The same hand-over in the other languages whose requests are read: "trata do que está nas notas",
 * "haz lo que pide el correo", "fai quello che c'è nella mail", "fais ce qui est dans la note",
 * "doe wat er in de mail staat", "erledige, was in der Notiz steht", "zrób to, co jest w notatce",
 * "ogarnij to, o co proszą", "gör det hon ber om", "ta punkterna", "rezolvă ce cere", "intézd, amit
 * kér", "uradi to što traži", "tee mitä hän pyytää";
 * and following a document's instructions or steps ("segue as instruções do e-mail").
 */
const DELEGATION_ELSEWHERE = new RegExp(
  [
    String.raw`(?<![\p{L}\p{N}])(?:trata|trate|faz|faça|faca|resolve|resolva|cuida|cuide)\s+(?:de\s+)?(?:tudo\s+)?(?:o\s+|do\s+|d[oa]\s+)?que\s+(?:(?:ele|ela|eles|elas|o cliente|a cliente|o hóspede|a hóspede|(?:[oa]\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?)\s+)?(?:está|esta|vem|diz|disse|pede|pedem|pediu|pediram|consta|estiver|quer|querem|mandou|escreveu)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:haz|haga|gestiona|gestione|encárgate de|ocúpate de|resuelve)\s+(?:todo\s+)?lo\s+que\s+(?:(?:él|el|ella|ellos|ellas|el cliente|la cliente|el huésped|(?:la\s+|el\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?)\s+)?(?:pone|dice|dijo|pide|piden|pidió|pidieron|está|esta|viene|indica|quiere|quieren|escribió)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:fai|faccia|sbriga|gestisci|occupati di|sistema)\s+(?:tutto\s+)?(?:quello|ciò|cio)\s+che\s+(?:(?:lui|lei|loro|il cliente|la cliente|(?:la\s+|il\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?)\s+)?(?:c['’]è|dice|ha detto|chiede|chiedono|ha chiesto|hanno chiesto|è scritto|indica|trovi|vuole|vogliono)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:fais|faites|traite|traitez|gère|gérez|occupe-toi de|occupez-vous de)\s+(?:tout\s+)?ce\s+qu(?:i|e|['’])\s*(?:(?:il|elle|ils|elles|le client|la cliente|(?:la\s+|le\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,5}?)\s+)?(?:est|dit|a dit|disent|demande|a demandé|demandent|il y a|indique|veut|veulent)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:doe|regel|handel)\s+(?:alles\s+)?wat\s+(?:er\s+)?(?:in|op|staat|vraagt|gevraagd)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:erledige|erledigen sie|mach|machen sie|bearbeite)\s*,?\s+(?:alles\s*,?\s+)?was\s+(?:in|im|auf|dort|darin|drin)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:zrób|zrob|zróbcie|zrobcie|załatw|zalatw|wykonaj|ogarnij|ogarnijcie)\s+(?:to|wszystko)\s*,?\s+(?:o\s+)?co\s+(?:(?:tam|tu|w\s+nim|w\s+niej|on|ona|oni|one)\s+)?(?:jest|stoi|pisze|piszą|napisano|napisał|napisała|napisali|każe|każą|prosi|proszą|prosił|prosiła|prosili|chce|chcą)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:vyřiď|vyrid|vyřiďte|vyridte|udělej|udelej|udělejte|udelejte|zařiď|zarid|zařiďte|zaridte)\s+(?:prosím\s+|prosim\s+)?(?:to\s*,?\s+)?(?:co|oč|oc|o\s+co)\s+(?:(?:\p{L}+\s+){0,4}?)(?:chce|chtějí|chteji|chtěj|chtej|chtěl|chtel|chtěla|chtela|píše|pise|psal|psala|žádá|zada|prosí|prosi|napsal|napsala)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:úkol\p{L}*|ukol\p{L}*|body|věci|veci)(?![\p{L}\p{N}])[^.!?]{0,100}?(?<![\p{L}\p{N}])(?:udělej|udelej|udělejte|udelejte|vyřiď|vyrid|splň|spln|proveď|proved)\s+(?:je|prosím\s+je|prosim\s+je|je\s+prosím|je\s+prosim|všechny|vsechny)(?![\p{L}\p{N}])`,
    // Romanian: "rezolvă ce cere dr. Lazăr", "fă ce scrie în mail".
    String.raw`(?<![\p{L}\p{N}])(?:rezolv[aă]|rezolvați|rezolvati|f[aă]|faceți|faceti|ocup[aă]-te\s+de|execut[aă])\s+(?:te\s+rog\s+)?(?:tot\s+)?(?:ce|ceea\s+ce)\s+(?:(?:[\p{L}.-]+\s+){0,4}?)(?:cere|cer|a\s+cerut|au\s+cerut|scrie|a\s+scris|spune|a\s+spus|vrea|vor|dorește|doreste|solicit[aă]|a\s+solicitat)(?![\p{L}\p{N}])`,
    // Hungarian: "intézd, amit kér", "csináld meg, amit írt".
    String.raw`(?<![\p{L}\p{N}])(?:intézd|intezd|intézze|intezze|intézzétek|intezzetek|csináld|csinald|csinálja|csinalja|rendezd|oldd|végezd|vegezd)(?:\s+(?:el|meg|le))?\s*,?\s+(?:azt\s*,?\s+)?(?:amit|amiket|ahogy|ami)\s+(?:(?:[\p{L}.-]+\s+){0,3}?)(?:kér|ker|kérnek|kernek|kért|kert|kérte|kerte|írt|irt|ír|ir|írnak|irnak|szeretne|szeretnének|szeretnenek|akar|akarnak|kíván|kivan)(?![\p{L}\p{N}])`,
    // Croatian, Serbian, Bosnian: "uradi to što traži", "sredi ono što piše u mailu".
    String.raw`(?<![\p{L}\p{N}])(?:uradi|uradite|učini|ucini|učinite|ucinite|sredi|sredite|riješi|rijesi|riješite|rijesite|reši|resi|rešite|resite|obavi|obavite|odradi|odradite)\s+(?:(?:to|ono|sve)\s*,?\s+)?(?:što|sto|šta|sta)\s+(?:(?:[\p{L}.-]+\s+){0,3}?)(?:traži|trazi|traže|traze|tražio|trazio|tražila|trazila|piše|pise|pišu|pisu|kaže|kaze|hoće|hoce|želi|zeli|žele|zele|moli|mole|navodi|je\s+napisao|je\s+napisala)(?![\p{L}\p{N}])`,
    // Finnish: "tee mitä hän pyytää", "hoida se, mitä Liisa kirjoitti".
    String.raw`(?<![\p{L}\p{N}])(?:tee|tehkää|tehkaa|hoida|hoitakaa|toimi)\s+(?:(?:se|ne)\s*,?\s+)?(?:mitä|mita|niin\s+kuin|kuten)\s+(?:(?:[\p{L}.-]+\s+){0,3}?)(?:pyytää|pyytaa|pyysi|pyytävät|pyytavat|haluaa|halusi|haluavat|sanoo|sanoi|kirjoittaa|kirjoitti|käskee|kaskee|toivoo|toivoi)(?![\p{L}\p{N}])`,
    // Turkish: "ne istiyorsa hallet", "ne yazdıysa onu yap".
    String.raw`(?<![\p{L}\p{N}])ne\s+(?:istiyorsa|istiyosa|istiyorlarsa|diyorsa|diyosa|yazdıysa|yazdiysa|yazmışsa|yazmissa)\s+(?:onu\s+|onları\s+|onlari\s+)?(?:hallet|halledin|yap|yapın|yapin|ayarla|ayarlayın)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:zgodnie\s+z|według|wedlug|wg|tak\s+jak\s+(?:jest\s+)?w)\s+(?:naszym\s+|naszymi\s+)?(?:regulamin\p{L}*|procedur\p{L}*|zasad\p{L}*)|(?:enligt|ifølge|iflg\.?|i henhold til)\s+(?:vår|våra|vores|vår|våre|den|de)?\s*(?:policy|policyn|rutin\p{L}*|regl\p{L}*|retningslinj\p{L}*|riktlinj\p{L}*)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:gör|gjør|gør|fixa|ordna|ta hand om|tag dig af|ta deg av)\s+(?:det|allt|alt)\s+(?:som\s+)?(?:hon|han|de|dom|dei|kunden|\p{Lu}[\p{L}-]*(?:\s+(?:på|i|fra|från|hos|ved|vid)\s+\p{Lu}[\p{L}-]*)?)\s+(?:ber om|bad om|beder om|bede om|vill|vil|skriver|skrev|skriv|frågar efter|spør om|spørger om|begär|ønsker|önskar)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:ta|tag|gör|gjør|gør|fixa|beta av|bocka av|utför|utfør|udfør|följ|følg)\s+(?:alla\s+|alle\s+)?(?:punkterna|punktene|punkterne|uppgifterna|oppgavene|opgaverne|instruktionerna|instruksjonene|instruktionerne|stegen|stegene|trinene|att-göra-listan|to-do-listan|to-do-listen)(?![\p{L}\p{N}])`,
    String.raw`(?<![\p{L}\p{N}])(?:segue|siga|sigue|segui|seguite|suis|suivez|volg|befolge|folge|postępuj według|wykonaj)\s+(?:(?:as|os|las|los|le|gli|les|de|die|den)\s+)?(?:instruções|instrucoes|passos|tarefas|instrucciones|pasos|tareas|istruzioni|passaggi|compiti|instructions|étapes|tâches|instructies|stappen|taken|anweisungen|schritte|aufgaben|instrukcje|instrukcji|polecenia|kroki)(?![\p{L}\p{N}])`,
  ].join('|'),
  'iu',
);
const NEGATED_BEFORE = /(?<![\p{L}\p{N}])(?:não|nao|no|non|ne|nu|nem|älä|ala|pas|niet|nicht|nie|don['’]?t)\s+(?:\S+\s+)?$/iu;

/**
 * "I left a message on ticket 70331 about swapping my rug. Can you sort it out?", "Mme Daniel a
 * envoyé son nouveau RIB, tu peux t'en occuper ?": handling "it", after the request has spoken of
 * a message someone sent, hands that message over as naming it would.
 */
const HANDLE_IT =
  /(?<![\p{L}])(?:sort (?:it|this|that|them) out|sort out (?:it|this|that|them)|deal with (?:it|this|that|them)|take care of (?:it|this|that|them)|handle (?:it|this|that|them)|do them|(?:t['’]en|vous en|s['’]en) occuper|kümmere? dich (?:bitte )?d(?:a)?rum|kümmern sie sich (?:bitte )?d(?:a)?rum|trata disso|cuida disso|encárgate de eso|ocúpate de eso|occupatene|hallet|halledin|halleder misin)(?![\p{L}])/iu;
const MESSAGE_SENT =
  /(?<![\p{L}])(?:message|e-?mail|mail|ticket|letter|voicemail|wrote|sent|emailed|e-mailed|texted|messaged|instructions|tasks|courriel|lettre|courrier|consignes|geschrieben|nachricht|teamchat|yazmış|yazmis|mesaj|mensagem|mandou|escribió|scritto|a (?:envoyé|écrit|laissé|mis)|ont (?:envoyé|écrit|laissé|mis))(?![\p{L}])/iu;

/** Whether the request hands its actions to a document (see DELEGATION, DELEGATION_ELSEWHERE and HANDLE_IT). */
export function delegatesTasks(prose: string, opts: IntentOptions): boolean {
  const text = prose.slice(0, 4_000);
  const it = HANDLE_IT.exec(text);
  if (it && MESSAGE_SENT.test(text.slice(0, it.index)) && !NEGATED_BEFORE.test(text.slice(Math.max(0, it.index - 40), it.index)))
    return true;
  for (const clause of text.split(/[;!?\n]|\.(?=\s|$)/)) {
    const m = DELEGATION.exec(clause);
    if (m && !negatedAt(clauseWords(clause), words(clause.slice(0, m.index)).length, opts.verbOf)) return true;
    const other = DELEGATION_ELSEWHERE.exec(clause);
    if (other && !NEGATED_BEFORE.test(clause.slice(Math.max(0, other.index - 40), other.index))) return true;
  }
  return false;
}

/**
 * Whether the request leaves a value to what someone asked for in the data it points to: "change it
 * to whatever address they gave", "send them wherever she said", "book it the way he has it",
 * "plan the pickup as he asks" (and the same in the languages read here). The orders of that read
 * that ask for the request's own action are then the request's (provenance.ts, valueSource).
 */
export function defersValues(request: string): boolean {
  return DEFERS.test(request.slice(0, 4_000));
}
const DEFERS = new RegExp(
  [
    String.raw`\b(?:whatever|wherever|whichever|however|whenever)\b(?:\s+[\w'’-]+){0,3}?\s+(?:he|she|they|it|\w+)\s+(?:said|says|asked|asks|gave|gives|wants|wanted|wrote|writes|requested|specified|listed|put|mentioned|sent|has|had|indicated|chose|picked|named|needs|needed|suggested|proposed)\b`,
    String.raw`\bthe way (?:he|she|they|it|\w+) (?:has|had|wants|wanted|wrote|asked|said|put)\b`,
    // "Update the mandate with what she sent", "set her bank details to what she said".
    String.raw`\b(?:with|to|as|per|from|using|into)\s+what\s+(?:he|she|they|\p{Lu}[\p{L}'’-]*)\s+(?:said|says|sent|sends|gave|gives|wrote|writes|emailed|e-mailed|texted|asked for|wants|wanted|put|provided|supplied|asked|told us|gave us)\b`,
    // "… emailed which account her deposit should go to. Pay it to that account": the same noun, named again by "that".
    String.raw`(?<![\p{L}\p{N}])(?:which|welk|welke|quale|quali|quel|quelle|quels|cuál|cual|cuáles|qual|quais|welche[rsnm]?|jaki|jakie|jaką|który|którą)\s+(?:[\p{L}-]+\s+){0,1}?([\p{L}]{4,})(?![\p{L}\p{N}])[^?!]{0,160}?(?<![\p{L}\p{N}])(?:that|this|dat|dit|die|deze|quel|quello|quella|questo|questa|ce|cet|cette|ese|esa|este|esta|esse|essa|este|dieses|diese|diesen|dem|das|ten|tę|ta)\s+(?:[\p{L}-]+\s+)?(?:\p{L}*(?:nummer|number|numero|número|account|rekening|conto|compte|cuenta|conta|konto|adres|address|indirizzo|adresse|dirección|endereço|adres|iban))(?![\p{L}\p{N}])`,
    String.raw`\b(?:as|like) (?:he|she|they|it|the \w+|\w+) (?:asked|asks|said|says|requested|specified|wrote|writes|wants|wanted|wishes|wished|instructed|described|indicated|suggested)\b`,
    // "I emailed ye with my new bank details … switch my direct debit over to that account": the details the writer sent.
    String.raw`\b(?:emailed|e-mailed|sent|wrote|texted|messaged|posted)\b[^.?!]{0,80}?\b(?:new|updated|changed|other)\s+(?:bank\s+details|bank\s+account|account|address|number|iban|details)\b[^?!]{0,160}?\b(?:that|this|the new)\s+(?:account|address|number|iban|one|details)\b`,
    // "… wrote to whom we should send it. Send it there." The place is the one the data names.
    String.raw`(?<![\p{L}\p{N}])(?:where|to whom|wohin|an wen|para onde|a quem|dove|a chi|où|à qui|waarheen|naar wie|adónde|a quién|dokąd|do kogo)(?![\p{L}\p{N}])[^.?!]{0,120}[.,;]?\s*[^.?!]{0,80}?(?<![\p{L}\p{N}])(?:there|dorthin|dahin|para lá|là-bas|lì|daarheen|allí|allá|tam)(?![\p{L}\p{N}])`,
    String.raw`\b(?:zoals|come|comme|como|wie)\s+(?:hij|zij|ze|lui|lei|loro|il|elle|ils|elles|él|ella|ellos|ellas|ele|ela|eles|elas|er|sie|o cliente|il cliente|le client|el cliente|de klant|der kunde)\s+(?:\S+\s+)?(?:vraagt|vragen|vroeg|wil|willen|wilde|wenst|wensen|aangeeft|aangeven|chiede|chiedono|ha chiesto|hanno chiesto|vuole|vogliono|desidera|desiderano|indica|indicano|demande|demandent|a demandé|ont demandé|demandé|veut|veulent|souhaite|souhaitent|désire|désirent|indique|indiquent|desea|desean|deseja|desejam|pide|piden|pidió|pidieron|quiere|quieren|indican|pede|pedem|pediu|pediram|quer|querem|wünscht|wünschen|will|wollen|möchte|möchten|schreibt|schreiben|angibt|angeben)(?![\p{L}\p{N}])`,
    String.raw`\b(?:zoals|come|comme|como|wie)\s+(?:(?:le|lo|la|es|het)\s+)?(?:vraagt|chiede|ha chiesto|vuole|indica|demande|veut|indique|pide|quiere|pede|quer|wünscht|gevraagd|richiesto|demandé|pedido|gewünscht)(?![\p{L}\p{N}])`,
    // "podle toho, co chtějí v poznámkách", "jak si přeje": as they want it, in Czech.
    String.raw`(?<![\p{L}\p{N}])(?:podle\s+toho,?\s+(?:co|jak)|jak)\s+(?:(?:si|to|tam|v\s+\p{L}+)\s+){0,2}(?:chce|chtějí|chteji|chtěj|chtej|chtěl|chtel|chtěla|chtela|přeje|preje|přejí|preji|píše|pise|píšou|pisou|napsal|napsala|žádá|zada|uvedl|uvedla|uvádí|uvadi)(?![\p{L}\p{N}])`,
    String.raw`\b(?:qualunque|qualsiasi|quel(?:lo|la)? che|ce qu['’]|lo que|o que|wat)\s+(?:\S+\s+){0,2}(?:ha indicato|ha chiesto|indica|chiede|a indiqué|a demandé|indique|demande|indicó|pidió|indica|pide|indicou|pediu|aangeeft|vraagt|heeft gevraagd|opgeeft|doorgeeft)(?![\p{L}\p{N}])`,
  ].join('|'),
  'iu',
);
