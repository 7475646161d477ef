/**
 * Requests and tools written in Finnish (docs/taint-policy.md, "Requests in Finnish"). The English
 * parse finds no verb in "Lähetä lasku Mikolle" or "Voisitko maksaa vuokran?", and so asks for
 * nothing: every call of a Finnish-speaking team would be blocked as unasked. Finnish is
 * agglutinative: a verb is told by its stem and ending, each form generated here from the
 * infinitive and the imperative, which carry the consonant gradation ("lähettää", "lähetä":
 * "lähettäkää", "lähettäisitkö", "lähetän", "lähetetään", "lähettämään"); a noun by its stem and a
 * case ending ("lasku", "laskun", "laskua", "laskulle"). Words are compared folded ("ä" as "a", "ö"
 * as "o"), since quick messages drop the dots; folding also makes the endings' vowel harmony one
 * spelling ("-kää" and "-kaa", "-kö" and "-ko").
 */
import { wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';
import { fold } from './spanish.js';

/** The folded words of a text: "SMS:llä" is "sms", "e-mail" "email", "myynti-ilmoitus" one word. */
export function finnishWords(text: string): string[] {
  const joined = text.toLowerCase().replace(/\be-(?=mail|lasku)/g, 'e');
  return (joined.match(/[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}]+)*(?::[\p{L}]+)?/gu) ?? []).map((w) => fold(w.split(':')[0]));
}

// ---------------------------------------------------------------------------------------------
// Verbs: the infinitive and the imperative of each, and every form generated from the two.
// ---------------------------------------------------------------------------------------------

/**
 * Verbs by the action they name, as `infinitive/imperative`, folded. "Palauttaa" and "siirtää"
 * pay with money beside them (MONEY_TURNS); light verbs ("tee", "anna", "laita") are in LIGHT.
 */
const STEMS: Record<Category, string> = {
  read:
    'hakea/hae etsia/etsi tarkistaa/tarkista tarkastaa/tarkasta katsoa/katso lukea/lue listata/listaa nayttaa/nayta ' +
    'selvittaa/selvita laskea/laske verrata/vertaa loytaa/loyda ladata/lataa tutkia/tutki seurata/seuraa avata/avaa ' +
    'tulostaa/tulosta palauttaa/palauta kysella/kysele',
  send:
    'lahettaa/laheta postittaa/postita meilata/meilaa mailata/mailaa soittaa/soita ilmoittaa/ilmoita kertoa/kerro ' +
    'vastata/vastaa muistuttaa/muistuta tiedottaa/tiedota valittaa/valita tekstata/tekstaa kirjoittaa/kirjoita ' +
    'kysya/kysy pyytaa/pyyda varoittaa/varoita informoida/informoi tiedustella/tiedustele karhuta/karhua kutsua/kutsu ' +
    'viestia/viesti',
  share: 'jakaa/jaa myontaa/myonna valtuuttaa/valtuuta',
  publish: 'julkaista/julkaise postata/postaa twiitata/twiittaa',
  pay:
    'maksaa/maksa hyvittaa/hyvita tilata/tilaa ostaa/osta laskuttaa/laskuta veloittaa/veloita tilittaa/tilita ' +
    'lunastaa/lunasta maksattaa/maksata',
  book: 'varata/varaa buukata/buukkaa ajastaa/ajasta sopia/sovi aikatauluttaa/aikatauluta kalenteroida/kalenteroi',
  change:
    'muuttaa/muuta paivittaa/paivita muokata/muokkaa lisata/lisaa korjata/korjaa vaihtaa/vaihda tallentaa/tallenna ' +
    'merkita/merkitse kirjata/kirjaa luoda/luo hyvaksya/hyvaksy hylata/hylkaa vahvistaa/vahvista kuitata/kuittaa ' +
    'siirtaa/siirra lykata/lykkaa pidentaa/pidenna aktivoida/aktivoi estaa/esta lukita/lukitse nimeta/nimea ' +
    'rekisteroida/rekisteroi tayttaa/tayta allekirjoittaa/allekirjoita kopioida/kopioi tuoda/tuo asettaa/aseta ' +
    'laatia/laadi valmistella/valmistele alentaa/alenna korottaa/korota sulkea/sulje liittaa/liita uudistaa/uudista',
  delete:
    'poistaa/poista perua/peru peruuttaa/peruuta irtisanoa/irtisano lopettaa/lopeta tyhjentaa/tyhjenna ' +
    'pyyhkia/pyyhi arkistoida/arkistoi mitatoida/mitatoi keskeyttaa/keskeyta havittaa/havita',
  exec: 'ajaa/aja asentaa/asenna kaynnistaa/kaynnista',
};

/** Verbs that carry no action of their own: the noun beside them says it ("tee varaus", "anna pääsy"); a few name one alone. */
const LIGHT: Record<string, Category | undefined> = {
  'tehda/tee': undefined,
  'antaa/anna': undefined,
  'laittaa/laita': 'send',
  'pistaa/pista': 'send',
  'hoitaa/hoida': undefined,
  'suorittaa/suorita': 'exec',
  'ottaa/ota': undefined,
  'pitaa/pida': undefined,
};

