/**
 * Requests and tools written in Italian (docs/taint-policy.md, "Requests in Italian"). The English
 * parse (intent.ts) finds no verb in "Inviagli la fattura" or "Per favore, salda l'affitto di
 * marzo", and so asks for nothing: every call of an Italian-speaking team would be blocked as
 * unasked. This reads Italian as french.ts reads French: a verb is told by its conjugation (a root
 * and the endings of its class: the infinitive, the imperative of "tu" and "voi", the polite
 * imperative of "Lei", the "noi" form), with the pronouns Italian writes on it ("inviagli",
 * "pagarla", "mandamelo", "dimmi"); by where it stands (the clause's first word, or after "e",
 * "poi", "per favore", "puoi", "potresti", "bisogna", a pronoun: "gli mandi", "Le invii"); and not
 * when negated ("non inviarla", "senza avvisarlo"), in a question ("Chi non ha pagato?"), after
 * "se" ("controlla se ha pagato"), or as a participle ("la fattura pagata"). What a verb asks for is
 * one of the lexicon's action categories (lexicon.ts), so an Italian request and an English tool,
 * or the reverse, meet on the same labels.
 */
import { clauseParts, wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';
import { fold, functionWordCounts, spanishCategory, spanishObjects } from './spanish.js';
import { portugueseCategory, portugueseObjects } from './portuguese.js';
import { frenchCategory, frenchObjects } from './french.js';

/** A word as written (lower case, accents kept) and folded. */
interface Word {
  raw: string;
  w: string;
}

const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dollari', '£': 'sterline' };

/** The words of a text: elisions apart ("l'IBAN" is "l", "iban"); "è" (is) kept apart from "e" (and), which it folds to. */
function wordsOf(text: string): Word[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+|[€$£]/gu) ?? [])
    .map((raw) => ({ raw, w: raw === 'è' ? 'ee' : (CURRENCY[raw] ?? fold(raw).replace(/[^a-z0-9]/g, '')) }))
    .filter((x) => x.w !== '');
}

/** The folded words of a text. */
export function italianWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

/** Function words only Italian writes, as written (accents or none). */
const ITALIAN_OWN = wordSet(
  'gli di della dello dei degli delle dell all sull dall nell quest chi che è per nel nella nello nei negli nelle alla allo agli alle sul sulla sullo sui sugli sulle dal dalla dallo dagli dalle ' +
    'anche questo questa questi queste quello quella sono ho hai abbiamo hanno grazie perché perche più già molto tutto tutti tutte ancora poi oppure ' +
    'suo suoi mio mia nostro nostra vostro vostra cui ogni dopo senza tra fra favore cortesia ciao buongiorno buonasera subito domani oggi puoi potresti ' +
    'può potete vorrei devi dovete bisogna ecco inoltre però quindi invece ci ed sia gentilmente cortesemente lei',
);
/** Function words Italian shares with French ("il", "le", "lui", "non"), Spanish ("la", "con", "del") or Portuguese ("e", "da"). */
const ITALIAN_SHARED = wordSet('il la le lo i un una uno a e in da del al ai dai con se si mi ti ma non lui ha quando solo sua');
/** Function words of English, Spanish, Portuguese, French and German that Italian does not write. */
const OTHER_OWN = wordSet(
  'the of and to is for on with that this it my an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y por para es está muy pero este esta sus más ya hay usted gracias también ' +
    'o os um uma não nao com em do na no é são ao aos pelo pela você seu isso já ' +
    'les des du et est une pour dans sur au aux ce cette vous nous avec pas qui je votre merci leur ' +
    'der die das und ist nicht ein eine mit für von zu auf bitte ich sie wir den dem',
);

/**
 * Whether a text is written in Italian: more of its function words are Italian than the others',
 * two at least, and more of them Italian alone than the others' own; or, with none of the others', a
 * verb or a noun only Italian has ("Pubblica l'annuncio sul sito" has one function word) ("Paga la fattura a Marco": "paga" is Spanish too, "fattura" is
 * not), and no accent Spanish, Portuguese or French writes and Italian does not. Its first 4,000
 * characters.
 */
export function readsAsItalian(raw: string): boolean {
  // A code or an account ("IT60 X054 …", "F-2231") says nothing of the language: its "IT" is no English "it".
  const text = raw.slice(0, 4000).replace(/[^\s\d]*\d\S*/g, ' ');
  const own = functionWordCounts(text, ITALIAN_OWN, OTHER_OWN);
  const shared = functionWordCounts(text, ITALIAN_SHARED, OTHER_OWN).own;
  const n = own.own + shared;
  if (n === 0 || n <= own.english) return false;
  if (n >= 2 && own.own > own.english) return true;
  if (own.english > 0) return false;
  const head = text.slice(0, 4000);
  if (/[ñáíóúãõâêôûçœ¿¡]/i.test(head)) return false;
  const ws = italianWords(head);
  // "il" is written by French alone of the others, and a French text holds its own words besides: with none, and an Italian verb, "il" is Italian ("Manda l'email al cliente con il preventivo").
  return ws.some((w) => italianOnly(w)) || (n >= 2 && ws.includes('il') && ws.some((w) => found(w) !== undefined));
}

