/**
 * Requests and tools written in German (docs/taint-policy.md, "Requests in German"). The English
 * parse finds no verb in "Schick Frau Maier bitte die Rechnung" or "Bitte den Termin eintragen",
 * and so asks for nothing: every call of a German-speaking team would be blocked as unasked. This
 * reads German by where its verbs stand: first in a clause (the imperative, "Schick …", "Senden Sie
 * …", with a separable particle at the clause's end: "Trag den Termin ein"), or last as an
 * infinitive ("Bitte den Termin eintragen", "Kannst du ihr die Rechnung schicken?"). A negated
 * clause ("noch nicht abschicken"), a question that opens with a question word ("Wann kommt …?"),
 * an indirect one after "ob", and replies to the user ("schick mir …") ask for nothing. What a verb
 * asks for is one of the lexicon's categories, so a German request and an English tool, or the
 * reverse, meet on the same labels.
 */
import { wordSet, type Category, type ObjectKind } from './lexicon.js';
import { functionWordCounts, readsAsSpanish } from './spanish.js';

/**
 * One spelling for a German word, whether written with umlauts, with their two-letter forms, or with
 * the umlaut's marks lost ("Überweisung", "ueberweisung", "uberweisung" are "uberweisung"); "ß" is "ss".
 */
export function canonicalGerman(word: string): string {
  return word
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([aou])e/g, '$1');
}

/** The words of a text, each in its one spelling (canonicalGerman). */
export function germanWords(text: string): string[] {
  return (text.match(/[\p{L}\p{M}]+/gu) ?? []).map(canonicalGerman);
}

const GERMAN_FUNCTION = wordSet(
  'der die das und ist nicht ein eine einen einem einer dem des mit für von zu auf im bitte sie wir ich auch noch oder bei nach über vom zum zur wird werden kann kannst können soll sind haben diese dieser ihr ihre ihren ihm ihn uns mir den um ja nein doch mal sein seine seinen herr herrn frau',
);
const ENGLISH_FUNCTION = wordSet(
  'the of and to is for on with that this it my be are at by from please me you your our we was were have has will would can could should',
);

/**
 * Whether a text is written in German: more of its function words are German than English, one at
 * least (a request may be a few words: "Schick Frau Maier bitte die Rechnung"), and it is not
 * Spanish (spanish.ts); its first 4,000 characters.
 */
export function readsAsGerman(text: string): boolean {
  const n = functionWordCounts(text, GERMAN_FUNCTION, ENGLISH_FUNCTION);
  return n.own >= 1 && n.own > n.english && !readsAsSpanish(text);
}

/**
 * Verbs by the action they name: `particle|stem` for a separable verb ("ein|trag": eintragen, "trag
 * … ein"), a bare stem otherwise, and `/` before the stem a strong verb's imperative takes ("frei|geb/gib").
 * Stems in their one spelling (canonicalGerman: "uberweis", "andr" for ändern is "ander").
 */
const STEMS: Record<Category, string> = {
  read:
    'such durch|such find pruf uber|pruf nach|seh/sieh an|zeig zeig les/lies ab|ruf hol auf|list list schau an|schau nach|schau ' +
    'an|seh/sieh check offn berechn zusammen|fass ermittel kontrollier vergleich herunter|lad recherchier ab|frag',
  send:
    'send schick verschick versend ab|schick ruber|schick heruber|schick zu|schick zu|send raus|schick weiter|leit antwort beantwort benachrichtig ' +
    'informier mit|teil schreib an|schreib meld mail an|ruf erinner mahn',
  share: 'teil frei|geb/gib ein|lad/lad berechtig gewahr',
  publish: 'veroffentlich aus|hang online|stell hoch|lad',
  pay: 'zahl bezahl uberweis erstatt ruck|erstatt zuruck|erstatt zuruck|zahl aus|zahl begleich an|weis gut|schreib ' + 'ab|buch ein|zieh',
  book: 'buch reservier vereinbar ein|plan plan terminier ein|buch',
  change:
    'ander an|pass aktualisier ein|trag/trag fest|halt/halt erfass an|leg erstell beauftrag vergeb/vergib erteil aktivier deaktivier ' +
    'sperr entsperr genehmig ab|lehn markier setz verschieb bestatig speicher notier vermerk hinterleg beantrag ' +
    'ein|reich bestell aus|fuhr ab|schliess schliess um|buch verlanger korrigier erhoh reduzier zu|weis verbuch ' +
    'erledig erganz an|hang um|hang hinzu|fug eroffn reparier tausch aus|tausch ersetz auf|nehm/nimm stell ein|stell',
  delete: 'losch entfern stornier kundig ab|sag auf|heb widerruf annullier streich ab|meld entzieh',
  exec: 'installier',
};