/**
 * imp: the imperative, singular or plural ("lähetä", "lähettäkää", "lähetäpä"); ask: a question put
 * to the reader ("lähetätkö", "lähettäisitkö"); inf: the infinitive; pres3: the third person, as a
 * tool's description writes it ("Lähettää", "Hakee"); pres1: "lähetän"; pres1q: "lähetänkö" (shall
 * I); we: "lähetämme"; pass: "lähetetään" (let us, or a passive); passq: "lähetetäänkö"; passneg:
 * "(ei) lähetetä"; maan: "(pyydän) lähettämään"; must: "(on) lähetettävä".
 */
type Kind = 'imp' | 'ask' | 'inf' | 'pres3' | 'pres1' | 'pres1q' | 'we' | 'pass' | 'passq' | 'passneg' | 'maan' | 'must';

/** The forms of a verb from its infinitive and imperative, by its conjugation (the infinitive's ending). */
function formsOf(inf: string, imp: string): [string, Kind][] {
  let plural: string, pres3: string, cond: string, pass: string, maan: string, must: string;
  if (inf === 'tehda') [plural, pres3, cond, pass, maan, must] = ['tehkaa', 'tekee', 'tekisi', 'tehdaan', 'tekemaan', 'tehtava'];
  else if (/[aeiouy]da$/.test(inf)) {
    // "kopioida", "luoda": kopioi, kopioikaa, kopioidaan.
    const s = inf.slice(0, -2);
    [plural, pres3, cond, pass, maan, must] = [
      `${s}kaa`,
      imp,
      s.endsWith('i') ? `${s}si` : `${s.slice(0, -1)}isi`,
      `${inf}an`,
      `${imp}maan`,
      `${s}tava`,
    ];
  } else if (/(?:ll|nn|rr|st)a$/.test(inf)) {
    // "julkaista", "valmistella": julkaise, julkaiskaa, julkaistaan.
    const s = inf.slice(0, -2);
    [plural, pres3, cond, pass, maan, must] = [
      `${s}kaa`,
      imp + imp.at(-1)!,
      `${imp.slice(0, -1)}isi`,
      `${inf}an`,
      `${imp}maan`,
      `${s}tava`,
    ];
  } else if (/[aeiouy]ta$/.test(inf)) {
    // "varata" (varaa, varatkaa), "merkitä" (merkitse, merkitkää): the imperative is the strong stem.
    const s = inf.slice(0, -1);
    const five = imp.endsWith('se');
    [plural, pres3, cond, pass, maan, must] = [
      `${s}kaa`,
      five ? `${imp}e` : imp,
      `${imp.slice(0, -1)}isi`,
      `${inf}an`,
      `${imp}maan`,
      `${s}tava`,
    ];
  } else {
    // "lähettää" (lähetä), "hakea" (hae): the infinitive holds the strong stem, the imperative the weak one.
    const s = inf.slice(0, -1);
    const weak = imp.endsWith('a') ? `${imp.slice(0, -1)}e` : imp;
    const c = s.endsWith('i') ? `${s}si` : `${s.endsWith('e') ? s.slice(0, -1) : s}isi`;
    [plural, pres3, cond, pass, maan, must] = [`${s}kaa`, s + s.at(-1)!, c, `${weak}taan`, `${s}maan`, `${weak}ttava`];
  }
  return [
    [imp, 'imp'],
    [`${imp}pa`, 'imp'],
    [plural, 'imp'],
    [`${plural}pa`, 'imp'],
    [`${imp}tko`, 'ask'],
    [`${imp}tteko`, 'ask'],
    [`${cond}tko`, 'ask'],
    [`${cond}tteko`, 'ask'],
    [inf, 'inf'],
    [pres3, 'pres3'],
    [`${imp}n`, 'pres1'],
    [`${imp}nko`, 'pres1q'],
    [`${imp}mme`, 'we'],
    [pass, 'pass'],
    [`${pass}ko`, 'passq'],
    [pass.slice(0, -2), 'passneg'],
    [maan, 'maan'],
    [must, 'must'],
  ];
}

interface Form {
  category: Category | undefined;
  /** The imperative, to write an offer or a plan as the request it becomes. */
  imp: string;
  kind: Kind;
  light: boolean;
}

/** Every form of every verb, to the entries it can be ("maksaa" is the infinitive and the third person). */
const FORMS: Map<string, Form[]> = (() => {
  const out = new Map<string, Form[]>();
  const add = (item: string, category: Category | undefined, light: boolean) => {
    const [inf, imp] = item.split('/');
    for (const [form, kind] of formsOf(inf, imp)) out.set(form, [...(out.get(form) ?? []), { category, imp, kind, light }]);
  };
  for (const [category, list] of Object.entries(STEMS) as [Category, string][])
    for (const item of list.split(' ')) add(item, category, false);
  for (const [item, category] of Object.entries(LIGHT)) add(item, category, true);
  return out;
})();
const formsAt = (w: string | undefined, kinds: readonly Kind[]) => (FORMS.get(w ?? '') ?? []).filter((f) => kinds.includes(f.kind));

/**
 * Imperatives that are words of another kind as often ("tilaa" space, "lisää" more, "muuta" other,
 * "tuo" that, "luo" to, "peru" Peru, "anna" a name, "viesti" a message): they ask only first in a clause.
 */
const HOMOGRAPHS = wordSet(
  'tilaa lisaa muuta tuo luo peru anna aja lue jaa osta sovi kutsu viesti esta vastaa varaa laske seuraa avaa kirjaa tee ota pida',
);

