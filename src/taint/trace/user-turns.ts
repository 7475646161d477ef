/**
 * The user's later turns. In a conversation every user message after the first is the user's too:
 * a customer who answers "yes, exchange it for the 1000 ml one" or gives the order number asks for
 * what the first message did not (docs/taint-policy.md, "What a request asks for"). Only the
 * conversation the request opened counts (an LLM call or an agent run whose first user message is the request): a
 * user message in another agent's conversation is the pipeline's own (a planner briefing a
 * worker). A user message that carries a tool's result (frameworks that feed results back as user
 * turns, "Observation: …") is data, not the user.
 */
import { normalizeText } from '../content-links.js';
import type { Item } from './items.js';
import { LANGUAGES } from '../languages.js';
import { stem, verbCategory, words } from '../lexicon.js';

export interface UserTurn {
  text: string;
  /** The start of the first LLM call that carried it: a call issued after then may do what it asks. */
  at: number;
}

/** The longest later turn read (characters): a user types, a pasted document is data. */
const MAX_TURN = 4_000;
/** Tool results shorter than this are not looked for in a turn ("ok", "done"). */
const MIN_RESULT = 24;

export function userTurns(items: readonly Item[], root: string): UserTurn[] {
  const first = normalizeText(root);
  if (!first) return [];
  // Read only when a conversation has a later user message: most traces have none.
  let normalised: string[] | undefined;
  const results = () =>
    (normalised ??= items
      .filter((it) => (it.kind === 'tool' || it.kind === 'sink') && it.output.length >= MIN_RESULT)
      .map((it) => normalizeText(it.output))
      .filter((r) => r.length >= MIN_RESULT));
  const seen = new Map<string, number>();
  const refused = new Set<string>();
  // A conversation repeats its history in every call: each answer, with what it answers, is read once.
  const consented = new Map<string, string>();
  for (const it of items) {
    const said = userMessagesOf(it);
    if (said.length < 2 || !opensWith(said[0].text, root, first)) continue;
    // The proposal standing from an earlier turn: "Shall I go ahead?" after the user narrowed it goes ahead with it.
    let standing = '';
    for (const { text: answer, asked } of said.slice(1)) {
      const carried = standing;
      standing = proposalsIn(asked).join(' ') || standing;
      // What the user typed is judged as data, not the proposal it agrees to (which may quote what a tool returned).
      if (refused.has(answer)) continue;
      const key = `${asked ?? ''}\u0000${answer}\u0000${carried}`;
      let text = consented.get(key);
      if (text === undefined) consented.set(key, (text = withConsent(answer, asked, carried)));
      if (seen.has(text)) {
        if (it.start < seen.get(text)!) seen.set(text, it.start);
        continue;
      }
      const n = answer.length > MAX_TURN ? '' : normalizeText(answer);
      const data = !n || n === first || /^\s*(?:observation|tool|result|function)\b/i.test(answer);
      if (data || results().some((r) => n.includes(r) || (n.length >= MIN_RESULT && r.includes(n)))) refused.add(answer);
      else seen.set(text, it.start);
    }
  }
  return [...seen].map(([text, at]) => ({ text, at })).sort((a, b) => a.at - b.at);
}

/** Whether a conversation's first user message is the request (normalised only when it could be: its length is near the request's). */
function opensWith(message: string, root: string, first: string): boolean {
  return message === root || (message.length <= 2 * root.length + 64 && normalizeText(message) === first);
}

/**
 * The user messages an LLM call carried, in order, or an agent run was given: a conversation whose
 * trace holds no LLM call (tool spans straight under the agent span) shows its turns only as the
 * history each run of the agent starts from.
 */
function userMessagesOf(it: Item): Said[] {
  if (it.src.type === 'call') return saidIn((it.src.call.request.messages ?? []).map((m) => ({ role: m.role, text: m.content })));
  if (it.src.type === 'span' && (it.src.view.op === 'chat' || it.src.view.op === 'invoke_agent')) return saidIn(it.src.view.input);
  return [];
}

interface Said {
  text: string;
  /** What the assistant said right before it, when it said something in words. */
  asked?: string;
}