interface Entry {
  category: Category;
  particle?: string;
}
interface GermanForm extends Entry {
  /** The infinitive ("senden", "eintragen"), where a finite form is not. */
  infinitive: boolean;
}

/** The infinitive ending of a stem: "ander" + "n", "aktualisier" + "en". */
const infinitiveOf = (stem: string) => (/(?:[^i]er|el)$/.test(stem) ? `${stem}n` : `${stem}en`);

/** Every form of every stem, to the entries it can be: the infinitive, the imperative and the present ("sende", "sendet", "senden Sie"). */
const FORMS: Map<string, GermanForm[]> = (() => {
  const out = new Map<string, GermanForm[]>();
  const add = (form: string, f: GermanForm) => out.set(form, [...(out.get(form) ?? []), f]);
  for (const [category, list] of Object.entries(STEMS) as [Category, string][])
    for (const item of list.split(' ')) {
      const [head, strong] = item.split('/');
      const [particle, stem] = head.includes('|') ? head.split('|') : [undefined, head];
      const entry = { category, ...(particle ? { particle } : {}) };
      const inf = infinitiveOf(stem);
      add(inf, { ...entry, infinitive: true });
      if (particle) add(`${particle}${inf}`, { category, infinitive: true });
      if (particle) add(`${particle}zu${inf}`, { category, infinitive: true });
      for (const s of strong ? [stem, strong] : [stem])
        for (const ending of ['', 'e', 't', 'et', 'st', 'est'])
          if (!out.get(s + ending)?.some((x) => !x.infinitive && x.category === category)) add(s + ending, { ...entry, infinitive: false });
    }
  return out;
})();

/** Nouns that say what an action acts on, by the lexicon's object kinds: a compound by its last noun ("Mietrückzahlung" is a payment, "Mietern" no rent). */
const OBJECTS: Partial<Record<ObjectKind, string[]>> = {
  money: [
    'geld',
    'betrag',
    'rechnung',
    'zahlung',
    'uberweisung',
    'euro',
    'miete',
    'kaution',
    'gutschrift',
    'erstattung',
    'gebuhr',
    'rate',
    'lastschrift',
  ],
  message: [
    'mail',
    'nachricht',
    'sms',
    'brief',
    'bestatigung',
    'erinnerung',
    'antwort',
    'mitteilung',
    'einladung',
    'info',
    'schreiben',
    'benachrichtigung',
    'rundschreiben',
  ],
  access: ['zugang', 'zugriff', 'berechtigung', 'rolle', 'schlussel'],
  booking: ['termin', 'reservierung', 'buchung', 'besichtigung'],
  publication: ['aushang', 'beitrag', 'bewertung', 'anzeige'],
};

export function germanObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  const heads = ws.map((w) => w.replace(/(?:en|n|s|e)$/, ''));
  for (const [k, nouns] of Object.entries(OBJECTS) as [ObjectKind, string[]][])
    if (ws.some((w, i) => nouns.some((n) => w.endsWith(n) || heads[i].endsWith(n)))) out.add(k);
  return out;
}

/** Words that lead into a clause's verb without changing it: "Bitte schick …", "Und dann trag … ein". */
const LEAD_IN = wordSet(
  'bitte und dann auch noch jetzt ausserdem danach zuerst anschliessend gleich einfach mal doch kurz ja ok okay gerne also zusatzlich bitteschon',
);
/** Words that open a question about things ("Wann kommt …?", "Gibt es …?"): it asks for nothing. */
const QUESTION_WORDS = wordSet(
  'was wer wen wem wessen wann wo wie welche welcher welches welchen welchem wieso warum weshalb wieviel wieviele wohin woher gibt ist sind hat haben war waren',
);
const NEGATORS = new Set(['nicht', 'nie', 'niemals', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'ohne']);
/** "Schick mir …", "sag uns …": a reply to the user, as "tell me" is. */
const TO_USER = new Set(['mir', 'uns']);

export interface GermanAction {
  category: Category;
  /** The words of the clause besides the verb, for its objects. */
  after: string[];
  /** The words that asked, for the evidence. */
  words: string;
}