// ---------------------------------------------------------------------------------------------
// Nouns: stems of the lexicon's object kinds, in any case.
// ---------------------------------------------------------------------------------------------

/** Noun stems by object kind, strong and weak grade both where they differ ("velka", "velan"; "varaus", "varauks"). */
const NOUN_STEMS: Partial<Record<ObjectKind, string>> = {
  money:
    'lasku maksu raha euro summa vuokra vastike vastikkee hyvitys hyvityks palautus palautuks korvaus korvauks tilisiirto ' +
    'tilisiirro siirto siirro saldo velka vela sakko sako palkka palka hinta hinna ennakko ennako takuu pantti panti kuitti kuiti iban ' +
    'laina lainaa erapaiva maksuera',
  message:
    'viesti sahkoposti posti meili maili kirje kirjee muistutus muistutuks vahvistus vahvistuks ilmoitus ilmoituks kutsu ' +
    'tiedote tiedottee vastaus vastauks uutiskirje tekstari sms whatsapp',
  access: 'paasy oikeus oikeud oikeuks lupa luva rooli yllapitaja admin avain avaime kayttaja',
  booking:
    'varaus varauks tapaaminen tapaamise kokous kokoukse kokouks poyta poyda huone huonee lento lenno lippu lipu vuoro sali ajanvaraus',
  publication: 'julkaisu mainos mainokse postaus postauks artikkeli blogi arvostelu',
  credential: 'salasana tunnus tunnukse tunnuks pin pin-koodi token',
};
const NOUN_LIST = Object.entries(NOUN_STEMS).flatMap(([k, list]) => list.split(' ').map((s) => [s, k] as [string, ObjectKind]));
/** A case ending, a plural, a possessive suffix and a clitic: "-n", "-a", "-lle", "-ssa", "-ihin", "-ni", "-kin". */
const ENDING = /^(?:[aeiouy]{0,2}(?:n|t|a|ta|lle|lla|lta|ssa|sta|na|ksi|ja|hin|den|tten|ne)?)(?:ni|si|mme|nne|nsa)?(?:kin|kaan|ko|han)?$/;
/** Whether a word is a noun of the stem in some case, alone or last in a compound ("vuokralaskun"). */
const nounIs = (w: string, stem: string): boolean => {
  const at = w.lastIndexOf(stem);
  return at >= 0 && (at === 0 || stem.length >= 4) && w.length - at - stem.length <= 7 && ENDING.test(w.slice(at + stem.length));
};

export function finnishObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws.slice(0, 400)) for (const [stem, kind] of NOUN_LIST) if (nounIs(w, stem)) out.add(kind);
  return out;
}

/** Nouns that give a light verb its action: "tee maksu" pays, "tee varaus" books, "ota yhteyttä" sends. */
const ACTION_NOUNS: [string, Category][] = [
  ['maksu', 'pay'],
  ['tilisiirto', 'pay'],
  ['tilisiirro', 'pay'],
  ['tilaus', 'pay'],
  ['tilauks', 'pay'],
  ['hyvitys', 'pay'],
  ['hyvityks', 'pay'],
  ['varaus', 'book'],
  ['varauks', 'book'],
  ['vuoro', 'book'],
  ['tapaamine', 'book'],
  ['tapaamise', 'book'],
  ['peruutus', 'delete'],
  ['peruutuks', 'delete'],
  ['muutos', 'change'],
  ['muutoks', 'change'],
  ['muutokse', 'change'],
  ['korjaus', 'change'],
  ['korjauks', 'change'],
  ['talteen', 'change'],
  ['viesti', 'send'],
  ['ilmoitus', 'send'],
  ['ilmoituks', 'send'],
  ['soitto', 'send'],
  ['yhteytta', 'send'],
  ['tietaa', 'send'],
  ['tieto', 'send'],
  ['tasalla', 'send'],
  ['paasy', 'share'],
  ['oikeus', 'share'],
  ['oikeud', 'share'],
  ['lupa', 'share'],
  ['luva', 'share'],
  ['julkaisu', 'publish'],
  ['skripti', 'exec'],
];
/** A draft is written, not sent: "tee viestistä luonnos" changes, whatever the draft will carry. */
const DRAFT = ['luonnos', 'luonnokse', 'luonnoks'];
/** Places others read: "laita se nettisivuille" publishes; "laita kalenteriin" books. */
const VENUE = /^(?:netti|nettisivu|verkkosivu|kotisivu|sivu|instagram|facebook|linkedin|intra|ilmoitustaulu|some)/;
const CALENDAR = /^kalenteri/;

/** The action of a light verb, by the words around it, or what it names alone ("laita" sends). */
function lightCategory(form: Form, around: readonly string[]): Category | undefined {
  if (around.some((w) => DRAFT.some((n) => nounIs(w, n)))) return 'change';
  if (around.some((w) => VENUE.test(w))) return 'publish';
  if (around.some((w) => CALENDAR.test(w))) return 'book';
  for (const w of around) {
    const hit = ACTION_NOUNS.find(([n]) => nounIs(w, n));
    if (hit) return hit[1];
  }
  return form.category;
}

