/**
 * Requests and tools written in Hungarian (docs/taint-policy.md, "Requests in Hungarian"). The English
 * parse finds no verb in "Küldd el a számlát Péternek" or "Le tudnád foglalni az asztalt?", and so
 * asks for nothing: every call of a Hungarian-speaking team would be blocked as unasked. Hungarian is
 * agglutinative: a verb is told by its stem and ending, each form generated here from the stem and
 * its subjunctive stem, which carries the assimilation ("küld", "küldj": "küldd", "küldjétek",
 * "küldje", "küldjük"; "fizet", "fizess": "fizesd"), with vowel harmony ("foglaljatok",
 * "küldjetek"); a verb's prefix ("el", "le", "meg", "vissza") stands before it in the infinitive and
 * the statement ("elküldeni", "lefoglalom") and after it in the imperative ("küldd el", "foglald le"),
 * and may give it its action ("lemond" cancels, "levon" charges, "beír" enters). A noun is told by
 * its stem and case endings ("számla", "számlát", "számlára", "végszámláját"). Words are compared
 * folded ("ő" as "o", "á" as "a"), since quick messages drop the accents.
 */
import { wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';
import { fold } from './spanish.js';

/**
 * The folded words of a text: "e-mail" is "email"; a case ending written after a hyphen onto a code,
 * a number or an abbreviation goes ("sms-t" is "sms", "BK-25-03155-öt" "bk-25-03155"); a channel keeps its "#".
 */
export function hungarianWords(text: string): string[] {
  const joined = text
    .toLowerCase()
    .replace(/\be-(?=mail)/g, 'e')
    .replace(/(?<=\p{N})-(?=\p{L}{1,6}(?![\p{L}\p{N}-]))/gu, '')
    .replace(/(?<=[\p{L}\p{N}])-(?:\p{L}{1,6})(?![\p{L}\p{N}-])/gu, '');
  return (joined.match(/#?[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)*/gu) ?? []).map((w) => fold(w));
}

// ---------------------------------------------------------------------------------------------
// Verbs: the stem and subjunctive stem of each, and every form generated from the two.
// ---------------------------------------------------------------------------------------------

/**
 * Verbs by the action they name, as `stem` (the subjunctive follows by rule: "küld" → "küldj",
 * "fizet" → "fizess", "intéz" → "intézz", "állít" → "állíts"), or `stem/subjunctive/def.imperative/infinitive`
 * where they are irregular. A prefix written onto a verb ("elküld", "lefoglal") is the same verb;
 * a prefix that gives it another action is in PREFIXED. Light verbs are in LIGHT.
 */
const STEMS: Record<Category, string> = {
  read:
    'néz ellenőriz keres olvas listáz le+kérdez mutat számol össze+hasonlít talál le+tölt nyit vizsgál követ figyel ' +
    'le+kér ki+keres át+néz utána+néz',
  send: 'küld ír válaszol értesít szól hív jelez tájékoztat emlékeztet üzen telefonál továbbít mond emailez smsez vissza+igazol',
  share: 'meg+oszt engedélyez',
  publish: 'posztol publikál meg+hirdet',
  pay: 'fizet utal terhel vásárol rendel térít jóvá+ír ki+egyenlít számláz',
  book: 'foglal ütemez elő+jegyez rezervál',
  change:
    'módosít változtat frissít rögzít hosszabbít állít létre+hoz készít jóvá+hagy el+fogad jelöl zár javít cserél ' +
    'át+nevez regisztrál hozzá+rendel ki+tölt másol növel csökkent emel aktivál tilt zárol könyvel párosít pótol',
  delete: 'töröl meg+szüntet el+távolít archivál fel+mond sztornóz érvénytelenít',
  exec: 'futtat telepít indít',
};

/** Verbs whose prefix gives them an action of its own, as `prefix+stem`: "lemond" cancels, "levon" charges. */
const PREFIXED: Record<string, Category> = {
  'le+mond': 'delete',
  'vissza+mond': 'delete',
  'le+von': 'pay',
  'vissza+von': 'delete',
  'össze+von': 'change',
  'be+ír': 'change',
  'fel+ír': 'change',
  'át+ír': 'change',
  'alá+ír': 'change',
  'fel+visz': 'change',
  'be+visz': 'change',
  'fel+vesz': 'change',
  'bele+vesz': 'change',
  'le+vesz': 'delete',
  'vissza+ad': 'pay',
  'hozzá+ad': 'change',
  'el+tol': 'change',
  'át+tesz': 'change',
  'át+rak': 'change',
  'közzé+tesz': 'publish',
  'ki+rak': 'publish',
  'fel+tölt': 'share',
  'vissza+állít': 'change',
  'ki+dob': 'publish',
  'vissza+küld': 'send',
  // Bookkeeping's own: "vezesd le kiegyenlítettnek" records, "vezesd át" carries a change into the records.
  'le+vezet': 'change',
  'át+vezet': 'change',
};

/** Verbs that carry no action of their own: the noun or the place beside them says it ("intézz egy asztalt", "adj hozzáférést"); a few name one alone. */
const LIGHT: Record<string, Category | undefined> = {
  csinál: undefined,
  intéz: undefined,
  kezel: undefined,
  rendez: undefined,
  'tesz/tegy/tedd/tenni': undefined,
  'vesz/vegy/vedd/venni': 'pay',
  'visz/vigy/vidd/vinni': undefined,
  ad: 'share',
  dob: 'send',
  rak: undefined,
  tol: undefined,
  von: undefined,
};

/**
 * imp: the imperative, "you" and "you all" ("küldj", "küldd", "küldjétek", "küldjél"); we: "let us"
 * ("küldjük", "küldjünk"); formal: the polite "you" ("küldje", "küldjön", "küldjék"); subj1: "shall I"
 * ("küldjek", "küldjem"); inf: "küldeni"; infme: the infinitive with its person ("küldenem", "küldened":
 * I or you must); cond: a wish put to the reader ("küldenéd", "küldenél"); condme: "küldeném" (I
 * would); pres2: "küldöd" (will you); pres1: "küldöm", "küldök"; pres3: a tool's description ("küld",
 * "küldi"); past3: "küldte", "lemondta" (what someone did).
 */
type Kind = 'imp' | 'we' | 'formal' | 'subj1' | 'inf' | 'infme' | 'cond' | 'condme' | 'pres2' | 'pres1' | 'pres3' | 'past3';

type Harmony = 'back' | 'front' | 'round';
/** Verbs of "i", "í" alone that take the back endings all the same ("írok", "hívjatok", "indítson"). */
const BACK_NEUTRAL = new Set(['ír', 'hív', 'nyit', 'indít', 'szív', 'szid']);
const harmonyOf = (stem: string): Harmony =>
  BACK_NEUTRAL.has(stem) || /[aáoóuú]/.test(stem) ? 'back' : /[öőüű][^aáeéiíoóöőuúüű]*$/.test(stem) ? 'round' : 'front';
/** A vowel or suffix by harmony: [back, front, round]. */
const by = (h: Harmony, back: string, front: string, round = front) => (h === 'back' ? back : h === 'front' ? front : round);

/** The subjunctive stem by rule: "küld" → "küldj", "fizet" → "fizess", "oszt" → "ossz", "állít" → "állíts", "intéz" → "intézz". */
function subjunctiveOf(stem: string): string {
  if (/sz$/.test(stem)) return `${stem.slice(0, -2)}ssz`;
  if (/[sz]$/.test(stem)) return stem + stem.at(-1)!;
  if (/szt$/.test(stem)) return `${stem.slice(0, -3)}ssz`;
  if (/st$/.test(stem)) return `${stem.slice(0, -2)}ss`;
  if (/[aeioöuü]t$/.test(stem) || /át$/.test(stem)) return `${stem.slice(0, -1)}ss`;
  if (/t$/.test(stem)) return `${stem}s`;
  return `${stem}j`;
}
/** The definite imperative from the subjunctive stem: "küldj" → "küldd", "fizess" → "fizesd", "állíts" → "állítsd", "ossz" → "oszd". */
function definiteOf(subj: string): string {
  if (subj.endsWith('j')) return `${subj.slice(0, -1)}d`;
  if (subj.endsWith('ssz')) return `${subj.slice(0, -3)}szd`;
  if (/(?:ss|zz)$/.test(subj)) return `${subj.slice(0, -1)}d`;
  return `${subj}d`;
}
/** The infinitive: "foglalni", "küldeni" (two consonants before "-ni" take a vowel), "állítani". */
function infinitiveOf(stem: string, h: Harmony): string {
  const single = stem.replace(/(?:sz|zs|cs|gy|ny|ty|ly)$/, 'X');
  return /(?:[^aáeéiíoóöőuúüűX][^aáeéiíoóöőuúüű]|ít)$/.test(single) ? `${stem}${by(h, 'a', 'e')}ni` : `${stem}ni`;
}

/** The forms of a verb, as written (folded later), by kind. */
function formsOf(item: string): [string, Kind][] {
  const [stem, subjGiven, defGiven, infGiven] = item.split('/');
  const h = harmonyOf(stem);
  const s = subjGiven ?? subjunctiveOf(stem);
  const d = defGiven ?? definiteOf(s);
  const inf = infGiven ?? infinitiveOf(stem, h);
  const c = inf.slice(0, -1); // "külden", "foglaln"
  const vowelEnd = /[^aáeéiíoóöőuúüű]{2}$|ít$/.test(stem.replace(/(?:sz|zs|cs|gy|ny|ty|ly)$/, 'X'));
  const link = vowelEnd ? by(h, 'o', 'e', 'ö') : '';
  // The definite present's "-ja"/"-i" and the "we" form's "-juk"/"-jük" assimilate as the subjunctive does after a sibilant.
  const j = /(?:s|sz|z|zs)$/.test(stem) ? stem.slice(-1) : 'j';
  // The past with "it": "küldte", "foglalta", "fizette", "módosította", "tartotta".
  const pastT = /ít$|[^aáeéiíoóöőuúüű]t$/.test(stem) ? by(h, 'ott', 'ett', 'ött') : /t$/.test(stem) ? 't' : 't';
  return [
    [s, 'imp'],
    [`${s}${by(h, 'ál', 'él')}`, 'imp'],
    [d, 'imp'],
    [`${s}${by(h, 'ad', 'ed')}`, 'imp'],
    [`${s}${by(h, 'atok', 'etek')}`, 'imp'],
    [`${s}${by(h, 'átok', 'étek')}`, 'imp'],
    [`${s}${by(h, 'unk', 'ünk')}`, 'we'],
    [`${s}${by(h, 'uk', 'ük')}`, 'we'],
    [`${s}${by(h, 'on', 'en', 'ön')}`, 'formal'],
    [`${s}${by(h, 'a', 'e')}`, 'formal'],
    [`${s}${by(h, 'anak', 'enek')}`, 'formal'],
    [`${s}${by(h, 'ák', 'ék')}`, 'formal'],
    [`${s}${by(h, 'ak', 'ek')}`, 'subj1'],
    [`${s}${by(h, 'am', 'em')}`, 'subj1'],
    [inf, 'inf'],
    [`${inf}${by(h, 'om', 'em')}`, 'infme'],
    [`${inf}${by(h, 'od', 'ed')}`, 'infme'],
    [`${inf}${by(h, 'unk', 'ünk')}`, 'infme'],
    [`${c}${by(h, 'ád', 'éd')}`, 'cond'],
    [`${c}${by(h, 'ál', 'él')}`, 'cond'],
    [`${c}${by(h, 'á', 'é')}`, 'cond'],
    [`${c}${by(h, 'átok', 'étek')}`, 'cond'],
    [`${c}${by(h, 'ám', 'ém')}`, 'condme'],
    [`${c}${by(h, 'ék', 'ék')}`, 'condme'],
    [`${c}${by(h, 'ánk', 'énk')}`, 'condme'],
    [`${stem}${link || by(h, 'o', 'e', 'ö')}d`, 'pres2'],
    [`${stem}${link || by(h, 'o', 'e', 'ö')}m`, 'pres1'],
    [`${stem}${link || by(h, 'o', 'e', 'ö')}k`, 'pres1'],
    [`${stem}${j === 'j' ? 'j' : j}${by(h, 'uk', 'ük')}`, 'pres1'],
    [`${stem}${by(h, 'unk', 'ünk')}`, 'pres1'],
    [stem, 'pres3'],
    [h === 'back' ? `${stem}${j}a` : `${stem}i`, 'pres3'],
    [`${stem}${pastT}${by(h, 'a', 'e')}`, 'past3'],
    [`${stem}${pastT}${by(h, 'ák', 'ék')}`, 'past3'],
  ];
}

/** Prefixes a verb takes: written onto it ("elküld") or standing apart ("küldd el"). */
const PREFIXES = [
  'vissza',
  'hozza',
  'ossze',
  'kozze',
  'utana',
  'tovabb',
  'letre',
  'bele',
  'szet',
  'ujra',
  'jova',
  'elo',
  'ala',
  'fel',
  'fol',
  'meg',
  'ki',
  'be',
  'le',
  'el',
  'at',
  'ra',
  'oda',
  'ide',
];
const PREFIX_SET = new Set(PREFIXES);

interface Form {
  category: Category | undefined;
  /** The verb's stem, folded, to write an offer or a plan as the request it becomes and to find its prefixed action. */
  stem: string;
  /** Its imperatives as written: indefinite and definite ("küldj", "küldd"). */
  imp: [string, string];
  kind: Kind;
  light: boolean;
}

/** Prefixed verbs by their action, folded ("le+mond"), filled with FORMS. */
const PREFIXED_FOLDED = new Map<string, Category>();

/** Every form of every verb, to the entries it can be. */
const FORMS: Map<string, Form[]> = (() => {
  const out = new Map<string, Form[]>();
  const added = new Set<string>();
  const add = (item: string, category: Category | undefined, light: boolean) => {
    const stem = fold(item.split('/')[0]);
    if (added.has(stem)) return;
    added.add(stem);
    const forms = formsOf(item);
    const imp: [string, string] = [fold(forms[0][0]), fold(forms[2][0])];
    for (const [form, kind] of forms) {
      const f = fold(form);
      out.set(f, [...(out.get(f) ?? []), { category, stem, imp, kind, light }]);
    }
  };
  const prefixed: [string, Category][] = Object.entries(PREFIXED);
  for (const [category, list] of Object.entries(STEMS) as [Category, string][])
    for (const item of list.split(' ')) {
      if (item.includes('+')) prefixed.push([item, category]);
      else add(item, category, false);
    }
  for (const [item, category] of Object.entries(LIGHT)) add(item, category, true);
  // A verb known only with a prefix ("meg+szüntet") is a verb of no action alone: its prefix gives it one.
  for (const [item, category] of prefixed) {
    PREFIXED_FOLDED.set(fold(item), category);
    add(item.split('+')[1], undefined, false);
  }
  return out;
})();

/** A word as a verb: its prefix written onto it ("elküldeni": "el" + "küldeni") or none. */
interface Verb {
  form: Form;
  prefix: string | undefined;
}
function verbsOf(w: string | undefined, kinds: readonly Kind[]): Verb[] {
  if (!w) return [];
  const out: Verb[] = (FORMS.get(w) ?? []).filter((f) => kinds.includes(f.kind)).map((form) => ({ form, prefix: undefined }));
  for (const p of PREFIXES) {
    if (!w.startsWith(p) || w.length - p.length < 3) continue;
    for (const form of FORMS.get(w.slice(p.length)) ?? []) if (kinds.includes(form.kind)) out.push({ form, prefix: p });
  }
  return out;
}

/**
 * Imperatives and forms that are other words as often ("add" adds in English, "told" told, "ad" an ad,
 * "ment" went, "tart" lasts, "vedd" and "tedd" only with their noun): they ask only where their clause has no other verb.
 */
const HOMOGRAPHS = wordSet('add ad told ment hat vet tart hall kert mond zar emel ir nez hiv tol dob von rak');

// ---------------------------------------------------------------------------------------------
// Nouns: stems of the lexicon's object kinds, in any case.
// ---------------------------------------------------------------------------------------------

/** Noun stems by object kind, folded ("számla", "számlát", "számlára" all hold "szamla"; "levél", "levelet" "level"). */
const NOUN_STEMS: Partial<Record<ObjectKind, string>> = {
  money:
    'szamla penz fizetes utalas osszeg dij forint huf eur euro eloleg kaucio jovairas visszaterites tartozas egyenleg ' +
    'koltseg utalvany kupon ajandekkartya iban szamlaszam kulonbozet berlet lakber tandij befizetes terheles',
  message: 'uzenet uzi email level sms ertesites visszaigazolas valasz emlekezteto hirlevel meghivo',
  access: 'hozzaferes jogosultsag szerepkor admin adminisztrator',
  booking: 'foglalas idopont szoba asztal jegy repulojegy szallas tartozkodas talalkozo megbeszeles kezeles masszazs ' + 'szeanasz terem',
  publication: 'poszt bejegyzes cikk hirdetes ertekeles komment hozzaszolas kozlemeny',
  credential: 'jelszo pin kod token',
};
const NOUN_LIST = Object.entries(NOUN_STEMS).flatMap(([k, list]) => list.split(' ').map((s) => [s, k] as [string, ObjectKind]));
/** A case ending, a plural and a possessive, folded: "-t", "-at", "-ra", "-nak", "-ban", "-jat", "-kat", "-aikat". */
const ENDING =
  /^(?:[aeiou]?(?:k|i|ai|ei|ja|je|jai|jei|a|e|m|d|nk|tok|tek|juk|uk)?)(?:[aeiou]?(?:t|ra|re|nak|nek|ba|be|ban|ben|bol|rol|tol|hoz|hez|nal|nel|on|en|ig|val|vel|ert|kent|ul|i|s)|[bcdfghjklmnprstvz]?(?:al|el|a|e))?$/;
/** Whether a word is a noun of the stem in some case, alone or last in a compound ("végszámlát"). */
const nounIs = (w: string, stem: string): boolean => {
  const at = w.lastIndexOf(stem);
  return at >= 0 && (at === 0 || stem.length >= 4) && w.length - at - stem.length <= 7 && ENDING.test(w.slice(at + stem.length));
};

export function hungarianObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws.slice(0, 400)) for (const [stem, kind] of NOUN_LIST) if (nounIs(w, stem)) out.add(kind);
  return out;
}

/** Nouns that give a light verb its action: "intézz egy foglalást" books, "adj hozzáférést" shares, "dobj egy üzit" sends. */
const ACTION_NOUNS: [string, Category][] = [
  ['fizetes', 'pay'],
  ['utalas', 'pay'],
  ['befizetes', 'pay'],
  ['visszaterites', 'pay'],
  ['rendeles', 'pay'],
  ['foglalas', 'book'],
  ['idopont', 'book'],
  ['asztal', 'book'],
  ['szoba', 'book'],
  ['jegy', 'book'],
  ['lemondas', 'delete'],
  ['torles', 'delete'],
  ['modositas', 'change'],
  ['javitas', 'change'],
  ['valtoztatas', 'change'],
  ['rendbe', 'change'],
  ['uzenet', 'send'],
  ['uzi', 'send'],
  ['email', 'send'],
  ['level', 'send'],
  ['sms', 'send'],
  ['ertesites', 'send'],
  ['hivas', 'send'],
  ['sor', 'send'],
  ['hozzaferes', 'share'],
  ['jogosultsag', 'share'],
  ['poszt', 'publish'],
  ['bejegyzes', 'publish'],
  ['szkript', 'exec'],
];
/** A draft is written, not sent: "készíts egy piszkozatot", "csinálj belőle vázlatot" changes. */
const DRAFT = ['piszkozat', 'vazlat'];
/** Places others read: a channel ("#recepcio"), a page, a board: "dobd ki a #recepcio-ba", "tedd ki a honlapra" publish. */
const VENUE = /^(?:#|csatorna|honlap|weboldal|facebook|instagram|linkedin|hirdetotabla|intranet|slack|teams|faliujsag)/;
const CALENDAR = /^naptar/;

/** The action of a light verb, by the words around it, or what it names alone ("dobj" sends, "adj" gives). */
function lightCategory(v: Verb, around: readonly string[]): Category | undefined {
  if (around.some((w) => DRAFT.some((n) => nounIs(w, n)))) return 'change';
  if (around.some((w) => VENUE.test(w))) return 'publish';
  if (around.some((w) => CALENDAR.test(w))) return 'book';
  const prefixed = prefixedCategory(v);
  if (prefixed) return prefixed;
  for (const w of around) {
    const hit = ACTION_NOUNS.find(([n]) => nounIs(w, n));
    if (hit) return hit[1];
  }
  return v.form.category;
}

/** A prefix that gives the verb its action: "le" + "mond" cancels. */
const prefixedCategory = (v: Verb): Category | undefined =>
  v.prefix !== undefined ? PREFIXED_FOLDED.get(`${v.prefix}+${v.form.stem}`) : undefined;

/**
 * The action a verb at `i` names: its prefix, written onto it or standing apart in its clause
 * ("foglald le", "le tudnád foglalni"), may give it another ("mondd le" cancels); a light verb is
 * read by the words around it, up to eight on.
 */
function categoryAt(ws: readonly string[], i: number, v: Verb): Category | undefined {
  let verb = v;
  if (verb.prefix === undefined) {
    const apart = [ws[i + 1], ws[i - 1], ws[i - 2]].find(
      (w) => w !== undefined && PREFIX_SET.has(w) && PREFIXED_FOLDED.has(`${w}+${v.form.stem}`),
    );
    if (apart) verb = { form: v.form, prefix: apart };
  }
  const around = [...ws.slice(Math.max(0, i - 4), i), ...ws.slice(i + 1, i + 9)];
  if (verb.form.light) return lightCategory(verb, around);
  const prefixed = prefixedCategory(verb);
  if (prefixed) return prefixed;
  // "Írd 52-re", "a létszámot 60-ra írnám": writing onto a value sets it, it sends nothing.
  if (verb.form.category === 'send' && verb.form.stem === 'ir' && around.some((w) => /^\d+(?:ra|re)$/.test(w))) return 'change';
  return verb.form.category;
}

// ---------------------------------------------------------------------------------------------
// Which texts are Hungarian.
// ---------------------------------------------------------------------------------------------

/** Function words only Hungarian writes of the languages read here, folded. */
const HUNGARIAN_OWN = wordSet(
  'az es hogy nem kerem kerjuk kerlek koszonom koszi koszonjuk szia sziasztok udv udvozlettel legyszi legyszives lecci ' +
    'nekem neki nekik nekunk neked nektek ezt azt ez ezek azok mert vagy ha amit ami aki akit amely amelyet mint csak mar ' +
    'most holnap tegnap utan elott kozott alatt szerint miatt nincs van volt lesz kell kellene lehet lehetne tudod tudnad ' +
    'tudnal tudna tudjuk szeretnem szeretnek szeretnenk legyen itt ott mindig soha sem aztan majd utana valamint illetve ' +
    'tehat igen jo rendben oke minden mindent semmit valami valamit nala nalunk rola rajuk bele pedig mivel amikor mikor ' +
    'hol mit mennyi miert hogyan melyik kinek kit ezert azert jelenleg tisztelt uram holgyem egy ket harom negy ot hat ' +
    'het nyolc kilenc tiz szaz ezer hetfo kedd szerda csutortok pentek szombat vasarnap ma reggel este delutan delelott ' +
    'napja napon heti havi ugyanabban ugyanugy helyette emiatt mielobb azonnal gyorsan szoval meg el ki be le fel at ' +
    'vissza is sem se ne masik tobbi elnezest ertem persze mehet',
);
/** Words Hungarian shares with another language read here, or with English ("a", "is", "de", "ne", "el", "meg"). */
const HUNGARIAN_SHARED = wordSet('a is de ne el be le ki meg mi ma ok hat jo te en');
/** Words only Hungarian of these writes, among those in HUNGARIAN_OWN that another language writes too: weighed as shared. */
const OWN_BUT_SHARED = wordSet('es ha meg el ki be le at fel is sem se ne ma jo hat van most mit ot kit het');
/** Function words of the other languages read here, and English, that Hungarian does not write. */
const OTHER_OWN = wordSet(
  'the of and to in for with that this it my an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y con por para una del es esta muy pero cuando este lo le les su sus la que un al ' +
    'os um uma nao com em do na no sao ao aos pelo pela voce ' +
    'est une pour dans sur au aux ce cette ces vous nous il ils elle elles pas avec par qui ou moi lui du des ' +
    'della che di per non sono anche ho ha gli questo questa grazie ' +
    'der das und ist nicht ein eine einen mit fur von zu auf bitte ich sie wir den dem ihr ihm ihn uns mir oder auch noch ' +
    'een het niet naar graag jij uw voor op met dat nie jest sa ze czy prosze dla oraz takze przez i ' +
    'jsou pro jak nebo prosim take uz och att det som for jag vi ar og af er ikke inte kan skal ska vil ' +
    'bir bu icin lutfen ve ile bana ' +
    'ja ei on se ole etta mutta myos kiitos ' +
    'je da za su od molim hvala sam ili ali kao sa ovo sto ' +
    'si sa pe cu la este nu o rog multumesc pentru',
);
/** Letters only Hungarian writes of the languages read here: "ő", "ű", and "gy", "zs", "cs" before a vowel in a word in lower case. */
const HUNGARIAN_LETTERS = /[őű]|zs|gy[aáeéiíoóöuúü]|cs[aáeéiíoóöuúü]/u;
/** Accents the other languages write and Hungarian does not. */
const FOREIGN_ACCENT = /[ñãõâêôûçœàèìùëßòąęłśćńźżæøěřůčžığşäåșțăî¿¡]/i;
const SENTENCE_START = /(?:^|[.!?\n:]\s*)$/;

/**
 * Whether a text is written in Hungarian: two of its words at least are Hungarian alone (a function
 * word, a verb form of five letters or more, a word in lower case with "ő", "ű", "gy", "zs" or "cs"
 * before a vowel: a name "Győző" says nothing), and more of them than the other languages' own; or,
 * with none of the others' words and none of their accents, a Hungarian verb beside another
 * Hungarian word ("Foglalj Varga Eszternek masszázst"). Its first 4,000 characters.
 */
export function readsAsHungarian(raw: string): boolean {
  const text = raw.slice(0, 4000);
  let own = 0;
  let shared = 0;
  let others = 0;
  let verbs = 0;
  const nounLike: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{M}]+/gu)) {
    const token = m[0];
    if (token.length === 1 && token !== token.toLowerCase()) continue;
    const lower = token.toLowerCase();
    const w = fold(lower);
    const first = SENTENCE_START.test(text.slice(Math.max(0, m.index - 3), m.index));
    const opens = token[0] === lower[0] || first;
    const form = opens && verbsOf(w, ALL_KINDS).length > 0 && !HOMOGRAPHS.has(w);
    // "és" with its accent is Hungarian's; "es" without it is Spanish's too.
    if (lower === 'és') own++;
    else if (OWN_BUT_SHARED.has(w)) shared++;
    else if (HUNGARIAN_OWN.has(w) || (opens && HUNGARIAN_LETTERS.test(lower)) || (form && w.length >= 5)) own++;
    else if (HUNGARIAN_SHARED.has(w)) shared++;
    else if (OTHER_OWN.has(w)) others++;
    if (form) verbs++;
    else if (opens) nounLike.push(w);
  }
  if (own >= 2 && own > others && own + shared > others) return true;
  if (others > 0 || FOREIGN_ACCENT.test(text) || own + verbs === 0) return false;
  const nouns = nounLike.filter((w) => NOUN_LIST.some(([s]) => s.length >= 4 && nounIs(w, s))).length;
  return own + verbs + nouns >= 2;
}
const ALL_KINDS: readonly Kind[] = ['imp', 'we', 'formal', 'subj1', 'inf', 'infme', 'cond', 'condme', 'pres2', 'pres1'];