/** Light verbs' forms no other language writes ("da", "dia", "date" are Spanish, Portuguese or English words too). */
const LIGHT_OWN = wordSet(
  'procedi procedete proceda effettua effettui effettuate esegui eseguite esegua metti mettete prendi prendete fai fate faccia',
);

/** A verb form or a noun of Italian that Spanish, Portuguese and French do not write. */
function italianOnly(w: string): boolean {
  const f = found(w);
  if (f?.form || (f && LIGHT_OWN.has(w)))
    return spanishCategory(w) === undefined && portugueseCategory(w) === undefined && frenchCategory(w) === undefined;
  const one = [w];
  return italianObjects(one).size > 0 && spanishObjects(one).size + portugueseObjects(one).size + frenchObjects(one).size === 0;
}

/**
 * How a verb is conjugated: `are` (inviare), `ere` (scrivere), `ire` (aprire) and `isc` (spedire:
 * spedisci). Each form says what it is: the infinitive, the imperative of "tu" (of an `are` verb
 * also its third person), the third person of the others, the polite imperative ("Lei"), "voi",
 * "noi", and the third plural. No participle ("pagata", "spedito") and no past.
 */
type Conjugation = 'are' | 'ere' | 'ire' | 'isc';
type Kind = 'inf' | 'imp' | 'third' | 'lei' | 'voi' | 'noi' | 'plural';
const ENDINGS: Record<Conjugation, [string, Kind][]> = {
  are: [
    ['are', 'inf'],
    ['a', 'imp'],
    ['i', 'lei'],
    ['ate', 'voi'],
    ['iamo', 'noi'],
    ['ano', 'plural'],
    ['ino', 'plural'],
  ],
  ere: [
    ['ere', 'inf'],
    ['i', 'imp'],
    ['e', 'third'],
    ['a', 'lei'],
    ['ete', 'voi'],
    ['iamo', 'noi'],
    ['ono', 'plural'],
  ],
  ire: [
    ['ire', 'inf'],
    ['i', 'imp'],
    ['e', 'third'],
    ['a', 'lei'],
    ['ite', 'voi'],
    ['iamo', 'noi'],
    ['ono', 'plural'],
  ],
  isc: [
    ['ire', 'inf'],
    ['isci', 'imp'],
    ['isce', 'third'],
    ['isca', 'lei'],
    ['ite', 'voi'],
    ['iamo', 'noi'],
    ['iscono', 'plural'],
  ],
};

/**
 * Verb roots (folded) by the action they name, `root/class`. "Trasferire" changes a record and pays
 * with money after it; "restituire" returns data (a tool's "Restituisce l'elenco") and pays back
 * money; "ricordare" sends a reminder; "convocare" and "fissare" book; "archiviare" deletes as
 * "archive" does. Light verbs ("fai il bonifico", "esegui il pagamento") are in LIGHT.
 */
const ROOTS: Record<Category, string> = {
  read:
    'cerc/are ricerc/are verific/are controll/are guard/are consult/are trov/are elenc/are mostr/are visualizz/are ' +
    'legg/ere ved/ere recuper/are scaric/are calcol/are confront/are analizz/are riassum/ere restitu/isc monitor/are ' +
    'esamin/are apr/ire filtr/are stim/are spieg/are',
  send:
    'invi/are mand/are sped/isc inoltr/are rispond/ere scriv/ere avvis/are avvert/ire inform/are notific/are ' +
    'comunic/are contatt/are sollecit/are ricord/are chiam/are telefon/are trasmett/ere segnal/are chied/ere ' +
    'risped/isc reinvi/are esport/are',
  share: 'condivid/ere invit/are autorizz/are conced/ere deleg/are distribu/isc',
  publish: 'pubblic/are annunci/are twitt/are comment/are diffond/ere',
  pay:
    'pag/are sald/are vers/are bonific/are rimbors/are addebit/are accredit/are incass/are acquist/are compr/are ' +
    'ricaric/are prelev/are vend/ere riscuot/ere fattur/are ordin/are tratten/ere',
  book: 'prenot/are fiss/are pianific/are convoc/are noleggi/are affitt/are riserv/are organizz/are',
  change:
    'modific/are cambi/are aggiorn/are cre/are aggiung/ere inser/isc registr/are annot/are segn/are corregg/ere ' +
    'spost/are rinvi/are posticip/are anticip/are configur/are salv/are compil/are complet/are attiv/are riattiv/are ' +
    'blocc/are sblocc/are chiud/ere riapr/ire accett/are rifiut/are approv/are firm/are conferm/are iscriv/ere ' +
    'emett/ere gener/are rinnov/are prorog/are aument/are sostitu/isc rinomin/are assegn/are associ/are copi/are ' +
    'duplic/are import/are sospend/ere trasfer/isc impost/are',
  delete: 'elimin/are cancell/are annull/are rimuov/ere revoc/are disattiv/are svuot/are archivi/are disiscriv/ere',
  exec: 'install/are avvi/are compil/are',
};

interface Form {
  category: Category;
  /** The verb's infinitive ("inviare" for "invia"). */
  verb: string;
  kind: Kind;
}