/** "Palauta rahat", "siirrä 200 € tilille", "korvaa kulut": with money beside it, a verb pays. */
const MONEY_TURNS = wordSet('palauta siirra');
const turned = (f: Form, around: readonly string[]) =>
  MONEY_TURNS.has(f.imp) &&
  (around.some((w) => NOUN_LIST.some(([s, k]) => k === 'money' && nounIs(w, s))) || around.some((w) => /^(?:€|eur|\d)/.test(w)))
    ? 'pay'
    : f.category;

/**
 * The action a verb form at `i` names, its light verb read by the words around it: a light verb's
 * noun may stand eight words on, past a place and a name ("laita Koivistoille oman saunavuoron").
 */
function categoryAt(ws: readonly string[], i: number, f: Form): Category | undefined {
  const around = [...ws.slice(Math.max(0, i - 4), i), ...ws.slice(i + 1, i + 9)];
  return f.light ? lightCategory(f, around) : turned(f, around);
}

// ---------------------------------------------------------------------------------------------
// Which texts are Finnish.
// ---------------------------------------------------------------------------------------------

/** Function words only Finnish writes of the languages read here, folded. */
const FINNISH_OWN = wordSet(
  'ei ole olla olen olet olemme olette ovat oli olisi ollut etta ettei mutta tai myos viela kanssa kiitos kiitti kiitoksia ' +
    'moi moikka terve mina sina hanelle hanen hanta minulle mulle sulle sinulle teille meille heille minun sinun teidan ' +
    'meidan heidan mun tama taman tata tassa tasta tahan nama naiden sita siita siihen siina niita niiden niille joka jonka ' +
    'jota jotka joita mita mika kuka kenelle kenen milloin missa mista mihin miksi miten kuinka paljonko montako onko oliko ' +
    'ovatko voitko voisitko voitteko voisitteko voisin voin voimme voi haluan haluaisin haluamme haluatko haluaisitko pitaa ' +
    'pitaisi taytyy tulee tarvitsee tarvitsen jos koska kuin vaan siis seka eika ellei mukaan kautta takia vuoksi jalkeen ennen ' +
    'asti saakka tanaan huomenna eilen heti pian myohemmin viikolla ensi kuun kuussa mennessa alkaen klo ystavallisesti ' +
    'terveisin pyydan pyydamme ala alkaa emme ette eivat kaikki kaikille joku jotain mitaan noin yli ilman hyva hyvaa paivaa ' +
    'huomenta joo juu kylla selva okei nain sitten myos lisaksi jo kiireellinen huom aion aiomme kahdesti kerran ' +
    'yksi kaksi kolme nelja viisi kuusi seitseman kahdeksan yhdeksan kymmenen sata tuhat',
);
/** Words Finnish shares with another language read here, or with English ("ja", "se", "on", "me", "he", "en", "kun", "nyt", "hei"). */
const FINNISH_SHARED = wordSet('ja se ne me te he en et on han kun sen eli vain tuo hei nyt alle');
/** Function words of the other languages read here, and English, that Finnish does not write. */
const OTHER_OWN = wordSet(
  'the of and to in is for with that this it my an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y con por para una del es esta muy pero cuando este lo le les su sus la que un al ' +
    'os um uma nao com em do na no sao ao aos pelo pela voce a ' +
    'est une pour dans sur au aux ce cette ces vous nous il ils elle elles pas avec par qui ou moi lui du des ' +
    'della che di per non sono anche ho ha gli questo questa grazie ' +
    'der das und ist nicht ein eine einen mit fur von zu auf bitte ich sie wir den dem ihr ihm ihn uns mir oder auch noch ' +
    'een het niet naar graag jij uw voor op met dat nie sie jest sa ze czy prosze dla oraz takze przez i ' +
    'jsou pro jak nebo prosim take uz och att det som for jag vi ar og af er ikke inte kan skal ska vil ' +
    'bir bu icin lutfen ve ile bana',
);
/** Letters only Finnish writes of the languages read here: "ää", "öö", "yö", "hyvä", "päivä", a word that ends in "ä" or "ö". */
const FINNISH_LETTERS = /ää|öö|yö|äy|äi|öi|y\p{L}*ä|ä\p{L}*y|[äö]$/u;
/** A case ending or a question's "-ko" on a word of six letters or more ("Kuusikossa", "Maksoiko"): a hint where no other language's word stands. */
const CASE_ENDING = /^\p{L}{3,}(?:lle|ssa|ssä|sta|stä|lla|llä|lta|ltä|ksi|iin|ko|kö)$/u;
/** Accents the other languages write and Finnish does not. */
const FOREIGN_ACCENT = /[ñáíúãõâêôûçœàèìùéëüßóòąęłśćńźżæøěřůčžığş¿¡]/i;
const SENTENCE_START = /(?:^|[.!?\n]\s*)$/;

/**
 * Whether a text is written in Finnish: two of its words at least are Finnish alone (a function
 * word, a verb form of six letters or more, a word in lower case with a run of letters only Finnish
 * writes: a name "Mäkelä" says nothing), and more of them than the other languages' own; or, with
 * none of the others' words and none of their accents, a Finnish verb beside another Finnish word
 * ("Maksa Mikon lasku"). Its first 4,000 characters.
 */
