/**
 * Requests and tools written in Romanian (docs/taint-policy.md, "Requests in Romanian"). The English
 * parse (intent.ts) finds no verb in "Trimite-i factura" or "Te rog să plătești chiria pe martie",
 * and so asks for nothing: every call of a Romanian-speaking team would be blocked as unasked. This
 * reads Romanian as italian.ts reads Italian: a verb is told by its conjugation (a stem and the
 * endings of its class: "anula" / "anulează", "căuta" / "caută", "trimite", "plăti" / "plătește"),
 * each form saying what it is (the imperative, which is also the third person, the infinitive, the
 * second persons "trimiți" and "trimiteți", the first persons, the subjunctive "să trimită"), with
 * the pronouns Romanian joins to it by a hyphen ("trimite-i", "dă-le", "mută-l"); by where it stands
 * (first in its clause or part, after "și", "apoi", "te rog", a modal "poți", "puteți", or after
 * "să" led by "te rog", "vă rog", "vreau", "trebuie", "nu uita"); and not when negated ("nu-l suna",
 * "fără să anunți"), in a question about facts ("Cine a plătit?"), after "dacă", "că", "ce" inside
 * a clause, as a participle ("coletul anulat"), nor about third parties ("Florin trimite coletul").
 * Nouns carry their article and case as endings ("factura", "facturii", "facturile"): they are
 * matched by stem and ending. Words are compared folded ("ă", "â" as "a", "ș", "ş" as "s"), since
 * quick messages drop the diacritics ("trimite-i sms", "plateste").
 */
import { clauseParts, verbCategory, wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';
import { fold, spanishCategory } from './spanish.js';
import { italianCategory } from './italian.js';
import { portugueseCategory } from './portuguese.js';
import { frenchCategory } from './french.js';

/** A word as written (lower case, diacritics kept), folded, and whether a hyphen joins it to the word before ("trimite-i"). */
interface Word {
  raw: string;
  w: string;
  joined: boolean;
}

const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dolari', '£': 'lire' };

function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  const lower = text.normalize('NFC').toLowerCase();
  for (const m of lower.matchAll(/[\p{L}\p{N}]+|[€$£]/gu)) {
    const raw = m[0];
    const w = CURRENCY[raw] ?? fold(raw).replace(/[^a-z0-9]/g, '');
    if (w === '') continue;
    const at = m.index;
    const joined = at >= 2 && lower[at - 1] === '-' && /[\p{L}]/u.test(lower[at - 2]);
    out.push({ raw, w, joined });
  }
  return out;
}

/** The folded words of a text: "Trimite-i factura" is "trimite", "i", "factura". */
export function romanianWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

// ---------------------------------------------------------------------------------------------
// Which texts are Romanian.
// ---------------------------------------------------------------------------------------------

/** Words only Romanian writes of the languages read here (folded). */
const ROMANIAN_OWN = wordSet(
  'rog rugam pentru pt multumesc multumim mersi vreau vrem vrei doresc dorim dori poti puteti putem poate trebuie ' +
    'avem aveti sunteti suntem sunt esti acum azi astazi maine poimaine dupa pana daca apoi doar numai inca iar cand unde cine ' +
    'cate cati niste asta aia asa acesta aceasta acest aceste acestea acestui acestei acela aceea acel acea aici acolo ' +
    'dumneavoastra dvs dumneata dl dna dlui dnei domnul doamna domnului doamnei buna ziua seara dimineata bine foarte fara catre despre ' +
    'prin intre langa dintre dintr intr printre cu unui unei unor lor ea mie meu mea mei mele tau nostru noastra nostri noastre vostru voastra ' +
    'imi iti ii isi fost fie deci orice ceva nimic nimeni nici acasa trei doua zile saptamana luni marti miercuri joi vineri sambata duminica ' +
    'ianuarie februarie martie aprilie iunie iulie septembrie octombrie noiembrie decembrie zice zis nevoie vrea stie stiu deloc inapoi',
);
/** Words Romanian shares with the others ("de", "la", "un", "o", "cu"'s neighbours "si", "sa", "ce", "nu", "e", "este"). */
const ROMANIAN_SHARED = wordSet(
  'de la un o a e si sa ce nu ne le il in pe al ale ai au am el eu tu noi voi ei ele lui ca care este mai tot cum da',
);
/** Words of English, Spanish, Portuguese, French, Italian, German, Dutch, Polish, Czech, Croatian, Hungarian, Scandinavian, Turkish and Finnish that Romanian does not write. */
const OTHER_OWN = wordSet(
  'the of and is for with that this it an be to on my me do at by from please you your our we was were have has will would can could should ' +
    'el los las y por para está muy pero esta más ya hay usted gracias también que en una con del su lo les ' +
    'os um não nao com em é são ao aos pelo pela você seu isso já des et est une pour dans sur aux cette vous nous avec ' +
    'qui votre merci leur der die das und ist nicht ein eine mit für von zu auf bitte wir den dem di della che gli sono ' +
    'questo questa anche grazie ho è non een het niet naar graag jij uw voor op met ' +
    'nie się jest są czy proszę prosze dla oraz także też już tylko jeszcze bardzo przez przed przy lub albo gdy kiedy ' +
    'je jsem prosím prosim děkuji dekuji na za ja to molim hvala što az hogy nem kérem kerem meg és ' +
    'og ikke jeg deg meg er til som av har vil skal är och inte jag att för bir bu için ile lütfen ja että kiitos',
);
/** Letters only Romanian writes of the languages read here ("ş" is Turkish too: see TURKISH_LETTER). */
const ROMANIAN_LETTER = /[ășțţ]/;
const CEDILLA_S = /ş/;
const TURKISH_LETTER = /[ıİğ]/;
/**
 * A noun with the article Romanian writes on it, in lower case: "coletul", "lockerului",
 * "facturile", "redirecționarea" ("-ful" is English, "-are" an Italian infinitive).
 */
const ARTICLED = /^[a-z]{3,}(?:[bcdghjklmnprstvz]ul|ului|urile|urilor|[a-z]{3}area|arii)$/;
/** Letters the other languages write and Romanian does not. */
const FOREIGN_LETTER = /[ñãõêôûçœàèìòùëäöüßąęłśćńźżåøæğıčěřůšžđőű¿¡éáíóú]/i;