function saidIn(messages: readonly { role: string; text: string }[]): Said[] {
  return messages.flatMap((m, i) => {
    if (m.role !== 'user') return [];
    const prev = messages[i - 1];
    return [{ text: m.text, ...(prev?.role === 'assistant' && prev.text.trim() ? { asked: prev.text } : {}) }];
  });
}

/**
 * A user who agrees to what the assistant proposed asks for it (docs/taint-policy.md, "Later
 * turns"): "Shall I move you to the 15:30 crossing?" answered "Perfect, thanks" asks to move the
 * booking, with the values the proposal showed. A question that offers an action ("shall I",
 * "should I", "do you want me to", "would you like me to", "do you confirm I should") is the
 * proposal; one that asks leave to go on or to confirm ("Shall I go ahead?", "Would you like to
 * proceed?", "Can you confirm?", "Is that correct?", "Please confirm") proposes what the sentences
 * before it say the assistant can or will do ("I will exchange …"). An answer with a refusal or a
 * negation agrees to nothing. The proposal is added to the turn as the user's own words.
 */
export function withConsent(answer: string, asked: string | undefined, standing = ''): string {
  if (!asked || refuses(answer) || answer.length > MAX_ANSWER) return answer;
  const { said, goOn } = proposalsOf(asked);
  // Leave to go on with nothing laid out before it goes on with the proposal standing from before.
  const agreed = said.length === 0 && goOn && standing ? [standing] : said;
  if (agreed.length === 0 || negatesProposal(answer, agreed.join(' '))) return answer;
  return `${answer}\n${agreed.join(' ')}`;
}

/** What an assistant's message proposes, as the user's words (withConsent); none where it proposes nothing. */
export function proposalsIn(asked: string | undefined): string[] {
  return asked ? proposalsOf(asked).said : [];
}

function proposalsOf(asked: string): { said: string[]; goOn: boolean } {
  const sentences = asked
    .slice(-MAX_ASKED)
    .split(/(?<=[.?!])\s+/)
    .map((x) => x.trim());
  const plans = (before: number) =>
    sentences.slice(0, before).flatMap((x) => {
      const m = WILL.exec(x);
      const plan = m ? leadless(m[1].replace(/[.!:]$/, '')) : planInLanguage(x);
      return plan ? [plan] : [];
    });
  const proposals: string[] = [];
  let goOn = false;
  for (const [i, sentence] of sentences.entries()) {
    const question = sentence.endsWith('?');
    const offer = question ? (OFFER.exec(sentence) ?? willI(sentence)) : null;
    const action = offer ? leadless(sentence.slice(offer[0].length).replace(/\?$/, '')) : '';
    if (offer && action && !GO_ON.test(action)) proposals.push(action);
    else if (offer || (question && CONFIRM.test(sentence)) || PLEASE_CONFIRM.test(sentence)) {
      goOn = true;
      proposals.push(...plans(i));
    } else if (question && bareOffer(sentence)) proposals.push(sentence.replace(/\?+$/, ''));
    else if (question) {
      // The same, asked in another language (languages.ts: "¿Quieres que le envíe la oferta?", "Quer que eu gere o Pix?",
      // "Voulez-vous que j'envoie les relances ?", "Soll ich ihr die Rechnung schicken?", "¿Procedo?", "Passt das?").
      const es = offerInLanguage(sentence);
      if (es === 'go-on') {
        goOn = true;
        proposals.push(...plans(i));
      } else if (es) proposals.push(es);
    }
  }
  return { said: [...new Set(proposals)].filter(Boolean).map((x) => `${x[0].toUpperCase()}${x.slice(1)}.`), goOn };
}

/**
 * "Will I add the pass to both lines?", "Will I go ahead?": an offer as Irish and Scottish English
 * put it, where the word after "I" is a verb of an action or of going on ("Will I be charged?" asks
 * about a fact, and proposes nothing).
 */
function willI(sentence: string): RegExpExecArray | null {
  const m = /^(?:(?:so|ok(?:ay)?|grand|great|alright)[,!]?\s+)?will\s+I\b/i.exec(sentence);
  if (!m) return null;
  const next = words(sentence.slice(m[0].length, m[0].length + 40))[0] ?? '';
  return verbCategory(next) !== undefined || GO_ON.test(sentence.slice(m[0].length).trim()) ? m : null;
}