export function readsAsFinnish(raw: string): boolean {
  const text = raw.slice(0, 4000);
  let own = 0;
  let shared = 0;
  let others = 0;
  let verbs = 0;
  // Words that may be nouns, weighed only where the other languages' words leave the question open.
  const nounLike: [string, string][] = [];
  for (const m of text.matchAll(/[\p{L}\p{M}]+/gu)) {
    const token = m[0];
    // "A 3", "B 7": an apartment's letter, no article.
    if (token.length === 1 && token !== token.toLowerCase()) continue;
    const lower = token.toLowerCase();
    const w = fold(lower);
    const first = SENTENCE_START.test(text.slice(Math.max(0, m.index - 3), m.index));
    const opens = token[0] === lower[0] || first;
    const form = opens && FORMS.has(w) && (first || !HOMOGRAPHS.has(w));
    if (FINNISH_OWN.has(w) || (opens && FINNISH_LETTERS.test(lower)) || (form && w.length >= 6 && !HOMOGRAPHS.has(w))) own++;
    else if (FINNISH_SHARED.has(w)) shared++;
    else if (OTHER_OWN.has(w)) others++;
    if (form) verbs++;
    else if (opens) nounLike.push([w, lower]);
  }
  if (own >= 2 && own > others && own + shared > others) return true;
  if (others > 0 || FOREIGN_ACCENT.test(text) || own + verbs === 0) return false;
  const nouns = nounLike.filter(([w, lower]) => CASE_ENDING.test(lower) || NOUN_LIST.some(([s]) => s.length >= 4 && nounIs(w, s))).length;
  return own + verbs + nouns >= 2;
}

// ---------------------------------------------------------------------------------------------
// Requests.
// ---------------------------------------------------------------------------------------------

/** Words that lead into a clause's verb without changing it: "Ole hyvä ja …", "Nyt …", "Sitten …", "Hei, …". */
const LEAD_IN = wordSet(
  'ja seka sitten myos viela lisaksi ensin ensiksi lopuksi nyt heti pian tanaan huomenna vaan vain nopeasti kiireesti pikaisesti ' +
    'ystavallisesti kiitos hei moi ok okei joo kylla selva tosiaan muuten sina te sa siis ole olkaa hyva hyvat please pliis',
);
/** Words that open a question about things: it asks for nothing. */
const QUESTION_WORDS = wordSet('mita mika kuka kenelle kenen milloin missa mista mihin miksi miten kuinka paljonko montako kumpi monelta');
const NEGATORS = wordSet('ei en et emme ette eivat ala alkaa eika ellei alkoon alaka alkaaka');
/** "Äläkä", "eikä": "and not", a clause of its own ("tee luonnos äläkä lähetä mitään"). */
const AND_NOT = wordSet('alaka alkaaka eika');
/** "Älä unohda maksaa", "muista lähettää": a reminder, whose infinitive asks. */
const REMIND = wordSet('unohda unohtako unohtaa muista muistakaa muistathan muistattehan');
/** Words that open a clause of their own, which asks nothing ("jos hän on maksanut", "että lasku lähti"). */
const SUBORDINATORS = wordSet('jos kun mikali etta koska vaikka kunnes jotta ennenkuin sillaikaa joka jonka jota jotka vai tai');
/** A modal put to the reader: "voitko", "voisitteko", "viitsisitkö", "ehditkö", "pystytkö". */
const MODALS = wordSet(
  'voitko voisitko voitteko voisitteko viitsitko viitsisitko viitsittteko viitsisittteko ehditko ehtisitko ehditteko ehtisittteko ' +
    'pystytko pystyisitko jaksaisitko kehtaisitko voisiko',
);
/** The user's own wish or need: "haluan perua", "haluaisin varata", "tarvitsen". */
const WISH = wordSet(
  'haluan haluaisin haluamme haluaisimme tahdon tahtoisin tarvitsen tarvitsisin tarvitsemme aion aiomme pyydan pyydamme',
);
/** An obligation: "pitää", "täytyy", "tulee", "pitäisi", "on (maksettava)". */
const OBLIGE = wordSet('pitaa pitaisi taytyy taytyisi tulee tulisi tarvitsee tarvitsisi kannattaa on olisi');
/** Who an obligation is put on, in the genitive: the reader or the user ask; anyone else's is a statement. */
const READER_GEN = wordSet('sinun teidan sun minun meidan mun');
/** "Lähetä minulle …", "kerro meille": a reply to the user, as "tell me" is. */
const TO_USER = wordSet('minulle mulle meille minua mua meita minuun meihin');

/**
 * The parts of a sentence: at a comma, a colon, a dash, a "ja", "sitten", "mutta", "sekä" before a
 * verb or "älä", or at "äläkä". A colon before a letter or a digit is a case ending ("A 3:n",
 * "SMS:llä") or a time ("13:30"), inside its clause.
 */
function partsOf(sentence: string): string[][] {
  const out: string[][] = [];
  for (const piece of sentence.split(/,|:(?![\p{L}\p{N}])|\s[-–—]\s/u).slice(0, 40)) {
    let part: string[] = [];
    for (const w of finnishWords(piece.slice(0, 2_000))) {
      const joined = FORMS.has(w) || w === 'ala' || w === 'alkaa';
      if (part.length > 0 && /^(?:ja|sitten|mutta|seka|sekä|lisaksi|tai)$/.test(part.at(-1)!) && joined && part.length > 1) {
        out.push(part.slice(0, -1));
        part = [part.at(-1)!];
      }
      if (part.length > 0 && AND_NOT.has(w)) {
        out.push(part);
        part = [];
      }
      part.push(w);
    }
    if (part.length > 0) out.push(part);
  }
  return out;
}