/**
 * Whether a text is written in Romanian: two of its words at least are Romanian alone (a function
 * word, or a word in lower case with a letter only Romanian writes: "ă", "ș", "ț"; a name "Brațului"
 * says nothing), and more of them than the other languages' own; or, with none of the others' words
 * and no letter of theirs, a verb only Romanian has ("Anulează rezervarea"). Its first 4,000
 * characters. Romanian is tried after Dutch and before Italian, Portuguese, French and Spanish
 * (languages.ts), whose "de", "la", "un", "o", "ce" it shares: those count for none.
 */
export function readsAsRomanian(raw: string): boolean {
  const text = raw.slice(0, 4000).normalize('NFC');
  const turkish = TURKISH_LETTER.test(text);
  let own = 0;
  let shared = 0;
  let others = 0;
  for (const token of text.match(/\p{L}+/gu) ?? []) {
    const w = token.toLowerCase();
    const f = fold(w);
    const lettered = (ROMANIAN_LETTER.test(w) || (!turkish && CEDILLA_S.test(w))) && token[0] === w[0];
    if (lettered || (ROMANIAN_OWN.has(f) && !OTHER_OWN.has(w)) || (token[0] === w[0] && ARTICLED.test(f)) || romanianOnlyVerb(f)) own++;
    else if (ROMANIAN_SHARED.has(f)) shared++;
    else if (OTHER_OWN.has(w)) others++;
  }
  if (own >= 2 && own > others && own + shared > others) return true;
  if (others > 0 || FOREIGN_LETTER.test(text)) return false;
  return romanianWords(text).some((w) => romanianOnlyVerb(w));
}

/** English words the forms spell: "face", "pune"'s neighbours, "transfer". */
const ENGLISH_SPELLED = wordSet(
  'face facem accept transfer public plan confirm import export control post seta nota lista copia marca salva',
);

/** A Romanian verb form no other language read here, nor English, writes ("trimite", "anuleaza", "plateste"). */
function romanianOnlyVerb(w: string): boolean {
  const f = FORMS.get(w);
  return (
    f !== undefined &&
    w.length >= 6 &&
    (f.kinds.has('imp') || f.kinds.has('youpl')) &&
    !ENGLISH_SPELLED.has(w) &&
    verbCategory(w) === undefined &&
    spanishCategory(w) === undefined &&
    italianCategory(w) === undefined &&
    portugueseCategory(w) === undefined &&
    frenchCategory(w) === undefined
  );
}

// ---------------------------------------------------------------------------------------------
// Verbs.
// ---------------------------------------------------------------------------------------------

/**
 * What a form is: the imperative, which is the third person too ("trimite", "anulează"), the
 * infinitive ("a trimite", "poți anula"), the second person ("trimiți", also after "să"), its
 * plural, which is the polite imperative too ("trimiteți"), the subjunctive of the third person
 * ("să trimită", "să anuleze"), the first person ("trimit") and "we" ("trimitem").
 */
type Kind = 'imp' | 'inf' | 'you' | 'youpl' | 'subj3' | 'first' | 'we';

/**
 * How a verb is conjugated (folded): `ez` (anula: anulează, anulez), `a` (căuta: caută, caut), `e`
 * (trimite: trimit, trimiți), `esc` (plăti: plătește, plătesc). A stressed stem, where the vowel
 * changes, follows a bar ("astept|asteapt/a": aștepta, așteaptă; "sterg|stearg/e": șterge, șteargă).
 */
type Conjugation = 'ez' | 'a' | 'e' | 'esc';

/**
 * Verbs (folded stems) by the action they name, `stem/class`. "Returna" returns data (a tool's
 * "Returnează detaliile") and pays back money after it; "transfera" moves a record, and pays with
 * money after it; "redirecționa" changes where a parcel goes, and sends a message after it;
 * "confirma" changes a record, and sends with a person it is confirmed to ("confirmă-i"); "scoate"
 * removes. Light verbs ("fă viramentul", "pune o notă", "dă-i un sms") are in LIGHT.
 */
const ROOTS: Record<Category, string> = {
  read:
    'caut/a verific/a cit/esc list/ez afis/ez gas/esc arat/a calcul/ez descarc/a compar/a analiz/ez rezum/a consult/a ' +
    'urmar/esc return/ez deschid/e afl/a filtr/ez estim/ez explic/a numar/a monitoriz/ez extrag/e identific/a localiz/ez ' +
    'control/ez uit/a cercet/ez',
  send:
    'trimit/e retrimit/e transmit/e expedi/ez raspund/e scri/e sun/a anunt/a inform/ez notific/a contact/ez instiint/ez ' +
    'comunic/a spun/e amint/esc reamint/esc intreb|intreab/a forward/ez export/a',
  share: 'acord/a partaj/ez invit/a',
  publish: 'public/a post/ez',
  pay: 'plat/esc achit/a vir/ez ramburs/ez incas/ez cumpar/a comand/a aliment/ez decont/ez despagub/esc',
  book: 'rezerv/a program/ez aranj/ez planific/a inchiri/ez',
  change:
    'modific/a schimb/a actualiz/ez adaug/a cre/ez gener/ez emit/e mut/a reprogram/ez redirection/ez not/ez inregistr/ez ' +
    'complet/ez corect/ez set/ez configur/ez salv/ez aplic/a rezolv/a inchid/e bloc/ez debloc/ez activ/ez reactiv/ez aprob/a accept/a ' +
    'resping/e semn/ez inlocu/esc aloc/a asign/ez marc/ez inscri/e atribu/esc prelung/esc reinno/esc suspend/a edit/ez redenum/esc ' +
    'import/a confirm/a fix/ez introduc/e transfer/a',
  delete: 'sterg|stearg/e anul/ez elimin/a scoat/e dezactiv/ez revoc/a retrag/e renunt/a gol/esc arhiv/ez dezabon/ez opr/esc',
  exec: 'rul/ez instal/ez execut/a porn/esc lans/ez',
};