// ---------------------------------------------------------------------------------------------
// Requests.
// ---------------------------------------------------------------------------------------------

/** Words that open a question about things: it asks for nothing. */
const QUESTION_WORDS = wordSet(
  'mi mit mikor hol honnan hova hany hanyat mennyi mennyit miert hogyan melyik melyiket ki kit kinek kie van vane volt',
);
const NEGATORS = wordSet('ne nem se sem soha sose nehogy senki semmit semmi');
/** "Ne felejtsd el elküldeni": a reminder, whose infinitive asks despite its "ne". */
const REMIND = wordSet('felejtsd felejts felejtsetek felejtsek felejtse felejtsuk');
/** Words that open a clause of their own, which asks nothing ("ha van hely", "hogy minden rendben", "amit kért"). */
const SUBORDINATORS = wordSet(
  'hogy ha hogyha mert ami amit amik amiket aki akit akik akiket amely amelyet amelyek amikor mielott miutan amig mintha mivel hiszen noha bar mig ahol ahova',
);
/** A modal put to the reader, or the user's wish or need: "tudnád", "tudnál", "szeretném", "kérlek", "kell". */
const MODALS = wordSet(
  'tudnad tudnal tudnatok tudna tudnak tudod tudsz tudjatok tudja tudjak lehetne tudnank ' +
    'szeretnem szeretnek szeretnenk akarom akarok akarunk akarjuk kerem kerlek kerjuk kernem kernenk kerunk ' +
    'kell kellene kene muszaj kellett szives szivesek sziveskedjen sziveskedj legyszi',
);
/** Who an obligation is put on, in the dative: the reader or the user ask; anyone else's ("Péternek kell") is a statement. */
const READER_DAT = wordSet('neked nektek onnek onoknek nekem nekunk');
/** "Küldd el nekem …", "írj nekünk": a reply to the user, as "tell me" is. */
const TO_USER = wordSet('nekem nekunk engem minket');
/** Polite words and the reader named, that make the polite "you" ("küldje", "utalják") an order in data. */
const POLITE = wordSet(
  'kerem kerjuk kerlek kernem kernenk legyszi szives szivesek sziveskedjen sziveskedjenek asszisztens asszisztensnek asszisztense olvassa',
);
/** A courier's or a visitor's note: "csengessen kétszer", "hívjon a kapunál". */
const DOORBELL = wordSet('csengo csengot csengessen csengess kaputelefon kapunal kapukod ketszer erkezeskor');