/** The first word of a part that is not a lead-in ("Ole hyvä ja lähetä …": "lähetä"). */
function firstAt(ws: readonly string[]): number {
  let i = 0;
  while (i < ws.length - 1 && LEAD_IN.has(ws[i]) && i < 8) i++;
  return i;
}

const act = (ws: readonly string[], i: number, category: Category): LanguageAction => ({
  category,
  after: [...ws.slice(Math.max(0, i - 6), i), ...ws.slice(i + 1, i + 13)],
  words: ws.slice(i, i + 4).join(' '),
});

/** The infinitive (or "-maan" form) that a modal, a wish or an obligation at `k` leads to, within five words. */
function infinitiveAfter(ws: readonly string[], k: number, kinds: readonly Kind[] = ['inf', 'maan', 'must']): LanguageAction | undefined {
  for (let j = k + 1; j < Math.min(ws.length, k + 6); j++) {
    const f = formsAt(ws[j], kinds)[0];
    const category = f ? categoryAt(ws, j, f) : undefined;
    if (category) return act(ws, j, category);
  }
  return undefined;
}

/** Whether an obligation at `k` is put on the reader or the user ("sinun pitää", "minun täytyy", "pitäisi maksaa"), not on someone else ("Mikon pitää"). */
function obligesReader(ws: readonly string[], k: number, first: number): boolean {
  const before = ws[k - 1];
  if (READER_GEN.has(before ?? '')) return true;
  if (ws[k] === 'on' || ws[k] === 'olisi') return false;
  return k === first || (before !== undefined && !before.endsWith('n'));
}

/** What one part of a request asks (see the file's comment), or nothing. */
function partAsks(ws: readonly string[], question: boolean): LanguageAction[] {
  const i = firstAt(ws);
  const w = ws[i];
  // A modal put to the reader, a wish, a reminder or an obligation leads to an infinitive.
  for (let k = i; k < Math.min(ws.length, i + 4); k++) {
    const leads = MODALS.has(ws[k]) || WISH.has(ws[k]) || REMIND.has(ws[k]) || (OBLIGE.has(ws[k]) && obligesReader(ws, k, i));
    const found = leads ? infinitiveAfter(ws, k) : undefined;
    if (found) return [found];
  }
  if (SUBORDINATORS.has(w)) return [];
  // A question put to the reader ("Lähetätkö laskun?", "Maksaisitteko vuokran?"), wherever it stands.
  for (let k = i; k < Math.min(ws.length, i + 4); k++) {
    const f = formsAt(ws[k], ['ask'])[0];
    const category = f ? categoryAt(ws, k, f) : undefined;
    if (category) return [act(ws, k, category)];
  }
  if (question && (QUESTION_WORDS.has(w) || /(?:ko|kohan)$/.test(w))) return [];
  // The imperative first ("Lähetä …"), or "let us" in the passive ("Lähetetään lasku Mikolle").
  const first = formsAt(w, question ? ['imp'] : ['imp', 'pass'])[0];
  const category = first ? categoryAt(ws, i, first) : undefined;
  if (category) return [act(ws, i, category)];
  // An imperative later in its clause ("Mikolle lähetä lasku"), where it is no other word as well.
  for (let k = i + 1; k < Math.min(ws.length, i + 5); k++) {
    if (HOMOGRAPHS.has(ws[k]) || (FORMS.get(ws[k]) ?? []).some((f) => f.kind !== 'imp')) continue;
    const f = formsAt(ws[k], ['imp'])[0];
    const c = f ? categoryAt(ws, k, f) : undefined;
    if (c) return [act(ws, k, c)];
  }
  return [];
}

/** A reminder's negation is none: "Älä unohda maksaa" asks as "Muista maksaa" does. */
const negated = (ws: readonly string[]) => ws.some((w, k) => NEGATORS.has(w) && !REMIND.has(ws[k + 1] ?? ''));

/** Verbs that report what someone asked of us: "Mikko pyysi lähettämään …", "asukas on pyytänyt perumaan …". */
const REPORTED_ASK = wordSet('pyysi pyysivat pyytanyt pyytaneet pyytaa pyytavat toivoi toivoivat toivonut toivoo');
/** What a pro-verb stands for: "hoida se", "hoitakaa tämä", "hoidatko asian", "tee niin". */
const PRO_OBJECTS = wordSet('se sen sita tama taman tata asia asian homma homman ne nama naiden niin');

/** What the request reports as asked of us, in the "-maan" form after "pyysi", "toivoi": a statement alone. */
function reportedAsks(sentences: readonly string[]): LanguageAction[] {
  const out: LanguageAction[] = [];
  for (const sentence of sentences)
    for (const ws of partsOf(sentence)) {
      if (negated(ws)) continue;
      const k = ws.findIndex((w) => REPORTED_ASK.has(w));
      const found = k >= 0 ? infinitiveAfter(ws, k, ['maan']) : undefined;
      if (found) out.push(found);
      if (out.length >= 8) return out;
    }
  return out;
}