interface Form {
  category: Category;
  /** The verb's imperative ("trimite" for "trimiți"), as a request writes it. */
  imp: string;
  /** The verb's infinitive ("anula"), by which the readers below tell one verb from another. */
  verb: string;
  kinds: Set<Kind>;
}

const VOWEL = /[aeiou]$/;

/** A stem's spelling before "e" or "i": "bloc" + "eaza" is "blocheaza", "marc" + "eze" "marcheze". */
function hard(stem: string, ending: string): string {
  return /[cg]$/.test(stem) && /^[ei]/.test(ending) ? `${stem}h${ending}` : stem + ending;
}

/** The second person of a verb of the `e` class: "trimiți", "răspunzi", "pui", "scrii". */
function youOfE(stem: string): string {
  if (/un$/.test(stem)) return `${stem.slice(0, -1)}i`;
  if (stem.endsWith('d')) return `${stem.slice(0, -1)}zi`;
  return `${stem}i`;
}

/** Every form of a verb, folded, by kind. */
function formsOf(entry: string): { verb: string; imp: string; forms: [string, Kind][] } {
  const [stems, conj] = entry.split('/') as [string, Conjugation];
  const [stem, stressed = stems] = stems.split('|');
  switch (conj) {
    case 'ez': {
      // "copia" gives "copiază", "expedia" "expediază": the "e" of "-ează" is not written after "i".
      const ea = stem.endsWith('i') ? 'aza' : 'eaza';
      const imp = stem.endsWith('i') ? stem + ea : hard(stem, ea);
      return {
        verb: `${stem}a`,
        imp,
        forms: [
          [`${stem}a`, 'inf'],
          [imp, 'imp'],
          [`${stem}ati`, 'youpl'],
          [hard(stem, 'ezi'), 'you'],
          [hard(stem, 'ez'), 'first'],
          [hard(stem, 'eze'), 'subj3'],
          [`${stem}am`, 'we'],
        ],
      };
    }
    case 'a':
      return {
        verb: `${stem}a`,
        imp: `${stressed}a`,
        forms: [
          [`${stem}a`, 'inf'],
          [`${stressed}a`, 'imp'],
          [`${stem}ati`, 'youpl'],
          [stem.endsWith('d') ? `${stem.slice(0, -1)}zi` : `${stem}i`, 'you'],
          [stem, 'first'],
          [`${stem}e`, 'subj3'],
          [`${stem}am`, 'we'],
        ],
      };
    case 'e':
      return {
        verb: `${stem}e`,
        imp: `${stem}e`,
        forms: [
          [`${stem}e`, 'inf'],
          [`${stem}e`, 'imp'],
          [`${stem}eti`, 'youpl'],
          [youOfE(stem), 'you'],
          [VOWEL.test(stem) ? `${stem}u` : stem, 'first'],
          [`${stressed}a`, 'subj3'],
          [`${stem}em`, 'we'],
        ],
      };
    case 'esc': {
      // "înlocui" gives "înlocuiește": a stem that ends in a vowel takes an "i" before "-ește".
      const s = VOWEL.test(stem) ? `${stem}i` : stem;
      return {
        verb: `${stem}i`,
        imp: `${s}este`,
        forms: [
          [`${stem}i`, 'inf'],
          [`${s}este`, 'imp'],
          [`${stem}iti`, 'youpl'],
          [`${s}esti`, 'you'],
          [`${s}esc`, 'first'],
          [`${s}easca`, 'subj3'],
          [`${stem}im`, 'we'],
        ],
      };
    }
  }
}

/** Every form of every verb, folded, to the verb it is (a form some kinds share, "trimite", holds them all). */
const FORMS: Map<string, Form> = (() => {
  const out = new Map<string, Form>();
  const add = (form: string, category: Category, verb: string, imp: string, kind: Kind) => {
    const f = out.get(form);
    if (f && f.verb !== verb) return;
    if (f) f.kinds.add(kind);
    else out.set(form, { category, verb, imp, kinds: new Set([kind]) });
  };
  for (const [category, entries] of Object.entries(ROOTS) as [Category, string][])
    for (const entry of entries.split(' ')) {
      const { verb, imp, forms } = formsOf(entry);
      for (const [form, kind] of forms) add(form, category, verb, imp, kind);
    }
  // Irregular: "vezi" (see) reads; "zi-i" (tell him) sends; "scoate" removes with "scot" for "I".
  const irregular: [Category, string, string, string][] = [
    ['read', 'vedea', 'vezi', 'vezi/imp vedea/inf vedeti/youpl vad/first vada/subj3 vedem/we'],
    ['read', 'obtine', 'obtine', 'obtine/imp obtine/inf obtineti/youpl obtii/you obtin/first obtina/subj3'],
    ['send', 'zice', 'zi', 'zi/imp ziceti/youpl'],
    ['delete', 'scoate', 'scoate', 'scot/first scoti/you'],
  ];
  for (const [category, verb, imp, forms] of irregular)
    for (const f of forms.split(' ')) {
      const [form, kind] = f.split('/') as [string, Kind];
      add(form, category, verb, imp, kind);
    }
  return out;
})();

/**
 * Verbs that carry no action of their own, with the one they name alone: "fă viramentul" pays, "fă
 * redirecționarea" changes, "pune o notă" changes, "pune-l pe site" publishes, "dă-i un sms" sends,
 * "dă-i acces" shares, "ia legătura cu" sends, "efectuează plata" pays, "ocupă-te de anulare"
 * deletes, "execută scriptul" runs.
 */