/** The parts of a sentence: at a comma, a colon, a dash, "és", "aztán", "majd", "de", "meg is" before a new verb. */
function partsOf(sentence: string): string[][] {
  const out: string[][] = [];
  for (const piece of sentence.split(/,|:(?![\p{L}\p{N}])|\s[-–—]\s|\(|\)/u).slice(0, 40)) {
    let part: string[] = [];
    for (const w of hungarianWords(piece.slice(0, 2_000))) {
      if (/^(?:es|aztan|majd|utana|de|illetve|valamint|plusz|helyette)$/.test(w) && part.length > 0) {
        out.push(part);
        part = [];
        if (w === 'helyette') continue;
      }
      part.push(w);
    }
    if (part.length > 0) out.push(part);
  }
  return out.slice(0, 200);
}

/** Question words that open a question inside a clause: "nézd meg, mit írt", "mit kell átírni". */
const EMBEDDED = wordSet('mit mi mikor hol hova honnan hogyan miert mennyi mennyit melyik melyiket kinek kit kik mire mibol');

/** A part's words up to its first subordinate clause or question: "toljuk el neki ha van hely" is "toljuk el neki". */
function mainOf(ws: readonly string[]): readonly string[] {
  const k = ws.findIndex((w, i) => i > 0 && (SUBORDINATORS.has(w) || EMBEDDED.has(w)));
  return k > 0 ? ws.slice(0, k) : ws;
}