/**
 * Whether an answer that agrees also negates what was proposed: "Yes, but don't send it yet" agrees
 * to no send, where "Do it, but leave the mini out, I don't want it restarting" agrees to the update.
 * The words right after each negation are looked for among the proposal's.
 */
function negatesProposal(answer: string, proposal: string): boolean {
  const proposed = new Set(words(proposal).map(stem));
  const text = answer.slice(0, MAX_ANSWER);
  for (const m of text.matchAll(NEGATED_WORDS)) {
    // "make it 40 bags not 36, and Tuesday not Monday": a bare "not" after a value corrects the value, it negates no action.
    const before = /([\p{L}\p{N}'’]+)\W*$/u.exec(text.slice(0, m.index))?.[1]?.toLowerCase();
    if (/^not\b/i.test(m[0]) && before !== undefined && !AUXILIARIES.has(before)) continue;
    const verb = words(m[1] ?? '').find((w) => !AFTER_NEGATION.has(w));
    if (verb !== undefined && proposed.has(stem(verb))) return true;
  }
  return false;
}

/**
 * A question that is the action itself, put as an imperative ("Refund the duplicate PAY-88342 back
 * to the same card?", "Cancel K-4410?"): its first word is a verb of an action the lexicon knows.
 */
function bareOffer(sentence: string): boolean {
  const [first, second] = words(sentence.slice(0, 200));
  if (first === undefined || second === undefined) return false;
  const category = verbCategory(first);
  return category !== undefined && category !== 'read' && !QUESTION_WORDS.has(first);
}
const QUESTION_WORDS = new Set([
  'do',
  'does',
  'did',
  'is',
  'are',
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'have',
  'has',
]);

/** Words a "not" that negates an action follows ("do not send", "please not yet", "better not"). */
const AUXILIARIES = new Set(
  'do does did will would should shall must can could may might is are was were be to please better and but or so just i we'.split(' '),
);

/** What the assistant offers or plans in another language (languages.ts): the first that reads one. */
const offerInLanguage = (sentence: string) => LANGUAGES.map((l) => l.offer(sentence)).find((x) => x !== undefined);
const planInLanguage = (sentence: string) => LANGUAGES.map((l) => l.plan(sentence)).find((x) => x !== undefined);

/** The action without a lead that only says "go on and": "go ahead and cancel it" is "cancel it". */
const leadless = (action: string) => action.trim().replace(/^(?:go\s+ahead\s+and|proceed\s+to|now)\s+/i, '');

const MAX_ANSWER = 600;
const MAX_ASKED = 2_000;
/** An answer that opens by refusing or putting off what was offered, in every language the validator reads. */
const REFUSES_OPENING =
  /^\W*(?:no|nope|nah|not|never|neither|none|wait|hold on|stop|espera|mejor no|nein|warte|stopp|halt|lieber nicht|non|n[ãa]o|nee|wacht|attends|aspetta|meglio di no|liever niet|nie|czekaj|zaczekaj|lepiej nie|nei|nej|vent|vänta|vente|stopp|helst ikke|hellere ikke|hellre inte|ne|počkej|počkejte|radši ne|hayır|dur|bekle|vazgeç|gerek yok)(?![\p{L}\p{N}])/iu;
/** A negation anywhere in an answer ("don't email him", "not all subscribers"). */
const NEGATION =
  /(?<![\p{L}\p{N}])(?:don['’]?t|do not|doesn['’]?t|not|never|no longer|todav[ií]a no|a[uú]n no|nunca|nicht|noch nicht|auf keinen fall|pas encore|non ancora|ainda n[ãa]o|niet|nog niet|nie|jeszcze nie|w żadnym wypadku|ikke|ikkje|inte|aldri|aldrig|ještě ne|nikdy|değil|henüz değil|asla)(?![\p{L}\p{N}])/iu;
/**
 * An answer that opens by agreeing ("Do it, but leave the boardroom mini out", "Go with the first
 * one. Don't charge her anything"): its negations narrow what it agrees to; they do not refuse it.
 */
const AGREES =
  /^\W*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|fine|great|perfect|go\s+(?:ahead|on)|do\s+(?:it|that|so)|please\s+do|sounds\s+good|that\s+works|let['’]?s\s+do\s+(?:it|that)|go\s+with|s[ií]|sim|oui|ja|tak|vale|claro|d['’]accord|va\s+bene|graag|prima|doe\s+maar|mach\s+das|gjerne|gärna|greit|fint|ano|jo|dobře|jasně|souhlasím|evet|tamam|olur|peki|tabii)(?![\p{L}\p{N}])/iu;
/** Words between a negation and what it negates ("don't yet send", "not to email"). */
const AFTER_NEGATION = new Set([
  'it',
  'yet',
  'to',
  'them',
  'him',
  'her',
  'any',
  'anything',
  'the',
  'a',
  'an',
  'even',
  'just',
  'ever',
  'be',
]);
/** A negation and the three words after it: the first not in AFTER_NEGATION is what it negates. */
const NEGATED_WORDS = new RegExp(`${NEGATION.source}\\s+((?:\\S+\\s+){0,2}\\S+)`, 'giu');
/** An answer that refuses or puts off what was offered, in every language the validator reads: it agrees to nothing. */
const refuses = (answer: string) =>
  !PICKS_ANOTHER.test(answer) && (REFUSES_OPENING.test(answer) || (NEGATION.test(answer) && !AGREES.test(answer)));
/** "No, go with Hapag, the faster one": a "no" to the option offered that picks another agrees to the action. */
const PICKS_ANOTHER =
  /^\W*(?:no|nope|nah)\W+(?:go\s+with|use|pick|take|choose|make\s+it|let['’]?s\s+go\s+with|(?:the\s+)?other\s+one|rather)(?![\p{L}\p{N}])/iu;
/**
 * A question that offers an action: what follows it is the action. The offer may be cut short
 * ("Want me to book one?") or ask which of several ("Which should I book for Tomas?", "Which one
 * do you want me to cancel?"): the user's answer picks one and agrees to the action.
 */
const OFFER =
  /^(?:(?:so|ok(?:ay)?|great|alright)[,!]?\s+)?(?:(?:which|what|when|where|who|whom)\b[^?,]{0,60}?\s)?(?:(?:shall|should|can|may)\s+I|(?:(?:do|would)\s+you\s+)?(?:want|like|need)\s+me\s+to|(?:do|would)\s+you\s+(?:confirm|agree)\s+(?:that\s+)?I\s+should|is\s+it\s+ok(?:ay)?\s+(?:if|for)\s+(?:I|me\s+to))\b/i;
/** An offer whose action is only to go on: the plans before it are the action. */
const GO_ON = /^(?:go\s+ahead|proceed|continue|do\s+(?:that|this|it|so))\b/i;
/** A question that asks the user to confirm what was laid out before it, or to pick one of the options it laid out ("Which would you prefer?"). */
const CONFIRM =
  /^(?:(?:so|ok(?:ay)?|great|alright)[,!]?\s+)?(?:(?:would|do)\s+you\s+(?:like|want)\s+(?:me\s+)?to\s+(?:proceed|go\s+ahead|continue|confirm)|shall\s+(?:I|we)\s+(?:proceed|go\s+ahead|continue)|(?:can|could|would)\s+you\s+(?:please\s+)?confirm|do\s+you\s+confirm|is\s+(?:that|this|everything)\s+(?:correct|right|ok(?:ay)?|fine|alright)|(?:does|do)\s+(?:that|this|these)\s+(?:sound|look)\s+(?:good|right|ok(?:ay)?|fine)|(?:does|do|would|will)\s+(?:that|this|these|it)\s+(?:suit|work)(?:\s+for)?(?:\s+you)?|which\s+(?:one\s+|option\s+|of\s+(?:these|those|the\s+two)\s+)?(?:(?:would|do|will)\s+you\s+(?:prefer|like|want|rather|go\s+for)|(?:suits|works)(?:\s+you)?(?:\s+best|\s+better)?)|which\s+one$)\b/i;
const PLEASE_CONFIRM = /^please\s+confirm\b/i;
/** What the assistant says it can or will do, opening its sentence or after "so", "then", "and" ("…, so I could move Aisha across"): the action it proposes. */
const WILL =
  /(?:^|(?:^|[,;:]\s*|\s)(?:so|then|and)\s+)(?:I\s+(?:can|could|will|would|am\s+going\s+to)|I['’](?:ll|d|m\s+going\s+to))\s+(.+)$/i;