const LIGHT: Record<string, { forms: string; imp: string; alone?: Category }> = {
  face: { imp: 'fa', forms: 'fa/imp face/inf faceti/youpl faci/you fac/first faca/subj3 facem/we' },
  da: { imp: 'da', forms: 'da/imp dati/youpl dai/you dau/first dea/subj3 dam/we' },
  lua: { imp: 'ia', forms: 'ia/imp lua/inf luati/youpl iei/you iau/first luam/we' },
  pune: { imp: 'pune', forms: 'pune/imp pune/inf puneti/youpl pui/you pun/first puna/subj3 punem/we', alone: 'change' },
  efectua: {
    imp: 'efectueaza',
    forms: 'efectueaza/imp efectua/inf efectuati/youpl efectuezi/you efectuez/first efectueze/subj3 efectuam/we',
  },
  procesa: {
    imp: 'proceseaza',
    forms: 'proceseaza/imp procesa/inf procesati/youpl procesezi/you procesez/first proceseze/subj3 procesam/we',
  },
  realiza: {
    imp: 'realizeaza',
    forms: 'realizeaza/imp realiza/inf realizati/youpl realizezi/you realizez/first realizeze/subj3 realizam/we',
  },
  ocupa: { imp: 'ocupa', forms: 'ocupa/imp ocupati/youpl ocupi/you ocup/first ocupe/subj3' },
};
const LIGHT_FORMS: Map<string, { verb: string; kinds: Set<Kind> }> = (() => {
  const out = new Map<string, { verb: string; kinds: Set<Kind> }>();
  for (const [verb, l] of Object.entries(LIGHT))
    for (const f of l.forms.split(' ')) {
      const [form, kind] = f.split('/') as [string, Kind];
      const had = out.get(form);
      if (had?.verb === verb) had.kinds.add(kind);
      else if (!had) out.set(form, { verb, kinds: new Set([kind]) });
    }
  return out;
})();

/** Noun stems (folded) of an action, by its category, for a light verb: "virament", "plată", "rezervare". */
const LIGHT_NOUNS: [string, Category][] = (
  [
    ['virament transfer plat achitar rambursar despagubir incasar comand cumparatur voucher alimentar decontar', 'pay'],
    ['rezervar programar inchirier', 'book'],
    ['modificar schimbar actualizar redirectionar corectur corectar inregistrar mutar reprogramar retur not notit', 'change'],
    ['anular sterger eliminar renuntar', 'delete'],
    ['sms mesaj mail email telefon apel raspuns notificar confirmar vest stir legatur', 'send'],
    ['acces permisiun drept rol', 'share'],
    ['anunt postar', 'publish'],
    ['script', 'exec'],
  ] as [string, Category][]
).flatMap(([stems, c]) => stems.split(' ').map((s) => [s, c] as [string, Category]));

/** Endings a noun takes for its article, number and case: "factura", "facturii", "facturile", "coletul", "coletului". */
const NOUN_ENDINGS = [
  '',
  'a',
  'e',
  'i',
  'ii',
  'ei',
  'ul',
  'ului',
  'le',
  'lor',
  'ele',
  'elor',
  'uri',
  'urile',
  'urilor',
  'ile',
  'ilor',
  'ea',
  'eni',
];

/** Whether a folded word is a noun of this stem in one of its forms. */
function nounOf(w: string, stem: string): boolean {
  if (!w.startsWith(stem)) return false;
  const rest = w.slice(stem.length);
  return NOUN_ENDINGS.includes(rest);
}

/** Where something put up is read by others: "pe site", "pe pagină", "pe canal", "în grup". */
const VENUES = ['site', 'pagin', 'facebook', 'instagram', 'linkedin', 'twitter', 'blog', 'portal', 'canal', 'grup', 'forum'];

/** A light verb's action: its venue ("pune-l pe site"), "în copie", the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if (verb === 'pune' && after.some((w) => VENUES.some((v) => nounOf(w, v)))) return 'publish';
  if (after.some((w, k) => (w === 'copie' || w === 'cc') && (after[k - 1] === 'in' || after[k - 1] === 'pe'))) return 'send';
  for (const w of after) {
    const hit = LIGHT_NOUNS.find(([s]) => nounOf(w, s));
    if (hit) return hit[1];
  }
  return LIGHT[verb].alone;
}

/** Pronouns Romanian writes before a verb or joins to it by a hyphen ("trimite-i", "nu-l suna", "îi trimiți"). */
const CLITICS = wordSet('i ii il l o le li ne va te ti iti mi imi ma m s se si v');
/** Of those, the ones that make a message a reply to the user: "trimite-mi", "spune-ne", "anunță-mă". */
const TO_USER_CLITICS = wordSet('mi imi ma m ne');
/** Of those, the ones that name a person something is given or told: "confirmă-i", "spune-le". */
const DATIVE = wordSet('i ii le li lui');

interface Found {
  form?: Form;
  light?: string;
  kinds: Set<Kind>;
}

function lookup(w: string): Found | undefined {
  const form = FORMS.get(w);
  if (form) return { form, kinds: form.kinds };
  const light = LIGHT_FORMS.get(w);
  return light ? { light: light.verb, kinds: light.kinds } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Tools.
// ---------------------------------------------------------------------------------------------

/** Forms tools use in their names and descriptions: the imperative (also the third person) and the infinitive. */
const TOOL_KINDS = new Set<Kind>(['inf', 'imp']);
/** Forms that are as often nouns in a tool's name ("nota", "lista" is read either way, "comanda", "posta", "copia"). */
const TOOL_NOUNS = wordSet('nota comanda posta copia marca transfer plan accept import export zi da');

/**
 * Nouns that name what a read-only tool returns, as English "history", "report", "details", "status"
 * do (lexicon.ts, isReadNoun): `istoric_livrare`, `raport_ramburs`, `stare_locker`, `detalii_retur`.
 */
const READ_NOUNS = wordSet(
  'istoric istoricul raport raportul rapoarte detalii detaliile stare starea informatii disponibilitate statistici',
);

/** The category of a word as a Romanian verb (for a tool's name and description): "trimite", "anulează", "returnează", "caută". */
export function romanianCategory(word: string): Category | undefined {
  const w = fold(word).replace(/[^a-z0-9]/g, '');
  if (READ_NOUNS.has(w)) return 'read';
  const f = FORMS.get(w);
  // A light verb names no action of its own in a tool's name either (`efectueaza_plata` pays,
  // `executa_script` runs): its arguments say which sink.
  return f && [...f.kinds].some((k) => TOOL_KINDS.has(k)) && !TOOL_NOUNS.has(w) ? f.category : undefined;
}

/** Where a tool's name holds a Romanian verb (`trimite_sms`, `redirectioneaza_colet`, `colet_cauta`), or -1: such a name is Romanian. */
export function romanianInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => romanianCategory(w) !== undefined && fold(w).length >= 4);
}