/** The actions a German request asks for, clause by clause (see the file's comment). */
export function germanActions(prose: string): GermanAction[] {
  const out: GermanAction[] = [];
  // A day's number with its point ("am 14. Mai") ends no sentence.
  for (const sentence of prose.replace(/(?<!\b\d{1,2})\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const all = germanWords(sentence);
    if (all.length === 0 || (sentence.trim().endsWith('?') && QUESTION_WORDS.has(all[0]))) continue;
    const parts = sentence.split(/,\s*|\s[-–—]\s|\s+(?:und|dann|sowie|danach|anschließend|anschliessend)\s+/i);
    for (const [at, part] of parts.entries()) {
      const raw = part.match(/[\p{L}\p{M}]+/gu) ?? [];
      const ws = raw.map(canonicalGerman);
      if (ws.length === 0 || ws.some((w) => NEGATORS.has(w))) continue;
      // A separable verb's particle may close one of the next parts of the sentence, after an apposition ("Trag mir am Dienstag, 14. Mai, eine Besprechung ein").
      const later = parts.slice(at + 1, at + 4).map((p) => germanWords(p).at(-1));
      for (const a of [...verbFirst(ws, raw, [all.at(-1), ...later]), ...verbLast(ws)])
        if (!(a.category === 'send' && ws.some((w) => TO_USER.has(w)))) out.push(a);
    }
  }
  return out;
}

/**
 * Verbs that carry no action of their own ("kümmer dich um sein Geld", "mach die Erstattung", "gib
 * ihm Bescheid"): the noun after them says it, by its last part ("Rückerstattung" is a refund).
 */
const LIGHT = /^(?:kummer|kummere|kummern|kummert|mach|mache|machen|macht|gib|geb|gebe|geben|sag|sage|sagen)$/;
const ACTION_NOUNS: [string, Category][] = [
  ['bescheid', 'send'],
  ['nachricht', 'send'],
  ['mail', 'send'],
  ['info', 'send'],
  ['geld', 'pay'],
  ['erstattung', 'pay'],
  ['zahlung', 'pay'],
  ['gutschrift', 'pay'],
  ['uberweisung', 'pay'],
  ['termin', 'book'],
  ['reservierung', 'book'],
  ['buchung', 'book'],
  ['stornierung', 'delete'],
  ['storno', 'delete'],
  ['kundigung', 'delete'],
  ['absage', 'delete'],
  ['anderung', 'change'],
  ['rechnung', 'change'],
  ['note', 'change'],
  ['notiz', 'change'],
];

/** A light verb at `i` with an action noun within eight words after it, read as that action. */
function lightVerb(ws: readonly string[], i: number): GermanAction | undefined {
  if (!LIGHT.test(ws[i])) return undefined;
  for (const w of ws.slice(i + 1, i + 9)) {
    const hit = ACTION_NOUNS.find(([n]) => w.endsWith(n) || w.replace(/(?:en|n|s|e)$/, '').endsWith(n));
    if (hit) return { category: hit[1], after: ws.slice(i + 1), words: ws.slice(i, i + 4).join(' ') };
  }
  return undefined;
}

/** A clause that opens with a verb (after a lead-in): "Schick …", "Senden Sie …", "Trag … ein" with its particle at the end. */
function verbFirst(ws: readonly string[], raw: readonly string[], closing: readonly (string | undefined)[]): GermanAction[] {
  let i = 0;
  while (i < ws.length - 1 && LEAD_IN.has(ws[i])) i++;
  // After a lead-in, a capitalised word is a noun ("Bitte Teile bestellen").
  if (ws.length - i < 2 || (i > 0 && /^\p{Lu}/u.test(raw[i]))) return [];
  const light = lightVerb(ws, i);
  if (light) return [light];
  const ends = new Set([ws.at(-1), ...closing]);
  const forms = (FORMS.get(ws[i]) ?? []).filter((f) => !f.infinitive || i > 0 || ws[i + 1] === 'sie');
  const f = forms.find((x) => x.particle !== undefined && ends.has(x.particle)) ?? forms.find((x) => x.particle === undefined);
  return f && f.category !== 'read' ? [{ category: f.category, after: ws.slice(i + 1), words: ws.slice(i, i + 4).join(' ') }] : [];
}

const CLOSING_MODALS = wordSet('sollen soll sollten sollte mochte mochten will wollen muss mussen');

/** A clause that ends with an infinitive: "Bitte den Termin eintragen", "Kannst du ihr die Rechnung schicken?"; not after "ob". */
function verbLast(ws: readonly string[]): GermanAction[] {
  // An infinitive before a closing modal is the clause's verb: "…, wohin wir ihm den Bescheid schicken sollen".
  const last = ws.length - (ws.length > 2 && CLOSING_MODALS.has(ws[ws.length - 1]) ? 2 : 1);
  if (last < 1 || ws.includes('ob')) return [];
  const f = FORMS.get(ws[last])?.find((x) => x.infinitive);
  return f && f.category !== 'read'
    ? [{ category: f.category, after: ws.slice(0, last), words: ws.slice(Math.max(0, last - 3)).join(' ') }]
    : [];
}

/** A question that offers an action: "Soll ich …?", "Darf ich …?", "Möchten Sie, dass ich …?". */
const OFFER_LEAD =
  /^(?:(?:gut|ok(?:ay)?|alles klar|prima)[,!]?\s+)?(?:(?:soll|darf|kann)\s+ich\s+|sollen\s+wir\s+|(?:möchten|moechten|wollen)\s+sie,?\s+dass\s+ich\s+|(?:möchtest|moechtest|willst)\s+du,?\s+dass\s+ich\s+)/i;
/** A question that asks leave to go on: "Soll ich fortfahren?", "Passt das?", "Einverstanden?", "Ist das so richtig?". */
const ASKS_TO_GO_ON =
  /^(?:(?:soll|darf|kann)\s+ich\s+(?:fortfahren|weitermachen|loslegen|das\s+so\s+machen|das\s+erledigen)|passt\s+(?:das|es)|einverstanden|ist\s+das\s+(?:so\s+)?(?:richtig|ok(?:ay)?|in\s+ordnung)|sollen\s+wir\s+so\s+vorgehen)\b/i;

/**
 * What the assistant offers to do in a German question, as the user would ask for it: "Soll ich
 * Frau Maier die Rechnung schicken?" gives "Frau Maier die Rechnung schicken" (read by its
 * infinitive); a question that asks leave to go on gives 'go-on'. Undefined for any other question.
 */
export function germanOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim();
  if (ASKS_TO_GO_ON.test(q)) return 'go-on';
  const lead = OFFER_LEAD.exec(q);
  return lead ? q.slice(lead[0].length).replace(/\?+$/, '').trim() || 'go-on' : undefined;
}