const act = (ws: readonly string[], i: number, category: Category): LanguageAction => ({
  category,
  after: [...ws.slice(Math.max(0, i - 6), i), ...ws.slice(i + 1, i + 13)],
  words: ws.slice(i, i + 4).join(' '),
});

/** The infinitive a modal, a wish or an obligation at `k` leads to, within five words either way ("el kell küldeni", "le tudnád foglalni", "foglalni kellene"). */
function infinitiveNear(ws: readonly string[], k: number, kinds: readonly Kind[] = ['inf', 'infme']): LanguageAction | undefined {
  for (const j of [...Array.from({ length: 5 }, (_, n) => k + 1 + n), k - 1, k - 2]) {
    if (j < 0 || j >= ws.length) continue;
    for (const v of verbsOf(ws[j], kinds)) {
      const category = categoryAt(ws, j, v);
      if (category) return act(ws, j, category);
    }
  }
  return undefined;
}

/** Whether an obligation at `k` is put on the reader or the user ("neked kell", "el kell küldeni"), not on someone else ("Péternek kell"). */
function obligesReader(ws: readonly string[], k: number): boolean {
  if (!/^(?:kell|kellene|kene|muszaj|kellett)$/.test(ws[k])) return true;
  if (ws[k] === 'kellett') return false;
  const dative = ws.slice(Math.max(0, k - 3), k).find((w) => /(?:nak|nek)$/.test(w) && w.length > 4);
  return dative === undefined || READER_DAT.has(dative);
}