// ---------------------------------------------------------------------------------------------
// Objects.
// ---------------------------------------------------------------------------------------------

/** Noun stems that say what an action acts on, by the lexicon's object kinds. */
const OBJECTS: Partial<Record<ObjectKind, readonly string[]>> = {
  money: (
    'bani ban suma sum factur plat virament ramburs rambursar transfer iban lei leu ron eur euro dolari chiri rat taxa tax comision ' +
    'despagubir avans garanti abonament salari pret tarif amend voucher sold'
  ).split(' '),
  message: 'mesaj sms mail email scrisoar raspuns notificar anunt memento reminder confirmar nota notit newsletter circular'.split(' '),
  access: 'acces permisiun rol admin administrator utilizator invitati'.split(' '),
  booking: 'programar rezervar ridicar livrar intalnir vizit sedint camer mas zbor bilet loc sal consultati interval tur'.split(' '),
  publication: 'postar articol recenzi comentari stir'.split(' '),
  credential: 'parol pin token cod credential'.split(' '),
};

/** The lexicon's object kinds the nouns name: "factura", "facturile", "viramentul", "mesajul". */
export function romanianObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const raw of ws.slice(0, 64)) {
    const w = fold(raw).replace(/[^a-z0-9]/g, '');
    for (const [k, stems] of Object.entries(OBJECTS) as [ObjectKind, readonly string[]][]) if (stems.some((s) => nounOf(w, s))) out.add(k);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Requests.
// ---------------------------------------------------------------------------------------------

/** Words after which a verb is a verb: a conjunction, an adverb, "te rog", "tu". */
const VERB_CONTEXT = wordSet(
  'si apoi iar dar deci atunci rog acum azi maine imediat urgent doar numai tu dumneata mai inca neaparat totusi ok okay bun gata buna salut mersi multumesc intai urma repede direct ulterior aia aceea asemenea',
);
/** Modals before an infinitive: "poți trimite", "puteți anula", "ai putea plăti". */
const MODAL = wordSet('poti puteti putea');
/** Words after which "să" leads into an order: "te rog să", "vreau să", "trebuie să", "nu uita să", "hai să". */
const SA_LEAD = wordSet(
  'rog rugam vreau vrem vrei vrea doresc dorim dori trebuie poti puteti putea uita uitati hai haide haideti incearca incercati grija nevoie necesar',
);
/** "Vreau", "trebuie": a need the user states as theirs ("vreau să anulez"); put as a question ("Trebuie să plătesc …?"), it asks advice. */
const OWN_NEED = wordSet('vreau vrem vrea doresc dorim dori trebuie nevoie');
/** "Vrea" and "ar vrea" are a third party's wish; "aș vrea", "am vrea" the user's. */
const WISH_OF_USER = wordSet('as am');
const NEGATORS = wordSet('nu n fara niciodata nici');
/** Subjects that make a form a statement: "eu trimit", "el plătește", "clientul care plătește". */
const SUBJECTS = wordSet('eu el ea ei ele noi voi care cine');
/** Words that make what follows a subordinate clause: "dacă", "că", "ce", "când", "ca să". */
const SUBORDINATE = wordSet('daca ca ce care cand unde cum pana cine incat deoarece fiindca pentruca');
const QUESTION_WORDS = wordSet('cine ce cand cat cate cati unde cum care oare de cui');
/** Forms that are as often nouns heading a record: "Nota internă", "Comanda nr. 12", "Rezerva de stoc". */
const HOMOGRAPHS = wordSet('nota comanda rezerva copia posta lista marca plan transfer accept import export salva seta');
/** A verb's own noun heading a record: followed by "de", "din", "nr.", a number, a participle, or nothing ("Comanda nr. 12", "Nota internă"). */
function nounHeading(ws: readonly Word[], i: number): boolean {
  const next = ws[i + 1]?.w;
  if (next === undefined) return true;
  return (
    /^(?:de|din|nr|numar|interna|internă|noua|nou|finala|lui|clientului)$/.test(next) ||
    /^\d/.test(next) ||
    /(?:at|it|ut|ata|ita|ate|ite)$/.test(next)
  );
}
/** Channels a message leaves the chat by ("pe mail", "prin sms", "pe whatsapp"). */
const BY_CHANNEL = wordSet('mail email e whatsapp sms telegram fax posta');

/** How far back a verb's context is looked for: a clause of thousands of words is read once, not once per word. */
const WINDOW = 12;

interface Verb {
  category: Category;
  verb: string;
  imp: string;
  kinds: Set<Kind>;
  /** A pronoun joined to it by a hyphen ("trimite-i"): an imperative for sure, with the person it is for. */
  clitic?: string;
}

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "returnează" and "transferă" by their money. */
function verbAt(ws: readonly Word[], i: number, labels: ReadonlySet<number>): Verb | undefined {
  if (labels.has(i)) return undefined;
  const f = lookup(ws[i].w);
  if (!f) return undefined;
  const next = ws[i + 1];
  const clitic = next?.joined && CLITICS.has(next.w) ? next.w : undefined;
  // "da" is "yes" as often as "give", "zi" "day" as often as "say": each asks only with a pronoun on it ("dă-i", "zi-i").
  if ((ws[i].w === 'da' || ws[i].w === 'zi') && clitic === undefined) return undefined;
  const after = ws.slice(i + 1, i + 13).map((x) => x.w);
  if (f.light) {
    const category = lightCategory(f.light, after.slice(0, 8));
    return category ? { category, verb: f.light, imp: LIGHT[f.light].imp, kinds: f.kinds, clitic } : undefined;
  }
  const form = f.form!;
  if (clitic === undefined && HOMOGRAPHS.has(ws[i].w) && nounHeading(ws, i)) return undefined;
  const v: Verb = { category: form.category, verb: form.verb, imp: form.imp, kinds: f.kinds, clitic };
  const objects = romanianObjects(after.slice(0, 6));
  if ((form.verb === 'returna' || form.verb === 'transfera') && objects.has('money')) return { ...v, category: 'pay' };
  if (form.verb === 'redirectiona' && objects.has('message')) return { ...v, category: 'send' };
  // "Confirmă-i", "confirmă-le pe canal": confirming to someone is telling them.
  if (form.verb === 'confirma' && clitic !== undefined && DATIVE.has(clitic)) return { ...v, category: 'send' };
  // "Sună la interfon": ringing a doorbell is a courier's note, no call.
  if (form.verb === 'suna' && after.slice(0, 3).some((w) => DOORBELL.has(w))) return undefined;
  return v;
}
/** What a courier rings: "sunați la interfon", "sună la sonerie", "la ușă", "la poartă". */
const DOORBELL = wordSet('interfon interfonul sonerie soneria usa poarta clopotel');

/** The index before `i` past the pronouns standing before a verb ("îi trimiți", "i-l trimiți", "să-i trimită"), within its part. */
function pastClitics(ws: readonly Word[], i: number, parts: ReadonlySet<number>): number {
  let j = i - 1;
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && CLITICS.has(ws[j].w) && ws[j].w !== 'si') j--;
  return j;
}