/** A root's spelling before an ending: "pag" + "i" is "paghi", "cerc" + "iamo" "cerchiamo", "invi" + "iamo" "inviamo". */
function spelled(root: string, conj: Conjugation, ending: string): string[] {
  if (conj === 'are' && /[cg]$/.test(root) && /^[ie]/.test(ending)) return [`${root}h${ending}`];
  if (root.endsWith('i') && ending.startsWith('i'))
    return ending === 'iamo' ? [root + ending.slice(1)] : [root + ending, root + ending.slice(1)];
  return [root + ending];
}

/** Every form of every root, folded, to the verb it is. */
const FORMS: Map<string, Form> = (() => {
  const out = new Map<string, Form>();
  for (const [category, entries] of Object.entries(ROOTS) as [Category, string][])
    for (const entry of entries.split(' ')) {
      const [root, conj] = entry.split('/') as [string, Conjugation];
      const verb = root + ENDINGS[conj][0][0];
      for (const [ending, kind] of ENDINGS[conj])
        for (const f of spelled(root, conj, ending)) if (!out.has(f)) out.set(f, { category, verb, kind });
    }
  // Irregular: ottenere reads, togliere and disdire delete, dire sends ("di' a Marco che …" is written "dì", "digli").
  const irregular: [Category, string, string][] = [
    ['read', 'ottenere', 'ottenere/inf ottieni/imp ottiene/third ottenete/voi ottenga/lei'],
    ['delete', 'togliere', 'togliere/inf togli/imp toglie/third togliete/voi tolga/lei'],
    ['delete', 'disdire', 'disdire/inf disdici/imp disdice/third disdite/voi disdica/lei'],
    ['send', 'dire', 'dire/inf dici/imp dice/third dite/voi dica/lei'],
  ];
  for (const [category, verb, forms] of irregular)
    for (const f of forms.split(' ')) {
      const [form, kind] = f.split('/') as [string, Kind];
      out.set(form, { category, verb, kind });
    }
  return out;
})();

/**
 * Verbs that carry no action of their own, with the one they name alone: "fai il bonifico" pays,
 * "esegui il pagamento" pays where "esegui lo script" runs, "mettilo sul sito" publishes, "dagli
 * accesso" shares, "prendi appuntamento" books, "procedi con la disdetta" deletes.
 */
const LIGHT: Record<string, { forms: string; alone?: Category }> = {
  fare: { forms: 'fare/inf fai/imp fa/imp fate/voi faccia/lei facciamo/noi' },
  dare: { forms: 'dare/inf dai/imp da/imp date/voi dia/lei diamo/noi' },
  mettere: { forms: 'mettere/inf metti/imp mette/third mettete/voi metta/lei mettiamo/noi', alone: 'change' },
  effettuare: { forms: 'effettuare/inf effettua/imp effettui/lei effettuate/voi effettuiamo/noi' },
  procedere: { forms: 'procedere/inf procedi/imp procede/third procedete/voi proceda/lei procediamo/noi' },
  prendere: { forms: 'prendere/inf prendi/imp prende/third prendete/voi prenda/lei' },
  eseguire: { forms: 'eseguire/inf esegui/imp esegue/third eseguite/voi esegua/lei eseguiamo/noi', alone: 'exec' },
  lanciare: { forms: 'lanciare/inf lancia/imp lanci/lei lanciate/voi lanciamo/noi', alone: 'exec' },
};
const LIGHT_FORMS: Map<string, { verb: string; kind: Kind }> = new Map(
  Object.entries(LIGHT).flatMap(([verb, l]) =>
    l.forms.split(' ').map((f) => {
      const [form, kind] = f.split('/') as [string, Kind];
      return [form, { verb, kind }] as const;
    }),
  ),
);

/** Nouns of an action, by its category, for a light verb. */
const LIGHT_NOUNS: Record<string, Category> = {
  bonifico: 'pay',
  pagamento: 'pay',
  versamento: 'pay',
  rimborso: 'pay',
  saldo: 'pay',
  acquisto: 'pay',
  ordine: 'pay',
  ricarica: 'pay',
  addebito: 'pay',
  giroconto: 'pay',
  accredito: 'pay',
  prenotazione: 'book',
  appuntamento: 'book',
  modifica: 'change',
  aggiornamento: 'change',
  correzione: 'change',
  iscrizione: 'change',
  registrazione: 'change',
  cambio: 'change',
  annullamento: 'delete',
  cancellazione: 'delete',
  disdetta: 'delete',
  eliminazione: 'delete',
  invio: 'send',
  telefonata: 'send',
  chiamata: 'send',
  squillo: 'send',
  sapere: 'send',
  presente: 'send',
  sollecito: 'send',
  pubblicazione: 'publish',
  annuncio: 'publish',
  post: 'publish',
  accesso: 'share',
  permesso: 'share',
  permessi: 'share',
  condivisione: 'share',
  script: 'exec',
};
/** Where something put up is read by others: "sul sito", "online", "in bacheca". */
const VENUES = wordSet('sito web online pagina facebook instagram linkedin twitter bacheca blog portale intranet social forum vetrina');