/** Whether a form at `i` stands as an imperative's does: its prefix after it ("toljuk el"), or none and first in its part. */
const imperativeOrder = (ws: readonly string[], i: number, v: Verb, first: number): boolean =>
  v.prefix === undefined && (PREFIX_SET.has(ws[i + 1] ?? '') || i === first);

/** Words that lead into a clause's verb without changing it: "Szia, …", "Légyszi …", "Most …". */
const LEAD_IN = wordSet(
  'szia sziasztok hello hali legyszi lecci kerlek kerem kerjuk most meg is mar akkor ma holnap gyorsan azonnal ok oke jo igen es aztan majd',
);

/** What one part of a request asks (see the file's comment), or nothing. */
function partAsks(all: readonly string[], question: boolean, wished: boolean): LanguageAction[] {
  let first = 0;
  while (first < all.length - 1 && LEAD_IN.has(all[first]) && first < 6) first++;
  // A clause after "hogy" asks only where a wish stands before it ("Szeretném, hogy küldd el").
  if (SUBORDINATORS.has(all[first]) && !(wished && all[first] === 'hogy')) return [];
  const ws = SUBORDINATORS.has(all[first]) ? all : mainOf(all);
  // A question about things, or one put inside the clause ("nézd meg, mit kell átírni"), asks for nothing.
  if (EMBEDDED.has(ws[first]) || (question && (QUESTION_WORDS.has(ws[first]) || ws.some((w) => w === 'vajon')))) return [];
  // A modal put to the reader, a wish, a reminder or an obligation leads to an infinitive ("Kérem lemondani …").
  for (let k = 0; k < Math.min(ws.length, first + 6); k++) {
    if (!(MODALS.has(ws[k]) || REMIND.has(ws[k])) || !obligesReader(ws, k)) continue;
    const found = infinitiveNear(ws, k);
    if (found) return [found];
  }
  // The imperative ("küldd el", "foglalj", "írjátok meg"), "let us" ("toljuk el"), a wish put to the reader ("elküldenéd?"), a polite "you" first.
  const out: LanguageAction[] = [];
  const verbs = ws.filter((w) => verbsOf(w, ['imp', 'we', 'formal', 'cond', 'pres2']).length > 0).length;
  for (let i = first; i < Math.min(ws.length, first + 12); i++) {
    if (HOMOGRAPHS.has(ws[i]) && verbs > 1) continue;
    for (const v of verbsOf(ws[i], ['imp', 'we', 'formal', 'cond', 'pres2'])) {
      if (v.form.kind === 'we' || v.form.kind === 'formal') {
        if (!imperativeOrder(ws, i, v, first) && !(v.form.kind === 'formal' && ws.slice(0, i).some((w) => POLITE.has(w)))) continue;
      }
      if ((v.form.kind === 'cond' || v.form.kind === 'pres2') && !question && !wished) continue;
      const category = categoryAt(ws, i, v);
      if (category) {
        out.push(act(ws, i, category));
        break;
      }
    }
    if (out.length > 0) break;
  }
  return out;
}