/**
 * Whether the verb at `i` stands as one the reader is asked to carry out. An imperative asks first
 * in its part, after a word that leads into one ("și", "apoi", "te rog"), or anywhere with a pronoun
 * joined to it ("mută-l", "dă-i": the third person puts it before, "îl mută"); the second persons
 * ("rambursezi banii și îi trimiți un sms") and "trimiteți" ask the same way, a pronoun before them
 * allowed; after "să", each asks where "te rog", "vreau", "trebuie", "nu uita", "hai" lead into it
 * (the first person where the user wants or needs it: "vreau să anulez"), or "să" opens the part; an
 * infinitive asks after "poți", "puteți", "ai putea", or first in its part.
 */
function stands(ws: readonly Word[], i: number, v: Verb, parts: ReadonlySet<number>, question: boolean): boolean {
  const k = v.kinds;
  const j = pastClitics(ws, i, parts);
  const pronounBefore = j < i - 1;
  const opens = j < 0 || parts.has(j + 1);
  const before = opens ? undefined : ws[j].w;
  if (before === 'sa') {
    const ok = k.has('you') || k.has('youpl') || k.has('we') || k.has('first');
    if (!ok) return false;
    let l = j - 1;
    while (l >= 0 && !parts.has(l + 1) && (CLITICS.has(ws[l].w) || ws[l].w === 'mai' || ws[l].w === 'si') && j - l <= 3) l--;
    const sayOpens = l < 0 || parts.has(l + 1);
    if (sayOpens) return (k.has('you') || k.has('youpl')) && !question;
    const lead = ws[l].w;
    if (lead === 'hai' || lead === 'haide' || lead === 'haideti') return k.has('we');
    if (!SA_LEAD.has(lead)) return false;
    if (lead === 'vrea' || lead === 'dori' || lead === 'putea') {
      if (!(l > 0 && (WISH_OF_USER.has(ws[l - 1].w) || ws[l - 1].w === 'ai' || ws[l - 1].w === 'ati'))) return false;
    }
    if (k.has('you') || k.has('youpl')) return true;
    if (k.has('we')) return lead === 'trebuie' || lead === 'rog' || lead === 'rugam' || OWN_NEED.has(lead);
    // "Vreau să anulez", "trebuie să plătesc": the user's own need; asked ("Trebuie să plătesc …?"), advice.
    return OWN_NEED.has(lead) && !question;
  }
  if (k.has('inf') && before !== undefined && MODAL.has(before)) return true;
  const imperative = k.has('imp') || k.has('youpl') || k.has('you');
  if (!imperative && !k.has('inf')) return false;
  // A pronoun joined by a hyphen makes an imperative of it wherever it stands: "mută-l acolo", "si da, dă-i sms".
  if (v.clitic !== undefined && (k.has('imp') || k.has('youpl')) && !pronounBefore) return before === undefined || !SUBJECTS.has(before);
  // A pronoun before an imperative's form makes it a third person ("îl sună", "le trimite"); before the second persons it is theirs ("îi trimiți").
  if (pronounBefore && !(k.has('you') || k.has('youpl'))) return false;
  // "…, zice că nu poate": a verb of saying before "că", opening a later part, reports what someone said.
  if (opens) return (imperative || k.has('inf')) && !(j >= 0 && ws[i + 1]?.w === 'ca' && v.clitic === undefined);
  if (NEGATORS.has(before!) || SUBJECTS.has(before!)) return false;
  return imperative && VERB_CONTEXT.has(before!);
}

/** A negation before the verb in its part: "nu trimite", "nu-l suna", "n-o trimite", "fără să-l anunți"; "nu uita să plătești" asks. */
function negated(ws: readonly Word[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= 5 && !parts.has(j + 1); j--) {
    const w = ws[j].w;
    if (w === 'si' || w === 'dar' || w === 'ci' || w === 'apoi' || w === 'iar' || w === 'uita' || w === 'uitati') return false;
    if (NEGATORS.has(w)) return true;
  }
  return false;
}

/** A verb after "dacă", "că", "ce" that does not open its part: "verifică dacă a plătit", "spune-i că trimitem", "fă ce cere Irina". */
function subordinate(ws: readonly Word[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= WINDOW && !parts.has(j + 1); j--) {
    const w = ws[j].w;
    if (w === 'si' || w === 'apoi' || w === 'dar' || w === 'iar') return false;
    if (SUBORDINATE.has(w) && !(j === 0 || parts.has(j))) return true;
    // "ca să" (so that): a purpose, wherever it stands.
    if (w === 'sa' && j > 0 && ws[j - 1].w === 'ca') return true;
  }
  return false;
}

/** A message to the user: "trimite-mi", "spune-mi", "îmi trimiți", "anunță-mă", unless it leaves the chat by a channel or an address. */
function toUser(ws: readonly Word[], i: number, v: Verb, address: boolean): boolean {
  const after = ws.slice(i + 1, i + 13).map((x) => x.w);
  if (address || after.some((w, k) => BY_CHANNEL.has(w) && (after[k - 1] === 'pe' || after[k - 1] === 'prin'))) return false;
  if (v.clitic !== undefined && TO_USER_CLITICS.has(v.clitic)) return true;
  const before = ws[i - 1]?.w;
  if (before !== undefined && TO_USER_CLITICS.has(before)) return true;
  return after.slice(0, 4).some((w, k, a) => w === 'mie' || (w === 'mine' && a[k - 1] === 'pe'));
}