/** A light verb's action: its venue ("mettilo sul sito"), "in copia", the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if (verb === 'mettere' && after.some((w) => VENUES.has(w))) return 'publish';
  if (after.some((w, k) => w === 'copia' && after[k - 1] === 'in')) return 'send';
  const noun = after.find((w) => LIGHT_NOUNS[w] !== undefined);
  return noun ? LIGHT_NOUNS[noun] : LIGHT[verb].alone;
}

/** Pronouns Italian writes on an imperative or an infinitive, longest first ("mandaglielo", "pagarla", "dimmi"). */
const CLITICS = (
  'glielo gliela glieli gliele gliene melo mela meli mele mene telo tela teli tele tene celo cela celi cele cene ' +
  'velo vela veli vele vene gli mi ti ci vi lo la li le ne'
).split(' ');
/** Imperatives of one syllable, written only with a pronoun on them ("dimmi", "digli", "fallo", "dagli"). */
const SHORT: Record<string, string> = { di: 'dire', fa: 'fare', da: 'dare' };

interface Found {
  /** A verb of action, or a light verb's infinitive. */
  form?: Form;
  light?: string;
  kind: Kind;
  /** The pronouns written on it. */
  clitic?: string;
}

/** A folded word as a verb: "invia", "inviagli" (with "gli"), "pagarla" (an infinitive with "la"), "fammi" (fare with "mi"). */
function found(w: string): Found | undefined {
  const bare = lookup(w);
  if (bare) return bare;
  for (const c of CLITICS) {
    if (!w.endsWith(c) || w.length - c.length < 2) continue;
    const stem = w.slice(0, -c.length);
    // "inviati", "pagati": a participle's plural, not "send yourself".
    if ((c === 'ti' || c === 'si') && /[ai]$/.test(stem)) continue;
    const doubled = stem.length === 3 && stem[2] === c[0] ? SHORT[stem.slice(0, 2)] : undefined;
    const tries: [string, Kind[]][] = [
      [stem, ['imp', 'voi', 'noi']],
      [`${stem}e`, ['inf']],
    ];
    for (const [base, kinds] of tries) {
      const f = lookup(base) ?? (SHORT[base] ? lookup(SHORT[base], 'imp') : undefined);
      if (f && kinds.includes(f.kind)) return { ...f, clitic: c };
    }
    if (doubled) return { ...lookup(doubled, 'imp')!, clitic: c };
  }
  return undefined;
}
function lookup(w: string, as?: Kind): Found | undefined {
  const form = FORMS.get(w);
  if (form) return { form, kind: as ?? form.kind };
  const light = LIGHT_FORMS.get(w);
  return light ? { light: light.verb, kind: as ?? light.kind } : undefined;
}

/** Forms tools use in their names and descriptions: the infinitive, the imperative, the third persons. */
const TOOL_KINDS = new Set<Kind>(['inf', 'imp', 'third', 'plural']);
/** Forms that are as often nouns in a tool's name ("invia_posta", "calcola_imposta", "crea_nota_spese"). */
const TOOL_NOUNS = wordSet('posta imposta imposte fattura fatture copia copie firma riserva ricarica');

/** The category of a word as an Italian verb (for a tool's name and description): "invia", "inviare", "restituisce", "esegui". */
export function italianCategory(word: string): Category | undefined {
  const w = fold(word);
  const f = FORMS.get(w);
  // A light verb names no action of its own in a tool's name either (`esegui_bonifico` pays,
  // `esegui_script` runs): its arguments say which sink (a payee and an amount, a command).
  return f && TOOL_KINDS.has(f.kind) && !TOOL_NOUNS.has(w) ? f.category : undefined;
}

/** Where a tool's name holds an Italian verb (`invia_fattura`, `prenotaTavolo`, `eliminare_evento`, `fatture_elenca`), or -1: such a name is Italian. */
export function italianInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => {
    const f = FORMS.get(fold(w));
    return f !== undefined && TOOL_KINDS.has(f.kind) && !TOOL_NOUNS.has(fold(w)) && f.kind !== 'plural';
  });
}

/** Nouns that say what an action acts on, by the lexicon's object kinds (a plural by its singular). */
const OBJECTS: Partial<Record<ObjectKind, ReadonlySet<string>>> = {
  money: wordSet(
    'soldi denaro importo somma fattura pagamento bonifico rimborso acconto caparra deposito affitto canone stipendio euro eur dollari rata quota spesa saldo iban tariffa prezzo abbonamento ricevuta multa commissione bolletta versamento ricarica',
  ),
  message: wordSet(
    'email mail messaggio sms whatsapp avviso promemoria lettera risposta notifica comunicazione circolare newsletter sollecito nota convocazione',
  ),
  access: wordSet('accesso permesso ruolo admin amministratore editor utente invito'),
  booking: wordSet(
    'appuntamento prenotazione visita riunione camera tavolo volo biglietto posto sala colloquio consulenza lezione incontro turno',
  ),
  publication: wordSet('annuncio post pubblicazione recensione commento articolo storia'),
  credential: wordSet('password pin token credenziali credenziale'),
};

/** A noun's singular candidates: "fatture" "fattura", "bonifici" "bonifico", "messaggi" "messaggio", "commissioni" "commissione". */
function singulars(w: string): string[] {
  return [w, w.replace(/e$/, 'a'), w.replace(/i$/, 'o'), w.replace(/i$/, 'e'), w.replace(/([cg])i$/, '$1io'), w.replace(/che$/, 'ca')];
}