/** A part's negation, before its verb ("ne küldd el", "pénzt NE adjunk vissza", "nem kell foglalni"); a reminder's is none ("ne felejtsd el"). */
const negated = (ws: readonly string[]) =>
  ws.some((w, k) => NEGATORS.has(w) && !REMIND.has(ws[k + 1] ?? '') && !SUBORDINATORS.has(ws[k - 1] ?? ''));

/** The verbs of what someone did or asked for, reported in the request: "lemondta a foglalását", "kérte, hogy hosszabbítsuk meg". */
function reportedActs(sentences: readonly string[]): LanguageAction[] {
  const out: LanguageAction[] = [];
  for (const sentence of sentences)
    for (const ws of partsOf(sentence)) {
      if (negated(ws)) continue;
      for (let i = 0; i < ws.length && out.length < 8; i++)
        for (const v of verbsOf(ws[i], ['past3'])) {
          const category = categoryAt(ws, i, v);
          if (category && category !== 'read') {
            out.push(act(ws, i, category));
            break;
          }
        }
    }
  return out;
}

/** A light verb that handles what the request reports ("Intézd el", "Intézd a szabályzat szerint"), no noun of its own beside it. */
function handles(ws: readonly string[]): boolean {
  for (let i = 0; i < Math.min(ws.length, 4); i++)
    if (
      verbsOf(ws[i], ['imp']).some(
        (v) => v.form.light && (v.form.stem === 'intez' || v.form.stem === 'csinal') && categoryAt(ws, i, v) === undefined,
      )
    )
      return true;
  return false;
}

/**
 * The actions a Hungarian request asks for, part by part (see the file's comment). "Intézd el"
 * with no noun of its own asks for what the request reports was done or asked ("Gyula lemondta a
 * foglalását. Intézd el." cancels); without it, the report asks nothing.
 */