/** What the assistant says it will or would do: "Ich würde Herrn Roth die Kaution zurücküberweisen." */
export function germanPlan(sentence: string): string | undefined {
  const m = /^(?:ich|wir)\s+(?:würde|wuerde|werde|kann|könnte|koennte|würden|werden|können)\s+(.+?)[.!:]?$/i.exec(sentence.trim());
  return m ? m[1] : undefined;
}

/**
 * An order written in German in data: a clause that asks for an action as a request would
 * (germanActions: "Bitte T-4402 stornieren", "Überweisen Sie den Betrag an …"). The caller asks for
 * a target or a record's code beside it (injection.ts), as it does of a Spanish one. Returns the
 * words that order.
 */
export function germanOrderIn(sentence: string): string | undefined {
  return germanActions(sentence).find((a) => a.category !== 'read')?.words;
}

/**
 * The category of a word as a German verb in a tool's name or description: an infinitive
 * (`beleg_abrufen`, `rechnungErstellen`), a form without a separable particle ("Sendet eine
 * E-Mail"), else one whose verbs with a particle all agree ("Trägt … ein"; "Ruft … ab" reads, "ruft
 * … an" calls: none); a word two verbs spell the same names none.
 */
export function germanCategory(word: string): Category | undefined {
  const w = canonicalGerman(word);
  // A tool names its verb as an infinitive or describes it in the third person ("speichert"); a bare
  // stem is a noun there as often ("Cloud-Speicher", "Plan").
  const third = w.endsWith('t') && (FORMS.has(w.slice(0, -1)) || (w.endsWith('et') && FORMS.has(w.slice(0, -2))));
  const all = (FORMS.get(w) ?? []).filter((f) => f.infinitive || third);
  const plain = all.filter((f) => f.particle === undefined);
  const forms = plain.length > 0 ? plain : all;
  const categories = new Set(forms.map((f) => f.category));
  const [only] = categories;
  return categories.size === 1 ? only : undefined;
}

/** Where a tool's name holds a German infinitive (`email_senden`, `klientHolen`), or -1: German names put the verb last. */
export function germanInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex(
    (w) => (FORMS.get(canonicalGerman(w)) ?? []).some((f) => f.infinitive && f.particle === undefined) && germanCategory(w) !== undefined,
  );
}