export function italianObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws.slice(0, 64)) {
    const forms = singulars(w);
    for (const [k, nouns] of Object.entries(OBJECTS) as [ObjectKind, ReadonlySet<string>][])
      if (forms.some((s) => nouns.has(s))) out.add(k);
  }
  return out;
}

/** Pronouns that stand before a finite verb ("gli mandi", "Le invii", "me lo mandi"); "la", "le", "lo" and "l" are articles too. */
const PRONOUNS = wordSet('mi ti gli ci vi si lo la li le ne l me te glielo gliela glieli gliele gliene');
const ARTICLE_LIKE = wordSet('lo la le l');
/** Words after which a verb is a verb: a conjunction, an adverb, "per favore", "tu", "Lei". */
const VERB_CONTEXT = wordSet(
  'e ed poi quindi allora anche inoltre pure ma infine ora adesso subito intanto dopo prima favore cortesia gentilmente cortesemente ok okay si tu lei ciao grazie dunque invece',
);
/** Modals and verbs of wanting before an infinitive: "puoi inviare", "vorrei prenotare", "bisogna pagare". */
const MODAL = wordSet(
  'puoi potresti puo potrebbe potete potreste riesci riusciresti riuscite devi dovresti dovete dovreste vorrei voglio vogliamo vorremmo bisogna occorre serve servirebbe vuoi vuole',
);
/** Words after which "di" or "a" leads into an order: "ti chiedo di", "ricordati di", "non dimenticare di", "prova a". */
const DI_LEAD = wordSet(
  'chiedo chiediamo prego preghiamo ricordati ricordatevi dimenticare dimenticarti bisogno cerca cercate prova provate pensa pensaci vai andate',
);
/** "Devo", "dobbiamo": an obligation the user states as theirs; put as a question ("Devo pagare …?"), it asks advice. */
const OWN_NEED = wordSet('devo dobbiamo');
const NEGATORS = wordSet('non senza mai ne nessun nessuna niente nulla');
const SUBJECTS = wordSet('io noi loro chi che egli ella esso essa');
/** Words that make what follows a subordinate clause: "così", "perché", "quando". */
const SUBORDINATE = wordSet('cosi così che perche perché quando dove mentre se come affinche affinché finche finché appena qualora');
/** Articles, prepositions and determiners: a verb's form after one of them is a noun's. */
const NOUN_LEAD = wordSet(
  'il lo la i gli le l un uno una di a da in con su per tra fra del dello della dei degli delle al allo alla ai agli alle dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul sullo sulla sui sugli sulle col mio mia tuo tua suo sua nostro nostra vostro vostra questo questa quel quella ogni qualche',
);
const QUESTION_WORDS = wordSet('chi cosa che quanto quanta quanti quante quando dove perche come quale quali cos');
/** Verb forms that are as often nouns heading a record: "Conferma ricevuta", "Modifica del 3 maggio", "Fattura n. 12", "Paga di marzo". */
const HOMOGRAPHS = wordSet(
  'conferma modifica copia ricarica firma fattura paga saldi segnala riserva nota ordina cambi rinvii avvisi invii',
);
/** A reply to the user is no message: "dimmi", "mandami un riepilogo", "avvisami", "fammi sapere". */
const TO_USER = wordSet('mi me ci');

/** How far back a verb's context is looked for: a clause of thousands of words is read once, not once per word. */
const WINDOW = 12;

/** Where a new part of a clause starts, by this reader's words (lexicon.ts, clauseParts). */
const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

/** A verb's own noun heading a record: followed by "di", "del", a number, a participle, or nothing. */
function nounHeading(ws: readonly string[], i: number): boolean {
  const next = ws[i + 1];
  if (next === undefined) return true;
  return (
    /^(?:di|del|della|dei|delle|dello|n|nr|numero|ricevuta|richiesta|elettronica)$/.test(next) ||
    /^\d/.test(next) ||
    /(?:at|it|ut)[oaie]$/.test(next)
  );
}

interface Verb {
  category: Category;
  verb: string;
  kind: Kind;
  clitic?: string;
}

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "trasferisci" and "restituisci" by their money. */
function verbAt(ws: readonly string[], i: number, labels: ReadonlySet<number>): Verb | undefined {
  if (labels.has(i)) return undefined;
  const f = found(ws[i]);
  if (!f) return undefined;
  const after = ws.slice(i + 1, i + 13);
  if (f.light) {
    const category = lightCategory(f.light, after.slice(0, 6));
    return category ? { category, verb: f.light, kind: f.kind, clitic: f.clitic } : undefined;
  }
  const form = f.form!;
  if (f.clitic === undefined && HOMOGRAPHS.has(ws[i]) && nounHeading(ws, i)) return undefined;
  if ((form.verb === 'trasferire' || form.verb === 'restituire') && italianObjects(after.slice(0, 6)).has('money'))
    return { category: 'pay', verb: form.verb, kind: f.kind, clitic: f.clitic };
  return { category: form.category, verb: form.verb, kind: f.kind, clitic: f.clitic };
}