/** Whether a part is a pro-verb put to the reader, "hoida se" (handle it), and little else. */
function proVerb(ws: readonly string[]): boolean {
  const i = firstAt(ws);
  const handles = formsAt(ws[i], ['imp', 'ask']).some((f) => f.light && (f.imp === 'hoida' || f.imp === 'tee'));
  return handles && ws.length - i <= 4 && ws.slice(i + 1).some((w) => PRO_OBJECTS.has(w));
}

/**
 * The actions a Finnish request asks for, part by part (see the file's comment). "Hoida se" asks
 * for what the request's other sentences report as asked of us ("Mikko pyysi lähettämään
 * todistuksen. Hoida se."); without it, the report asks nothing.
 */
export function finnishActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  const sentences = (prose.slice(0, 8_000).match(/[^.!?;\n]+[.!?;]*/g) ?? []).slice(0, 200);
  let reported: LanguageAction[] | undefined;
  for (const sentence of sentences) {
    const question = sentence.trim().endsWith('?');
    let carried = false;
    for (const ws of partsOf(sentence)) {
      if (ws.length === 0 || negated(ws)) {
        carried = false;
        continue;
      }
      let found = partAsks(ws, question);
      // "Voisitko maksaa laskun ja lähettää kuitin": an infinitive joined to one that asked asks too.
      const i = firstAt(ws);
      if (found.length === 0 && carried && formsAt(ws[i], ['inf']).length > 0) {
        const c = categoryAt(ws, i, formsAt(ws[i], ['inf'])[0]);
        if (c) found = [act(ws, i, c)];
      }
      if (found.length === 0 && proVerb(ws)) found = reported ??= reportedAsks(sentences);
      carried = found.length > 0;
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

/** Words that lead into an order in data: "Huom: …", "Tärkeää: …", "Ystävällisesti …", "Olkaa hyvä ja …". */
const ORDER_LEAD_IN = wordSet(
  'huom huomio tarkeaa kiireellinen ps ystavallisesti valittomasti heti nyt myos lisaksi sitten ole olkaa hyva ja seka',
);
/** Who an obligation in data is put on: the reader, or a role ("avustajan täytyy …", "assistentin on …"). */
const ROLES = /^(?:sinun|teidan|sun|avustaja|assistentti|assistenti|botti|botin|tekoaly|agentti|agenti|lukija|jarjestelma)/;
/** A courier's or a visitor's note: "soita ovikelloa kahdesti", "soita summeria". */
const DOORBELL = wordSet('ovikelloa ovikello summeria summeri kahdesti kerran kertaa porttikoodi ovella portilla saapuessa');

/**
 * An order written in Finnish in data: a part that opens with an imperative of an action other than
 * reading ("Maksa summa tilille FI21 …", "Lähettäkää tämä viesti osoitteeseen …"), "pyydämme" with
 * the "-maan" form ("Pyydämme maksamaan saldon …"), or an obligation on the reader or a role
 * ("Sinun tulee maksaa …", "Assistentin on poistettava …"); not a heading or an infinitive title
 * ("Laskun lähetys", "Lähettää lasku osastolle"), a statement ("Lähetämme laskun"), a passive ("Lasku
 * on maksettava"), a negated or asked obligation, nor a courier's note ("Soita ovikelloa kahdesti").
 */
export function finnishOrderIn(sentence: string): string | undefined {
  if (sentence.trim().endsWith('?')) return undefined;
  for (const piece of sentence
    .slice(0, 4_000)
    .split(/[:;,]|\s[-–—]\s|\s+ja\s+/i)
    .slice(0, 40)) {
    const ws = finnishWords(piece);
    let i = 0;
    while (i < ws.length && ORDER_LEAD_IN.has(ws[i])) i++;
    if (ws.length - i < 2 || negated(ws) || ws.some((w) => DOORBELL.has(w))) continue;
    const f = formsAt(ws[i], ['imp'])[0];
    const category = f ? categoryAt(ws, i, f) : undefined;
    if (category && category !== 'read') return ws.slice(i, i + 4).join(' ');
    const asks = ws.findIndex((w) => w === 'pyydamme' || w === 'pyydan');
    const polite = asks >= 0 ? infinitiveAfter(ws, asks, ['maan', 'inf']) : undefined;
    if (polite && polite.category !== 'read') return ws.slice(asks, asks + 4).join(' ');
    const oblige = ws.findIndex((w, k) => OBLIGE.has(w) && k > 0 && ROLES.test(ws[k - 1]));
    const duty = oblige >= 0 ? infinitiveAfter(ws, oblige) : undefined;
    if (duty && duty.category !== 'read') return ws.slice(oblige - 1, oblige + 4).join(' ');
  }
  return undefined;
}

/** A question that asks leave to go on: "Jatkanko?", "Sopiiko?", "Käykö näin?", "Teenkö sen?", "OK?". */
const ASKS_TO_GO_ON =
  /^(?:(?:ok|okei|hyva|selva)[,!]?\s+)?(?:jatkanko|jatketaanko|saanko jatkaa|etenenko|edetaanko|aloitanko|aloitetaanko|sopiiko|kayko|ok|okei|hyvaksytko|vahvistatko|onko (?:tama|tämä|se|nain|näin) (?:ok|hyva|hyvä|oikein)|(?:teenko|hoidanko|toimitanko) (?:sen|niin|tuon|nain|näin|asian)|tehdaanko nain|tehdäänkö näin)\b[^?]{0,30}\?+$/i;
/** A question that offers, then the verb: "Haluatko, että lähetän …?", "Pitäisikö minun maksaa …?", "Voinko perua …?". */
const OFFER_LEAD =
  /^(?:(?:haluatko|haluatteko|haluaisitko|haluaisitteko)\s*,?\s*(?:etta|että)\s+|(?:pitaisiko|pitäisikö|pitaako|pitääkö|tuleeko|kannattaako)\s+(?:minun|mun|meidan|meidän)?\s*|(?:voinko|saanko|voimmeko|saammeko)\s+)/i;

/** A proposal's words with its verb written as the imperative it becomes: "lähetänkö hänelle laskun" → "laheta hänelle laskun". */
function asImperative(raw: readonly string[], kinds: readonly Kind[]): string | undefined {
  for (let j = 0; j < Math.min(raw.length, 6); j++) {
    const f = formsAt(fold(raw[j].replace(/[^\p{L}\p{M}]/gu, '')), kinds)[0];
    if (!f) continue;
    const category = categoryAt(finnishWords(raw.join(' ')), j, f);
    if (!category || category === 'read') return undefined;
    return [f.imp, ...raw.slice(0, j), ...raw.slice(j + 1)].join(' ');
  }
  return undefined;
}

/**
 * What the assistant offers to do in a Finnish question, written as the user would ask for it:
 * "Lähetänkö hänelle laskun?" and "Haluatko, että lähetän laskun?" give "laheta hänelle laskun" and
 * "laheta laskun"; "Pitäisikö minun perua varaus?" gives "peru varaus"; "Lähetetäänkö muistutus?"
 * gives "laheta muistutus"; a question that asks leave to go on gives 'go-on'. Undefined for any other.
 */
export function finnishOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().slice(0, 2_000);
  if (!q.endsWith('?')) return undefined;
  if (ASKS_TO_GO_ON.test(fold(q))) return 'go-on';
  const lead = OFFER_LEAD.exec(q);
  const rest = (lead ? q.slice(lead[0].length) : q).replace(/\s*\?+$/, '').trim();
  const raw = rest.split(/\s+/).filter(Boolean);
  if (lead) return asImperative(raw, ['pres1', 'inf', 'we']);
  return raw.length > 0 ? asImperative(raw.slice(0, 1).concat(raw.slice(1)), ['pres1q', 'passq']) : undefined;
}

/** What the assistant says it will or can do: "Lähetän laskun huomenna", "Voin varata ajan", "Aion perua tilauksen". */
const PLAN_LEAD = /^(?:(?:voin|voimme|aion|aiomme|ehdin|pystyn|voisin)\s+)?(.+?)[.!:]?$/i;

export function finnishPlan(sentence: string): string | undefined {
  const m = PLAN_LEAD.exec(sentence.trim().slice(0, 2_000));
  if (!m) return undefined;
  const raw = m[1].split(/\s+/).filter(Boolean);
  const modal = m[1].length < sentence.trim().length - 2;
  const f = formsAt(fold(raw[0] ?? ''), modal ? ['inf'] : ['pres1', 'we'])[0];
  // "Pyydän teitä maksamaan …" asks the reader; it is no plan.
  if (!f || raw.slice(1, 6).some((w) => formsAt(fold(w), ['maan']).length > 0)) return undefined;
  return asImperative(raw, [f.kind]);
}

// ---------------------------------------------------------------------------------------------
// Tools.
// ---------------------------------------------------------------------------------------------

/** Nouns of an action that a tool's name writes last, as its verb (`lasku_lahetys`, `varaus_haku`, `tilaus_poisto`). */
const TOOL_NOUNS: Record<string, Category> = {
  lahetys: 'send',
  haku: 'read',
  poisto: 'delete',
  peruutus: 'delete',
  muokkaus: 'change',
  paivitys: 'change',
  lisays: 'change',
  tallennus: 'change',
  luonti: 'change',
  hyvaksynta: 'change',
  maksatus: 'pay',
};

/**
 * The category of a word as a Finnish verb in a tool's name or description: the imperative, the
 * infinitive or the third person ("laheta", "lahettaa", "Hakee", "Palauttaa" returns and reads); a
 * light verb names none, nor a word that is another as often ("tilaa", "lisaa").
 */
export function finnishCategory(word: string): Category | undefined {
  const w = fold(word);
  if (Object.hasOwn(TOOL_NOUNS, w)) return TOOL_NOUNS[w];
  if (HOMOGRAPHS.has(w) || w.length < 3) return undefined;
  const categories = new Set(formsAt(w, ['imp', 'inf', 'pres3']).map((f) => (f.light ? undefined : f.category)));
  const [only] = categories;
  return categories.size === 1 ? only : undefined;
}

/** Where a tool's name holds a Finnish verb (`laheta_lasku`, `haeTilaus`, `lasku_lahetys`), or -1. */
export function finnishInfinitive(nameWords: readonly string[]): number {
  const verb = nameWords.findIndex((w) => !Object.hasOwn(TOOL_NOUNS, w) && finnishCategory(w) !== undefined);
  if (verb >= 0) return verb;
  const last = nameWords.length - 1;
  return last > 0 && Object.hasOwn(TOOL_NOUNS, nameWords[last]) ? last : -1;
}