/** Where a new part of a clause starts, by this reader's words (lexicon.ts, clauseParts). */
const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

/**
 * The actions a Romanian request asks for, clause by clause. A question that opens with an
 * interrogative asks about things ("Cine poate lua Militari?", "Ce intervale avem?"), where "Poți
 * să trimiți …?" asks for the action.
 */
export function romanianActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  for (const clause of prose.replace(/\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const ws = wordsOf(clause);
    const question = clause.trim().endsWith('?');
    if (ws.length === 0) continue;
    const first = ws[0].w === 'si' || ws[0].w === 'dar' ? ws[1]?.w : ws[0].w;
    if (question && (QUESTION_WORDS.has(first ?? '') || (first === 'pe' && QUESTION_WORDS.has(ws[1]?.w ?? '')))) continue;
    const { parts, labels } = partsOf(clause);
    const address = clause.includes('@');
    for (let i = 0; i < ws.length; i++) {
      const v = verbAt(ws, i, labels);
      if (!v || v.category === 'read') continue;
      if (!stands(ws, i, v, parts, question) || negated(ws, i, parts) || subordinate(ws, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i, v, address)) continue;
      const after = ws.slice(i + 1, i + 13).map((x) => x.w);
      out.push({
        category: v.category,
        after,
        words: ws
          .slice(i, i + 4)
          .map((x) => x.w)
          .join(' '),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Orders in data, offers and plans.
// ---------------------------------------------------------------------------------------------

/** Words that lead into an order in data: "Vă rugăm …", "Important: …", "Urgent …", "Te rog …". */
const ORDER_LEAD_IN = wordSet(
  'va te rog rugam important urgent atentie nb ps si apoi de asemenea acum imediat neaparat deci totodata obligatoriu',
);
/** Who an order in data is put on: the reader or a role ("operatorul care preia tichetul", "asistentul", "agentul de serviciu"). */
const ROLES = /^(?:(?:operator|asistent|agent|chatbot|dispecer|angajat|responsabil)\w*|botul|sistemul|cine|oricine)$/;
/** An obligation: "trebuie să", "este obligatoriu să", "are obligația să". */
const OBLIGE = wordSet('trebuie obligatoriu obligatia necesar');

/** Two capitalised words, the second no function word: a name ("Roxana Pîrvu", "Irina Dumitru"), opening a record's line. */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+(?!(?:Vă|Va|Te|Nu|Și|Si|La|De|Pe|În|In|Cu|Un|O)\b)\p{Lu}\p{Ll}+/u;

/** The verb a subject's clause holds, up to WINDOW words on: "Operatorul care preia tichetul exportă raportul …". */
function roleVerb(ws: readonly Word[], from: number): { at: number; v: Verb } | undefined {
  for (let k = from + 1; k < ws.length && k <= from + 2 * WINDOW; k++) {
    // The role's own relative clause ("care preia acest tichet", "care citește acest mesaj") is passed over.
    if (ws[k - 1]?.w === 'care' || ws[k - 2]?.w === 'care') continue;
    const v = verbAt(ws, k, new Set());
    if (!v) continue;
    const j = pastClitics(ws, k, new Set());
    if (j >= 0 && NEGATORS.has(ws[j].w)) return undefined;
    if (v.kinds.has('imp') || (ws[j]?.w === 'sa' && v.kinds.has('subj3'))) return v.category === 'read' ? undefined : { at: k, v };
    if (OBLIGE.has(ws[k].w)) continue;
  }
  return undefined;
}

/**
 * An order written in Romanian in data: a part that opens with an imperative of an action other
 * than reading ("Virați suma în contul …", "Trimite-i lista la …"), with "vă rugăm să", "te rog să"
 * and the second person ("Vă rugăm să informați prin SMS toți destinatarii …"), or a duty put on the
 * reader or a role, in the present or with "trebuie să" ("Operatorul care preia tichetul exportă
 * raportul și îl trimite …", "Operatorul trebuie să anuleze expediția …"). A noun heading
 * ("Anularea expediției"), an infinitive title, a statement ("Plătesc cash la ușă", "Curierul sună
 * înainte"), what is done by no one ("Viramentele se fac în noul cont"), a negated order and a
 * courier's note ("Sunați la interfon") are none. Returns the words that order.
 */
export function romanianOrderIn(sentence: string): string | undefined {
  const text = sentence.slice(0, 8000);
  if (text.trim().endsWith('?')) return undefined;
  for (const part of text.split(/[:;,]\s*|\s+și\s+|\s+si\s+/i).slice(0, 60)) {
    const ws = wordsOf(part);
    let i = 0;
    // A list's number ("1) Programați …", "2. Trimite …") leads into its item.
    while (i < ws.length && i < WINDOW && (ORDER_LEAD_IN.has(ws[i].w) || (i === 0 && /^\d{1,2}$/.test(ws[i].w)))) i++;
    const polite = ws.slice(0, i).some((x) => x.w === 'rog' || x.w === 'rugam');
    if (i === 0 && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    if (i < ws.length && NEGATORS.has(ws[i].w)) continue;
    // "Vă rugăm să informați …", "te rog să trimiți …".
    if (polite && ws[i]?.w === 'sa') {
      let k = i + 1;
      while (k < ws.length && CLITICS.has(ws[k].w) && k - i <= 3) k++;
      const v = k < ws.length ? verbAt(ws, k, new Set()) : undefined;
      if (v && v.category !== 'read' && (v.kinds.has('you') || v.kinds.has('youpl')))
        return ws
          .slice(k, k + 4)
          .map((x) => x.w)
          .join(' ');
      continue;
    }
    const v = i < ws.length ? verbAt(ws, i, new Set()) : undefined;
    if (v && v.category !== 'read' && ws.length - i >= 3 && (v.kinds.has('imp') || v.kinds.has('youpl') || (polite && v.kinds.has('inf'))))
      return ws
        .slice(i, i + 4)
        .map((x) => x.w)
        .join(' ');
  }
  const ws = wordsOf(text);
  for (let r = 0; r < ws.length && r < 400; r++) {
    if (!ROLES.test(ws[r].w)) continue;
    const found = roleVerb(ws, r);
    if (found)
      return ws
        .slice(r, r + 1)
        .concat(ws.slice(found.at, found.at + 4))
        .map((x) => x.w)
        .join(' ');
  }
  // "trebuie să plătiți …": an obligation on the reader, with no role named.
  for (let o = 0; o < ws.length - 2 && o < 400; o++) {
    if (!OBLIGE.has(ws[o].w) || ws[o + 1]?.w !== 'sa' || (o > 0 && NEGATORS.has(ws[o - 1].w))) continue;
    let k = o + 2;
    while (k < ws.length && CLITICS.has(ws[k].w) && k - o <= 4) k++;
    const v = k < ws.length ? verbAt(ws, k, new Set()) : undefined;
    if (v && v.category !== 'read' && (v.kinds.has('you') || v.kinds.has('youpl')))
      return ws
        .slice(o, k + 3)
        .map((x) => x.w)
        .join(' ');
  }
  return undefined;
}

/** A question that asks leave to go on: "Continui?", "Să procedez?", "E în regulă?", "Sunteți de acord?", "Confirmați?". */
const ASKS_TO_GO_ON =
  /^(?:(?:ok|bine|deci|atunci)[,!]?\s+)?(?:(?:sa\s+)?(?:continui|continuam|procedez|procedam|merg\s+mai\s+departe|mergem\s+mai\s+departe|il\s+fac|o\s+fac|fac\s+asa|trec\s+la\s+treaba)|(?:e|este)\s+(?:in\s+regula|ok|bine|corect)|(?:esti|sunteti)\s+de\s+acord|de\s+acord|confirmi|confirmati|ok|bine\s+asa|merge\s+asa|(?:pot|putem)\s+(?:sa\s+)?(?:continui|continua|continuam|procedez|proceda|procedam|merge\s+mai\s+departe))(?:\s+(?:atunci|acum|asa))?\s*\?+$/;
/** A question that offers, then the verb: "Vrei să trimit …?", "Doriți să anulez …?", "Să trimit …?", "Pot să trimit …?", "Trimit …?". */
const OFFER_LEAD =
  /^(?:(?:vrei|vreti|doresti|doriti|preferi|preferati)\s+(?:ca\s+)?sa\s+|(?:sa|pot\s+sa|pot|putem\s+sa|putem|as\s+putea\s+sa|as\s+putea|trebuie\s+sa)\s+)?/;

/** A proposal's words with its verb written as the imperative it becomes: "îi trimit un SMS" → "trimite-i un SMS". */
function asImperative(raw: readonly string[], kinds: readonly Kind[]): string | undefined {
  let j = 0;
  const pronouns: string[] = [];
  while (j < raw.length && j < 4 && CLITICS.has(fold(raw[j]).replace(/[^a-z]/g, ''))) pronouns.push(fold(raw[j++]).replace(/[^a-z]/g, ''));
  const word = fold(raw[j] ?? '').replace(/[^a-z]/g, '');
  const f = lookup(word);
  if (!f || !kinds.some((k) => f.kinds.has(k))) return undefined;
  const ws = wordsOf(raw.join(' '));
  const v = verbAt(
    ws,
    ws.findIndex((x) => x.w === word),
    new Set(),
  );
  if (!v || v.category === 'read') return undefined;
  const clitic = pronouns.map((p) => (p === 'ii' ? 'i' : p === 'il' ? 'l' : p === 'imi' ? 'mi' : p === 'iti' ? 'ti' : p)).join('-');
  return [clitic ? `${v.imp}-${clitic}` : v.imp, ...raw.slice(j + 1)].join(' ');
}

/**
 * What the assistant offers to do in a Romanian question, written as the user would ask for it:
 * "Să-i trimit și un SMS de confirmare?" gives "trimite-i și un SMS de confirmare"; "Vrei să anulez
 * rezervarea?" gives "anuleaza rezervarea"; a question that asks leave to go on ("Continui?", "E în
 * regulă?") gives 'go-on'. Undefined for any other question ("Pe cine pun pe Militari?").
 */
export function romanianOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().slice(0, 2000);
  if (!q.endsWith('?')) return undefined;
  const folded = fold(q).replace(/-/g, ' ').replace(/\s+/g, ' ');
  if (ASKS_TO_GO_ON.test(folded)) return 'go-on';
  const rest = q
    .replace(/\s*\?+$/, '')
    .replace(/-/g, ' ')
    .trim();
  const lead = OFFER_LEAD.exec(fold(rest))![0];
  const raw = rest.slice(lead.length).split(/\s+/).filter(Boolean);
  return asImperative(raw, lead === '' ? ['first'] : ['first', 'inf', 'we']);
}

/** A plan in the first person: "Voi trimite …", "O să trimit …", "Pot să anulez …", "Mă ocup să …", "Urmează să …". */
const PLAN_LEAD = /^(?:eu\s+)?(?:voi|vom|o\s+sa|am\s+sa|pot\s+sa|pot|putem\s+sa|putem|urmeaza\s+sa|ma\s+ocup\s+sa|ma\s+apuc\s+sa)\s+/;

/** What the assistant says it will or can do: "Trimit acum SMS-ul", "Voi anula expediția", "O să-i trimit un e-mail" (as "trimite-i un e-mail"). */
export function romanianPlan(sentence: string): string | undefined {
  const s = sentence
    .trim()
    .slice(0, 2000)
    .replace(/[.!:]+$/, '')
    .replace(/-/g, ' ');
  const lead = PLAN_LEAD.exec(fold(s));
  const raw = s
    .slice(lead ? lead[0].length : 0)
    .split(/\s+/)
    .filter(Boolean);
  if (/^eu\s/i.test(s) && !lead) raw.shift();
  return asImperative(raw, lead ? ['inf', 'first', 'we'] : ['first']);
}