/**
 * Whether the verb at `i` stands as one the reader is asked to carry out: first in its part, or
 * after a word that leads into one, with the pronouns before it. A finite form after a subject ("io
 * invio", "Marco paga", "il cliente che paga") states; an infinitive asks after a modal ("puoi
 * pagare"), "per favore" or "ti chiedo di"; "la", "le", "lo" alone before a finite form are articles
 * ("e la fattura"). A pronoun written on the verb takes none before it ("gli invitati" are guests).
 */
function stands(ws: readonly string[], i: number, v: Verb, parts: ReadonlySet<number>, statement: boolean): boolean {
  if (v.kind === 'third' || v.kind === 'plural') return false;
  let j = i - 1;
  const run: string[] = [];
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && PRONOUNS.has(ws[j])) run.unshift(ws[j--]);
  if (run.length > 0 && v.clitic !== undefined) return false;
  if (run.length > 0 && run.every((p) => ARTICLE_LIKE.has(p)) && v.kind !== 'inf' && v.kind !== 'lei') return j >= 0 && ws[j] === 'tu';
  if (j < 0 || parts.has(j + 1)) return v.kind !== 'noi' || run.length === 0;
  const before = ws[j];
  if (NEGATORS.has(before) || SUBJECTS.has(before)) return false;
  if (VERB_CONTEXT.has(before)) return true;
  // An imperative that is no noun's form stands after the words that set the scene ("per la festa di
  // venerdì trattenete pure …", "se il prezzo è ancora 1,85 al kg fai l'ordine"): not after an
  // article or a preposition, where a form is a noun's ("la paga", "di conferma").
  // A pronoun before it ("così si organizza") or a word that subordinates it makes it a statement's third person;
  // "-ate" and "-ite" are a participle's plural as often ("le fatture pagate").
  if (
    (v.kind === 'imp' || (v.kind === 'voi' && !/[ai]te$/.test(ws[i]))) &&
    run.length === 0 &&
    !NOUN_LEAD.has(before) &&
    !SUBORDINATE.has(before) &&
    !HOMOGRAPHS.has(ws[i]) &&
    !/^\d/.test(ws[i + 1] ?? '')
  )
    return true;
  if (v.kind !== 'inf') return false;
  // "Devo prenotare una degustazione": the user's own need, said as a statement, asks the reader to meet it.
  if (MODAL.has(before) || (statement && OWN_NEED.has(before))) return true;
  if (before === 'di' || before === 'a') return DI_LEAD.has(ws[j - 1]) || (ws[j - 1] === 'si' && ws[j - 2] === 'prega');
  return false;
}

/** A negation before the verb in its part: "non inviarla", "non gli mandare", "senza avvisarlo"; "non dimenticare di pagare" asks. */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= 4 && !parts.has(j + 1); j--) {
    if (ws[j] === 'e' || ws[j] === 'ma' || ws[j] === 'poi' || DI_LEAD.has(ws[j])) return false;
    if (NEGATORS.has(ws[j])) return true;
  }
  return false;
}

/** A verb after a "se" (whether) that does not open its part: "controlla se bisogna pagare" asks about it; "se non ha pagato, sollecitalo" is a condition. */
function inIndirectQuestion(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= WINDOW && !parts.has(j + 1); j--) {
    if (ws[j] === 'e' || ws[j] === 'ma' || ws[j] === 'poi') return false;
    if (ws[j] === 'se' && j > 0 && !parts.has(j)) return true;
  }
  return false;
}

/**
 * The actions an Italian request asks for, clause by clause. A question that opens with an
 * interrogative asks about things ("Quanto resta da pagare?"), where "Puoi inviare … ?" asks for
 * the action; "Devo pagare … ?" asks advice, where "Devo prenotare …" states a need the reader is to meet.
 */
export function italianActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  for (const clause of prose.replace(/\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const ws = italianWords(clause);
    if (ws.length === 0 || (clause.trim().endsWith('?') && QUESTION_WORDS.has(ws[0]))) continue;
    const { parts, labels } = partsOf(clause);
    for (let i = 0; i < ws.length; i++) {
      const v = verbAt(ws, i, labels);
      if (!v || v.category === 'read') continue;
      if (!stands(ws, i, v, parts, !clause.trim().endsWith('?')) || negated(ws, i, parts) || inIndirectQuestion(ws, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i, v)) continue;
      out.push({ category: v.category, after: ws.slice(i + 1, i + 13), words: ws.slice(i, i + 4).join(' ') });
    }
  }
  return out;
}

/** A message to the user: "mandami", "mi mandi", "dimmi", "fammi sapere", "inviala a me". */
function toUser(ws: readonly string[], i: number, v: Verb): boolean {
  // "mandami un riassunto per mail a …": sent to me by a channel, or to an address, it leaves the chat.
  if (ws.slice(i + 1, i + 13).some((w) => w.includes('@') || BY_CHANNEL.has(w))) return false;
  if (v.clitic !== undefined && /^(?:mi|me|ci|ce)/.test(v.clitic)) return true;
  // "mi mandi", "me lo mandi", "mi puoi mandare".
  if (TO_USER.has(ws[i - 1]) || (TO_USER.has(ws[i - 2]) && (PRONOUNS.has(ws[i - 1]) || MODAL.has(ws[i - 1])))) return true;
  return ws.slice(i + 1, i + 5).some((w, k, a) => w === 'me' && a[k - 1] === 'a');
}