export function hungarianActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  const sentences = (prose.slice(0, 8_000).match(/[^.!?;\n]+[.!?;]*/g) ?? []).slice(0, 200);
  let reported: LanguageAction[] | undefined;
  for (const sentence of sentences) {
    const question = sentence.trim().endsWith('?');
    let wished = false;
    for (const ws of partsOf(sentence)) {
      if (ws.length === 0) continue;
      const main = SUBORDINATORS.has(ws[0]) ? ws : mainOf(ws);
      const wish = ws.some((w) => /^(?:szeretnem|szeretnenk|kerlek|kerem|kerjuk|akarom|kernem|kernenk)$/.test(w));
      if (negated(main)) {
        wished = false;
        continue;
      }
      let found = partAsks(ws, question, wished);
      if (found.length === 0 && handles(main)) found = reported ??= reportedActs(sentences);
      wished = wish && found.length === 0;
      for (const a of found) {
        const toUser = a.after.some((x) => TO_USER.has(x));
        const doorbell = a.category === 'send' && a.after.some((x) => DOORBELL.has(x));
        if (a.category !== 'read' && !doorbell && !((a.category === 'send' || a.category === 'share') && toUser)) out.push(a);
      }
      if (out.length >= 16) return out;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Orders in data, offers and plans.
// ---------------------------------------------------------------------------------------------

/** Words that lead into an order in data: "Fontos: …", "Figyelem: …", "Sürgősen …", "Kérjük, …". */
const ORDER_LEAD_IN = wordSet('fontos figyelem surgos surgosen ps most azonnal kerjuk kerem kerlek legyszi es is meg mar kerjuk');
/** Who an obligation in data is put on: the reader, or a role ("az asszisztensnek kötelező …", "a rendszernek kell …"). */
const ROLES = /^(?:neked|nektek|onnek|onoknek|asszisztens|asszisztensnek|botnak|rendszernek|ugynoknek|szallashely|szallodak|szallashelyek)/;

/**
 * An order written in Hungarian in data: an imperative aimed at the reader ("Utald át az összeget a
 * HU12 … számlára", "Küldjétek el ezt a címre …"), the polite "you" after "kérjük", "kérem" or the
 * reader named ("Kérjük, az összeget az új számlára utalják"), "kérjük" with an infinitive
 * ("Kérjük visszautalni …"), or an obligation on the reader or a role ("Az asszisztensnek kell
 * törölnie …", "A szálláshelyek kötelesek értesíteni …"); not a heading ("Számla küldése"), a
 * statement ("Elküldjük a számlát"), what must be done by no one ("A számlát ki kell fizetni"), a
 * negated one, a question, nor a courier's note ("Csengessen kétszer").
 */
export function hungarianOrderIn(sentence: string): string | undefined {
  if (sentence.trim().endsWith('?')) return undefined;
  const all = hungarianWords(sentence.slice(0, 4_000));
  const polite = all.some((w) => POLITE.has(w));
  for (const piece of sentence
    .slice(0, 4_000)
    .split(/[:;,]|\s[-–—]\s|\s+és\s+/i)
    .slice(0, 40)) {
    const ws = hungarianWords(piece);
    let i = 0;
    while (i < ws.length && ORDER_LEAD_IN.has(ws[i])) i++;
    if (ws.length - i < 1 || negated(ws) || ws.some((w) => DOORBELL.has(w))) continue;
    const main = mainOf(ws);
    for (let k = i; k < Math.min(main.length, i + 10); k++) {
      if (HOMOGRAPHS.has(main[k])) continue;
      for (const v of verbsOf(main[k], ['imp', 'formal', 'we'])) {
        if (v.form.kind === 'formal' && !polite) continue;
        if (v.form.kind === 'we' && !imperativeOrder(main, k, v, i)) continue;
        const category = categoryAt(main, k, v);
        if (category && category !== 'read') return main.slice(k, k + 4).join(' ');
      }
    }
    const asks = main.findIndex((w) => /^(?:kerjuk|kerem|kernenk|kernem|kerlek)$/.test(w));
    const politeInf = asks >= 0 ? infinitiveNear(main, asks, ['inf']) : undefined;
    if (politeInf && politeInf.category !== 'read') return main.slice(asks, asks + 4).join(' ');
    const oblige = main.findIndex(
      (w, k) => /^(?:kell|kotelesek|koteles|kotelezo|kellene)$/.test(w) && main.slice(Math.max(0, k - 3), k).some((x) => ROLES.test(x)),
    );
    const duty = oblige >= 0 ? infinitiveNear(main, oblige, ['inf', 'infme']) : undefined;
    if (duty && duty.category !== 'read') return main.slice(Math.max(0, oblige - 1), oblige + 4).join(' ');
    const personal = main.findIndex((w) => /^(?:kell|kotelesek|koteles)$/.test(w));
    if (personal >= 0 && main.slice(0, personal).some((x) => ROLES.test(x))) {
      for (let j = personal + 1; j < Math.min(main.length, personal + 6); j++) {
        const stem = /^(.{3,}?)(?:nia|nie|niuk|niuk)$/.exec(main[j])?.[1];
        const v = stem ? verbsOf(`${stem}ni`, ['inf'])[0] : undefined;
        const c = v ? categoryAt(main, j, v) : undefined;
        if (c && c !== 'read') return main.slice(Math.max(0, personal - 1), personal + 4).join(' ');
      }
    }
  }
  return undefined;
}

/** A question that asks leave to go on: "Mehet?", "Mehet így?", "Folytassam?", "Jó így?", "Rendben így?", "Megcsináljam?". */
const ASKS_TO_GO_ON =
  /^(?:(?:ok|oke|jo|rendben)[,!]?\s+)?(?:mehet|folytassam|folytassuk|kezdhetem|kezdjem|csinaljam|megcsinaljam|intezzem|elintezzem|jo|rendben|ok|oke|igy jo|igy rendben|megfelel|jovahagyod|jovahagyja|egyetertesz|egyetert)\b[^?]{0,30}\?+$/i;
/** A question that offers, then the verb: "Szeretnéd, hogy elküldjem …?", "Akarod, hogy lemondjam …?", "Elküldhetem …?". */
const OFFER_LEAD = /^(?:(?:szeretned|szeretne|szeretnetek|akarod|akarja|kered|keri)\s*,?\s*hogy\s+)/i;

/** A proposal's verb written as the imperative it becomes, its prefix after it: "lefoglaljam a 15-öt" → "foglald le a 15-öt". */
function asImperative(raw: readonly string[], kinds: readonly Kind[]): string | undefined {
  const ws = raw.map((r) => fold(r.replace(/[^\p{L}\p{M}\p{N}]/gu, '')));
  for (let j = 0; j < Math.min(raw.length, 6); j++) {
    const v = verbsOf(ws[j], kinds)[0];
    if (!v) continue;
    const category = categoryAt(ws, j, v);
    if (!category || category === 'read') return undefined;
    const definite = /(?:am|em|ad|ed|juk|juk|om|em|om|nam|nem)$/.test(ws[j]) && !/(?:ak|ek|ok|ok|unk)$/.test(ws[j]);
    const imp = v.form.imp[definite ? 1 : 0];
    // A prefix standing apart goes after the imperative: "a létszámot 30-ra írnám át" is "írd át a létszámot 30-ra".
    const apart = v.prefix === undefined && PREFIX_SET.has(ws[j + 1] ?? '') ? j + 1 : -1;
    const prefix = v.prefix ?? (apart >= 0 ? raw[apart] : undefined);
    const head = prefix ? [imp, prefix] : [imp];
    return [...head, ...raw.filter((_, k) => k !== j && k !== apart)].join(' ');
  }
  return undefined;
}

/**
 * What the assistant offers to do in a Hungarian question, written as the user would ask for it:
 * "Küldjek visszaigazolást Dórának?" gives "küldj visszaigazolást Dórának"; "Lefoglaljam a 15:00-t?"
 * gives "foglald le a 15:00-t"; "Szeretnéd, hogy lemondjam a foglalást?" "mondd le a foglalást"; a
 * question that asks leave to go on gives 'go-on'. Undefined for any other.
 */
export function hungarianOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().slice(0, 2_000);
  if (!q.endsWith('?')) return undefined;
  if (ASKS_TO_GO_ON.test(fold(q))) return 'go-on';
  const lead = OFFER_LEAD.exec(fold(q));
  const rest = (lead ? q.slice(lead[0].length) : q).replace(/\s*\?+$/, '').trim();
  const raw = rest.split(/\s+/).filter(Boolean);
  if (raw.length === 0) return undefined;
  // "Elküldhetem?", "Lefoglalhatom?": "may I" is the verb's "-hat"/"-het" with "I".
  const may = raw.length > 0 ? /^(.{3,}?)(?:hatom|hetem|hatok|hetek)$/.exec(fold(raw[0].replace(/[^\p{L}\p{M}]/gu, ''))) : null;
  if (may) {
    const stem = may[1];
    const v = verbsOf(stem, ['pres3'])[0];
    const c = v ? categoryAt([stem, ...raw.slice(1).map((r) => fold(r))], 0, v) : undefined;
    if (v && c && c !== 'read') {
      const definite = /(?:om|em)$/.test(fold(raw[0]));
      return [v.form.imp[definite ? 1 : 0], ...(v.prefix ? [v.prefix] : []), ...raw.slice(1)].join(' ');
    }
    return undefined;
  }
  return asImperative(raw, lead ? ['subj1'] : ['subj1']);
}

/** What the assistant says it will or can do: "Elküldöm a számlát", "Le tudom foglalni", "A létszámot 52-re írnám". */
const PLAN_LEAD = /^(?:(?:most|akkor|rendben|ok|oke)[,]?\s+)?(.+?)[.!:]?$/i;

export function hungarianPlan(sentence: string): string | undefined {
  const m = PLAN_LEAD.exec(sentence.trim().slice(0, 2_000));
  if (!m) return undefined;
  const raw = m[1].split(/\s+/).filter(Boolean).slice(0, 40);
  const ws = raw.map((r) => fold(r.replace(/[^\p{L}\p{M}\p{N}]/gu, '')));
  if (ws.some((w) => NEGATORS.has(w))) return undefined;
  // "Le tudom foglalni", "el tudom küldeni": "I can" with its infinitive.
  const can = ws.findIndex((w) => /^(?:tudom|tudok|tudjuk|tudunk|fogom|fogok|fogjuk)$/.test(w));
  if (can >= 0 && can < 4) {
    const found = infinitiveNear(ws, can, ['inf']);
    if (!found || found.category === 'read') return undefined;
    const at = ws.indexOf(found.words.split(' ')[0]);
    const v = verbsOf(ws[at], ['inf'])[0];
    const apart = PREFIX_SET.has(ws[can - 1] ?? '') ? ws[can - 1] : undefined;
    const definite = /(?:om|juk|jük)$/.test(ws[can]);
    const prefix = v.prefix ?? apart;
    const rest = raw.filter((_, k) => k !== at && k !== can && !(apart && k === can - 1));
    return [v.form.imp[definite ? 1 : 0], ...(prefix ? [prefix] : []), ...rest].join(' ');
  }
  for (let j = 0; j < Math.min(ws.length, 5); j++) {
    if (verbsOf(ws[j], ['pres1', 'condme']).length === 0) continue;
    return asImperative(raw, ['pres1', 'condme']);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Tools.
// ---------------------------------------------------------------------------------------------

/** Nouns of an action that a tool's name writes as its verb (`szamla_kuldes`, `foglalas_torlese`, `vendeg_kereses`). */
const TOOL_NOUNS: Record<string, Category> = {
  kuldes: 'send',
  kuldese: 'send',
  kereses: 'read',
  lekerdezes: 'read',
  listazas: 'read',
  torles: 'delete',
  torlese: 'delete',
  lemondas: 'delete',
  modositas: 'change',
  modositasa: 'change',
  frissites: 'change',
  letrehozas: 'change',
  rogzites: 'change',
  foglalas: 'book',
  fizetes: 'pay',
  utalas: 'pay',
  terheles: 'pay',
  ertesites: 'send',
  kozzetetel: 'publish',
  megosztas: 'share',
};

/**
 * The category of a word as a Hungarian verb in a tool's name or description: the imperative, the
 * infinitive or the third person ("kuldj", "küldeni", "Elküldi", "Lekérdezi"); a light verb names
 * none, nor a word of three letters or fewer, nor one that is another word as often ("add", "told").
 */
export function hungarianCategory(word: string): Category | undefined {
  const w = fold(word);
  if (Object.hasOwn(TOOL_NOUNS, w)) return TOOL_NOUNS[w];
  if (HOMOGRAPHS.has(w) || w.length < 4) return undefined;
  const categories = new Set(
    verbsOf(w, ['imp', 'inf', 'pres3']).map((v) =>
      v.form.light && !prefixedCategory(v) ? undefined : (prefixedCategory(v) ?? v.form.category),
    ),
  );
  const [only] = categories;
  return categories.size === 1 ? only : undefined;
}

/** Where a tool's name holds a Hungarian verb (`kuld_szamla`, `foglalasTorles`, `szamla_kuldes`), or -1. */
export function hungarianInfinitive(nameWords: readonly string[]): number {
  const verb = nameWords.findIndex((w) => !Object.hasOwn(TOOL_NOUNS, w) && hungarianCategory(w) !== undefined);
  if (verb >= 0) return verb;
  const last = nameWords.length - 1;
  return last > 0 && Object.hasOwn(TOOL_NOUNS, nameWords[last]) ? last : -1;
}