/** Channels a message leaves the chat by ("per mail", "via whatsapp", "con un sms"). */
const BY_CHANNEL = wordSet('mail email e-mail posta pec whatsapp sms telegram fax');

/** Words that lead into an order without changing it: "Per favore …", "Importante: …", "Inoltre …". */
const ORDER_LEAD_IN = wordSet(
  'per favore cortesia cortesemente gentilmente prego si prega vi ti la preghiamo di siete sei pregati pregato importante urgente attenzione nb ps inoltre anche poi quindi ora adesso infine subito dunque allora',
);
/** An obligation put on the reader, or on whoever holds a role: "devi pagare …", "l'assistente deve inviare …", "è necessario versare …". */
const OBLIGATION =
  /\b(?:devi|deve|dovete|devono|dovrai|dovr[àa]|dovranno|dovrebbe|dovresti|[èe]\s+necessario|[èe]\s+obbligatorio|occorre|bisogna|[èe]\s+tenut[oa]\s+a|sono\s+tenuti\s+a)\s+(?:(?:assolutamente|obbligatoriamente|sempre|subito|immediatamente)\s+)?(?:(?:gli|le|lo|la|li|ci|vi|mi|ti)\s+)?([\p{L}]+)/iu;

/** Two capitalised words, the second no function word: a name ("Paola Rossi", "Carla Bianchi"), opening a record's line. */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+(?!(?:Il|La|Le|Lo|Gli|I|Un|Una|Uno|Del|Della|Al|Alla|Per|Di)\b)\p{Lu}\p{Ll}+/u;

/**
 * An order written in Italian in data: a clause that opens with an imperative of an action other
 * than reading ("Versate l'importo sul conto …", "inoltra questa email a …", "Invii il modulo a …"),
 * or with an infinitive after "per favore", "si prega di", "vi preghiamo di"; or an obligation on
 * the reader ("devi pagare …", "l'assistente deve inoltrare …"). A noun heading ("Invio del
 * fascicolo", "Conferma ricevuta"), an infinitive title ("Inviare il modulo"), a participle
 * ("Pagata il 3 maggio") and a statement ("Il cliente paga con bonifico", "Paghiamo il 5") are no
 * order. Returns the words that order.
 */
export function italianOrderIn(sentence: string): string | undefined {
  const text = sentence.slice(0, 8000);
  for (const part of text.split(/[:;,]\s*|\s+e\s+(?:poi\s+)?/i)) {
    const ws = italianWords(part);
    let i = 0;
    while (i < ws.length && i < WINDOW && ORDER_LEAD_IN.has(ws[i])) i++;
    const polite = ws
      .slice(0, i)
      .some((w) => /^(?:favore|cortesia|prega|preghiamo|pregati|pregato|cortesemente|gentilmente|prego)$/.test(w));
    // "gli inoltri …", "Le invii …": a pronoun before a polite imperative; "la", "le" alone may be articles.
    while (i < ws.length && i < WINDOW && PRONOUNS.has(ws[i]) && !ARTICLE_LIKE.has(ws[i])) i++;
    if (i === 0 && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    const v = i < ws.length ? verbAt(ws, i, new Set()) : undefined;
    if (!v || v.category === 'read' || ws.length - i < 3) continue;
    if (v.kind === 'inf' ? !polite : !['imp', 'lei', 'voi'].includes(v.kind)) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  const m = OBLIGATION.exec(text);
  const f = m ? found(fold(m[1])) : undefined;
  const category = f?.form?.category ?? (f?.light ? LIGHT[f.light].alone : undefined);
  return f?.kind === 'inf' && category !== undefined && category !== 'read' ? fold(m![0]).split(/\s+/).slice(0, 6).join(' ') : undefined;
}

/** A question that offers an action: "Vuoi che invii …", "Desidera che proceda …", "Devo pagare …", "Posso inviare …". */
const OFFER_LEAD =
  /^(?:e\s+|allora\s+)?(?:(?:tu\s+|lei\s+)?(?:vuoi|vuole|volete|desideri|desidera|desiderate|preferisci|preferisce|preferite)\s+che\s+(?:io\s+)?|(?:devo|posso|dovrei|potrei)\s+)/i;
/** A question that asks leave to go on: "Procedo?", "Va bene?", "Confermi?", "Posso procedere?". */
const ASKS_TO_GO_ON =
  /^(?:e\s+|allora\s+)?(?:procedo|proseguo|continuo|vado(?:\s+avanti)?|andiamo\s+avanti|procediamo|lo\s+faccio|confermi|conferma|confermate|(?:ti|le|vi)\s+va\s+bene|va\s+bene|(?:è|e)\s+(?:corretto|giusto|ok)|tutto\s+(?:ok|bene|giusto|corretto)|d['’]accordo|siamo\s+d['’]accordo|ok(?:ay)?|(?:posso|devo|possiamo)\s+(?:procedere|proseguire|continuare|andare\s+avanti|farlo|confermare)|(?:vuoi|vuole|volete)\s+che\s+(?:io\s+)?(?:proceda|prosegua|continui|lo\s+faccia))(?:\s+(?:allora|ora|adesso|così|cosi|pure|quindi))?\s*\?*$/i;
/** "Invio la fattura?", "Le mando il link?", "Gliela pago?": an offer in the first person present. */
const FIRST_PERSON =
  /^(?:e\s+|allora\s+)?(?:io\s+)?((?:(?:gli|le|ti|vi|lo|la|li|glielo|gliela|glieli|gliele|te|ve)\s+)*)([\p{L}]+)([^?]*)\?*$/iu;
/** A plan in the first person: "Posso inviare …", "Vado a …", "Provvedo a …", "Mi occupo di …", "Sto per …". */
const PLAN_LEAD =
  /^(?:io\s+)?(?:posso|possiamo|potrei|potremmo|vado\s+a|andrò\s+a|provvedo\s+a|provvederò\s+a|procedo\s+a|mi\s+occupo\s+di|me\s+ne\s+occupo\s+io,?|sto\s+per|intendo|ho\s+intenzione\s+di|(?:le|ti|vi)\s+propongo\s+di|propongo\s+di)\s+(.+?)[.!:]?$/i;

/** First-person present ("invio", "pago", "spedisco") and future stems ("invier", "pagher", "spedir") to their verb. */
const FIRST: Map<string, string> = new Map();
const FUTURE: Map<string, string> = new Map();
for (const [category, entries] of Object.entries(ROOTS) as [Category, string][]) {
  if (category === 'read') continue;
  for (const entry of entries.split(' ')) {
    const [root, conj] = entry.split('/') as [string, Conjugation];
    const verb = root + ENDINGS[conj][0][0];
    FIRST.set(conj === 'isc' ? `${root}isco` : `${root}o`, verb);
    const hard = conj === 'are' && /[cg]$/.test(root) ? `${root}h` : root.replace(/([cg])i$/, '$1');
    FUTURE.set(conj === 'are' || conj === 'ere' ? `${hard}er` : `${root}ir`, verb);
  }
}
for (const [verb, first, future] of [
  ['fare', 'faccio', 'far'],
  ['effettuare', 'effettuo', 'effettuer'],
  ['eseguire', 'eseguo', 'eseguir'],
  ['mettere', 'metto', 'metter'],
  ['procedere', 'procedo', 'proceder'],
] as const) {
  FIRST.set(first, verb);
  FUTURE.set(future, verb);
}

/** An infinitive with the pronouns before it written on it, as a request writes it: "le" + "inviare" is "inviarle". */
function withPronouns(pronouns: string, verb: string): string {
  const ps = pronouns.toLowerCase().trim().split(/\s+/).filter(Boolean);
  return ps.length === 0 ? verb : `${verb.slice(0, -1)}${ps.join('')}`;
}

/**
 * What the assistant offers to do in an Italian question, written as the user would ask for it:
 * "Vuoi che invii la fattura?" gives "invii la fattura"; "Devo pagare la bolletta?" "pagare la
 * bolletta"; "Le mando il link?" "mandarle il link"; a question that asks leave to go on
 * ("Procedo?", "Va bene?", "Vuole che proceda?") gives 'go-on'. Undefined for any other question.
 */
export function italianOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim();
  if (!q.endsWith('?') || q.length > 2000) return undefined;
  if (ASKS_TO_GO_ON.test(q)) return 'go-on';
  const lead = OFFER_LEAD.exec(q);
  if (lead) {
    const rest = q
      .slice(lead[0].length)
      .replace(/\s*\?+$/, '')
      .trim();
    return !rest || /^(?:(?:lo|la)\s+)?(?:faccia|fare|farlo)$/i.test(rest) ? 'go-on' : rest;
  }
  const first = FIRST_PERSON.exec(q);
  const verb = first ? FIRST.get(fold(first[2])) : undefined;
  return verb ? `${withPronouns(first![1], verb)}${first![3]}`.replace(/\s+/g, ' ').trim() : undefined;
}

/** What the assistant says it will or can do: "Posso inviare la fattura", "Provvedo a pagare …", "Invierò la conferma" (as "inviare la conferma"). */
export function italianPlan(sentence: string): string | undefined {
  const s = sentence.trim();
  if (s.length > 2000) return undefined;
  const will = PLAN_LEAD.exec(s);
  if (will) return will[1];
  const m = /^(?:io\s+)?((?:(?:gli|le|ti|vi|lo|la|li|glielo|gliela|glieli|gliele|te|ve)\s+)*)([\p{L}]+)(.*?)[.!:]?$/iu.exec(s);
  if (!m) return undefined;
  const w = fold(m[2]);
  const stem = /(?:o|ei)$/.test(w) ? w.replace(/(?:o|ei)$/, '') : undefined;
  const verb = stem !== undefined && (w.endsWith('ei') || /[òÒ]$/.test(m[2])) ? FUTURE.get(stem) : undefined;
  return verb ? `${withPronouns(m[1], verb)}${m[3]}`.replace(/\s+/g, ' ').trim() : undefined;
}
