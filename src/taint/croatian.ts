/**
 * Requests and tools written in Croatian, Serbian in Latin script and Bosnian, read as one
 * (docs/taint-policy.md, "Requests in Croatian"). The English parse (intent.ts) finds no verb in
 * "Pošalji mu račun" or "Molim vas uplatite najam za ožujak", and so asks for nothing: every call of
 * a Croatian-speaking team would be blocked as unasked. This reads Croatian as czech.ts reads Czech:
 * a verb is told by its forms (each verb is listed with its imperative, infinitive and third person,
 * in both aspects where business writes both: "pošalji", "poslati", "pošalje"; "šalji", "slati",
 * "šalje"; the plural and polite imperative "pošaljite", the first person "pošaljem", the second
 * persons "pošalješ", "pošaljete", "we" "pošaljemo", the short infinitive "poslat" and the past
 * "poslao", "poslala" follow from those); by where it stands (an imperative anywhere in its clause,
 * an infinitive first or after "molim", "možeš", "možete", "trebam", "treba", "želim", "hoću"; a
 * second person after "da" that follows one of those, "molim vas da uplatite", "treba da pošalješ");
 * and not when negated ("ne šalji", "nemoj slati", "nemojte brisati"), in a question about things
 * ("Tko nije platio?"), after "ako", "da", "je li", "koji", "što" inside a clause, or as a participle
 * ("plaćeni račun"). Nouns decline through seven cases: they are matched by stem and ending ("račun",
 * "računa", "računom"; "uplata", "uplatu"). Words are compared folded ("č", "ć" as "c", "đ" and "dj"
 * as "d"), as quick messages are often written without diacritics ("posalji", "otkazi", "prodji").
 */
import { clauseParts, verbCategory, wordSet, type Category, type ObjectKind } from './lexicon.js';
import { proposedIn, type ProposalTables } from './proposals.js';
import { DeclinedNouns } from './declined-nouns.js';
import type { LanguageAction } from './languages.js';
import { czechCategory } from './czech.js';
import { polishCategory } from './polish.js';
import { fold } from './spanish.js';

/** A word as written (lower case, diacritics kept) and folded: "Pošalji" is "pošalji" and "posalji". */
interface Word {
  raw: string;
  w: string;
}

const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dolar', '£': 'funta' };

/**
 * A word folded: diacritics off, "đ" (which has no decomposition) and "dj" (as it is typed without
 * one) both "d", so that "prođi", "prodji" and "prodi" meet.
 */
function norm(word: string): string {
  return fold(word).replace(/đ/g, 'd').replace(/dj/g, 'd');
}

function wordsOf(text: string): Word[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+|[€$£]/gu) ?? []
  )
    .map((raw) => ({ raw, w: CURRENCY[raw] ?? norm(raw).replace(/[^a-z0-9]/g, '') }))
    .filter((x) => x.w !== '');
}

/** The folded words of a text. */
export function croatianWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

/** A set of words, folded as the text's words are. */
const folded = (list: string): ReadonlySet<string> => new Set(list.split(' ').map(norm));

/**
 * Function words only Croatian, Serbian and Bosnian write of the languages read here, as written
 * (those with "ć" or "đ" count by their letters). Czech writes "můžete", "jsou", "který"; Slovene
 * "in", "ki", "kaj", "še", "če", "tudi", "lahko"; Polish "nie", "się", "który".
 */
const CROATIAN_OWN = wordSet(
  'nije nisu nisam jesam jesu jesi bio sam su biste bih bismo što šta kao gdje gde tko kada kad ili jer jel koji koja koje ' +
    'kojeg kojem kojima koju kojoj sve svi svima svih svu svaki još jos ovo ova ovaj ovu ovoj ovom ove ovih ovdje ovde molim ' +
    'molimo trebam trebaš trebas trebate trebamo trebalo trebala možeš mozes možete mozete možemo mozemo može moze mogu mogao ' +
    'mogla mogli joj njoj njima prije poslije posle nakon danas sutra jučer jucer juče sada sad odmah onda nema nemam nešto ' +
    'nesto ništa nista bok poštovani postovani gospodine gospođo ako dok također takoder nemoj nemojte hoću hocu hoćeš taj ' +
    'tog toga tome toj kod zbog kroz prema sa li zašto zasto uz evo lijepo',
);
/** Words Croatian writes that Czech, Polish or Slovene write too ("i", "u", "na", "za", "je", "se", "da", "ne"). */
const CROATIAN_SHARED = wordSet(
  'a i o u s k v z na do od po za to ta tu mi mu ga se si ne ni je da pa ti te vas nam vam im ih me dobro kako iz preko zato ima ' +
    'imamo imate imam neka bila bilo bili smo ste bi treba mora moram moramo morate moraš moras želim zelim želimo zelimo njega ' +
    'njemu njih koliko hvala fala nismo niste samo ali',
);
/**
 * Function words of the other languages, Croatian's neighbours among them, that Croatian does not
 * write: English, Spanish, Portuguese, French, Italian, German, Dutch, Scandinavian, Turkish; Czech
 * ("jsem", "prosím", "není", "můžete"), Polish ("nie", "się", "czy") and Slovene ("in", "ki", "kaj",
 * "še", "če", "tudi", "lahko", "prosim"), so that text in either is left to its own reader or none.
 */
const OTHER_OWN = wordSet(
  'the of and in is for with that this it an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y por para es está muy pero este esta sus más ya hay usted gracias también la que de en un una con del al su lo le les ' +
    'os um não nao com em é são ao aos pelo pela você seu isso já des du et est une pour dans sur au aux ce cette vous nous avec ' +
    'pas qui votre merci leur der die das und ist nicht ein eine mit für von zu auf bitte wir den dem il di della che gli sono ' +
    'questo questa anche grazie ho hai è non een het niet naar graag jij uw voor op met dat ' +
    'nie się jest są czy proszę prosze dla oraz także takze też tez już juz tylko jeszcze bardzo przez przed przy lub albo gdy kiedy ' +
    'gdzie kto ile jeśli jesli żeby zeby niech jego mnie pani dziękuję dzięki teraz potem wszystko który która które ' +
    'ktory ktora ktore może możesz będzie bedzie trzeba należy nalezy więc wiec tego tej musi musisz ' +
    'jsem jsi jsou jsme jste není neni nejsou prosím prosíme děkuji dekuji díky také taky už ještě jestli pokud když kdyby abys ' +
    'byste bych nebo protože mohl mohla mohu můžu můžete chci chceme potřebuji musíte musí tady dnes zítra včera hned pak potom ' +
    'kde kdo kdy kolik zda ano ' +
    'in ki kaj še če tudi lahko prosim kot bo bom boš bomo boste so sem vse vsi vsem zdaj takoj jutri danes včeraj kje kdo nič ' +
    'nekaj jih ji naj ter oziroma pozdravljeni spoštovani tem ' +
    'og ikke jeg deg meg er til som av har vil skal är och inte jag att för bir bu için ile lütfen',
);
/** Letters only Croatian, Serbian and Bosnian write of the languages read here (Polish writes "ć" too, beside its own). */
const CROATIAN_LETTER = /[ćđ]/;
/** Letters the other languages write and Croatian does not: Czech "ě", "ř", "ů", Polish "ł", "ą", "ę", the Romance and Germanic ones. */
const FOREIGN_LETTER = /[ěřůťďňýáíéúóñãõâêôûçœàèìùëäöüßąęłśńźåøæğış¿¡]/i;

/**
 * Whether a text is written in Croatian: two of its words at least are Croatian alone (a function
 * word, or a word in lower case with "ć" or "đ": a name "Tonći" says nothing), and more of them than
 * the other languages' own, Czech, Polish and Slovene among them; or, with none of the others' words
 * and no letter of theirs, a verb only Croatian has ("Pošalji račun Ivanu"). Its first 4,000
 * characters. Croatian is tried before Czech (languages.ts), whose letters "č", "š", "ž" it writes
 * too: it says yes only where its own words decide.
 */
export function readsAsCroatian(raw: string): boolean {
  // A compound with a hyphen is a borrowed term ("check-in", "e-mail"): its parts say nothing of the language.
  const text = raw
    .slice(0, 4000)
    .normalize('NFC')
    .replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu, ' ');
  let own = 0;
  let shared = 0;
  let others = 0;
  for (const token of text.match(/\p{L}+/gu) ?? []) {
    const w = token.toLowerCase();
    // A foreign letter in a name ("Jürgen", "Wójcik") says nothing of the text around it.
    if (FOREIGN_LETTER.test(w) && token[0] === w[0]) others++;
    else if (OTHER_OWN.has(w)) others++;
    else if (CROATIAN_OWN.has(w) || (CROATIAN_LETTER.test(w) && token[0] === w[0])) own++;
    else if (CROATIAN_SHARED.has(w)) shared++;
  }
  if (own >= 2 && own > others && own + shared > 2 * others) return true;
  if (others > 0 || FOREIGN_LETTER.test(text)) return false;
  return croatianWords(text).some((w) => croatianOnlyVerb(w));
}

/** A Croatian verb form no other language read here, nor English, writes ("posalji", "otkazi", "rezerviraj"). */
function croatianOnlyVerb(w: string): boolean {
  const kind = FORMS.get(w)?.kind ?? LIGHT_FORMS.get(w)?.kind;
  return (
    kind !== undefined &&
    OWN_KINDS.has(kind) &&
    w.length >= 5 &&
    !ENGLISH_SPELLED.has(w) &&
    czechCategory(w) === undefined &&
    polishCategory(w) === undefined &&
    verbCategory(w) === undefined
  );
}
const OWN_KINDS = new Set<Kind>(['imp', 'impl', 'inf', 'third', 'you', 'youpl']);

/**
 * What a form is: the imperative ("pošalji"), its plural and polite form ("pošaljite"), the
 * infinitive ("poslati", and "poslat" as it is spoken), the third person ("pošalje", "pošalju"), the
 * second persons ("pošalješ", "pošaljete"), "we" ("pošaljemo"), the first person ("pošaljem", for
 * plans), the past ("poslao", after "bi", "biste").
 */
type Kind = 'imp' | 'impl' | 'inf' | 'third' | 'you' | 'youpl' | 'we' | 'first' | 'past';

/**
 * Verbs (folded) by the action they name, each `imperative/infinitive/third person`, both aspects
 * where business writes both, the ijekavian and ekavian forms where they differ ("provjeri",
 * "proveri"). "Vrati" reads or sends, and pays with money after it; "prebaci" and "prenesi" change,
 * and pay with money after them; "naruči" pays, and books an appointment.
 */
const VERBS: Record<Category, string> = {
  read:
    'provjeri/provjeriti/provjeri proveri/proveriti/proveri provjeravaj/provjeravati/provjerava pogledaj/pogledati/pogleda ' +
    'gledaj/gledati/gleda vidi/vidjeti/vidi vidi/videti/vidi pregledaj/pregledati/pregleda prodi/proci/prode nadi/naci/nade ' +
    'pronadi/pronaci/pronade potrazi/potraziti/potrazi trazi/traziti/trazi pretrazi/pretraziti/pretrazi pokazi/pokazati/pokaze ' +
    'prikazi/prikazati/prikaze procitaj/procitati/procita citaj/citati/cita otvori/otvoriti/otvori izracunaj/izracunati/izracuna ' +
    'izlistaj/izlistati/izlista saznaj/saznati/sazna usporedi/usporediti/usporedi uporedi/uporediti/uporedi ' +
    'dohvati/dohvatiti/dohvati preuzmi/preuzeti/preuzme skini/skinuti/skine vrati/vratiti/vrati vracaj/vracati/vraca ' +
    'sazmi/sazeti/sazme provjeri/proveriti/proveri prebroji/prebrojati/prebroji utvrdi/utvrditi/utvrdi ispitaj/ispitati/ispita',
  send:
    'posalji/poslati/posalje salji/slati/salje proslijedi/proslijediti/proslijedi prosledi/proslediti/prosledi ' +
    'odgovori/odgovoriti/odgovori odgovaraj/odgovarati/odgovara javi/javiti/javi javljaj/javljati/javlja ' +
    'napisi/napisati/napise pisi/pisati/pise nazovi/nazvati/nazove zovi/zvati/zove pozovi/pozvati/pozove ' +
    'obavijesti/obavijestiti/obavijesti obavesti/obavestiti/obavesti obavjestavaj/obavjestavati/obavjestava ' +
    'reci/reci/rece kazi/kazati/kaze podsjeti/podsjetiti/podsjeti podseti/podsetiti/podseti ' +
    'kontaktiraj/kontaktirati/kontaktira mailaj/mailati/maila mejlaj/mejlati/mejla pitaj/pitati/pita upitaj/upitati/upita ' +
    'dostavi/dostaviti/dostavi uputi/uputiti/uputi ispricaj/ispricati/isprica zahvali/zahvaliti/zahvali ' +
    'objasni/objasniti/objasni ponudi/ponuditi/ponudi nudi/nuditi/nudi urgiraj/urgirati/urgira ' +
    'opomeni/opomenuti/opomene',
  share:
    'podijeli/podijeliti/podijeli podeli/podeliti/podeli omoguci/omoguciti/omoguci dodijeli/dodijeliti/dodijeli dodeli/dodeliti/dodeli',
  publish:
    'objavi/objaviti/objavi objavljuj/objavljivati/objavljuje komentiraj/komentirati/komentira komentarisi/komentarisati/komentarise',
  pay:
    'plati/platiti/plati placaj/placati/placa uplati/uplatiti/uplati uplacuj/uplacivati/uplacuje isplati/isplatiti/isplati ' +
    'isplacuj/isplacivati/isplacuje kupi/kupiti/kupi kupuj/kupovati/kupuje naruci/naruciti/naruci narucuj/narucivati/narucuje ' +
    'podmiri/podmiriti/podmiri refundiraj/refundirati/refundira naplati/naplatiti/naplati naplacuj/naplacivati/naplacuje ' +
    'doznaci/doznaciti/doznaci fakturiraj/fakturirati/fakturira nadoplati/nadoplatiti/nadoplati zaduzi/zaduziti/zaduzi',
  book:
    'rezerviraj/rezervirati/rezervira rezervisi/rezervisati/rezervise zakazi/zakazati/zakaze zakazuj/zakazivati/zakazuje ' +
    'bukiraj/bukirati/bukira dogovori/dogovoriti/dogovori organiziraj/organizirati/organizira organizuj/organizovati/organizuje ' +
    'isplaniraj/isplanirati/isplanira planiraj/planirati/planira unajmi/unajmiti/unajmi iznajmi/iznajmiti/iznajmi',
  change:
    'promijeni/promijeniti/promijeni promeni/promeniti/promeni mijenjaj/mijenjati/mijenja izmijeni/izmijeniti/izmijeni ' +
    'izmeni/izmeniti/izmeni azuriraj/azurirati/azurira dodaj/dodati/doda dodaji/dodavati/dodaje stvori/stvoriti/stvori ' +
    'kreiraj/kreirati/kreira spremi/spremiti/spremi sacuvaj/sacuvati/sacuva ispravi/ispraviti/ispravi popravi/popraviti/popravi ' +
    'uredi/urediti/uredi premjesti/premjestiti/premjesti premesti/premestiti/premesti pomakni/pomaknuti/pomakne ' +
    'pomjeri/pomjeriti/pomjeri pomeri/pomeriti/pomeri postavi/postaviti/postavi namjesti/namjestiti/namjesti ' +
    'podesi/podesiti/podesi upisi/upisati/upise zapisi/zapisati/zapise zabiljezi/zabiljeziti/zabiljezi zabelezi/zabeleziti/zabelezi ' +
    'unesi/unijeti/unese unesi/uneti/unese popuni/popuniti/popuni dopuni/dopuniti/dopuni potvrdi/potvrditi/potvrdi ' +
    'odobri/odobriti/odobri odbij/odbiti/odbije potpisi/potpisati/potpise izdaj/izdati/izda generiraj/generirati/generira ' +
    'oznaci/oznaciti/oznaci dodijeli/dodijeliti/dodijeli dodeli/dodeliti/dodeli rasporedi/rasporediti/rasporedi ' +
    'slozi/sloziti/slozi blokiraj/blokirati/blokira deblokiraj/deblokirati/deblokira aktiviraj/aktivirati/aktivira ' +
    'ukljuci/ukljuciti/ukljuci zatvori/zatvoriti/zatvori zakljuci/zakljuciti/zakljuci produzi/produziti/produzi ' +
    'obnovi/obnoviti/obnovi zamijeni/zamijeniti/zamijeni zameni/zameniti/zameni kopiraj/kopirati/kopira ' +
    'registriraj/registrirati/registrira prijavi/prijaviti/prijavi preimenuj/preimenovati/preimenuje prepisi/prepisati/prepise ' +
    'ucitaj/ucitati/ucita prihvati/prihvatiti/prihvati knjizi/knjiziti/knjizi proknjizi/proknjiziti/proknjizi ' +
    'pripisi/pripisati/pripise prebaci/prebaciti/prebaci prenesi/prenijeti/prenese prenesi/preneti/prenese ' +
    'pretvori/pretvoriti/pretvori sredi/srediti/sredi rijesi/rijesiti/rijesi resi/resiti/resi pripremi/pripremiti/pripremi ' +
    'ubaci/ubaciti/ubaci produlji/produljiti/produlji evidentiraj/evidentirati/evidentira',
  delete:
    'obrisi/obrisati/obrise brisi/brisati/brise izbrisi/izbrisati/izbrise ukloni/ukloniti/ukloni makni/maknuti/makne ' +
    'otkazi/otkazati/otkaze otkazuj/otkazivati/otkazuje ponisti/ponistiti/ponisti storniraj/stornirati/stornira ' +
    'iskljuci/iskljuciti/iskljuci deaktiviraj/deaktivirati/deaktivira arhiviraj/arhivirati/arhivira odjavi/odjaviti/odjavi ' +
    'izbaci/izbaciti/izbaci ocisti/ocistiti/ocisti isprazni/isprazniti/isprazni opozovi/opozvati/opozove ugasi/ugasiti/ugasi ' +
    'raskini/raskinuti/raskine odbaci/odbaciti/odbaci',
  exec:
    'pokreni/pokrenuti/pokrene pokreci/pokretati/pokrece instaliraj/instalirati/instalira deployaj/deployati/deploya ' +
    'kompajliraj/kompajlirati/kompajlira',
};

interface Form {
  category: Category;
  /** The verb's infinitive ("poslati" for "pošalji"). */
  verb: string;
  kind: Kind;
  /** An imperative written as its third person is ("plati", "provjeri"): it asks where a verb stands, not after a subject. */
  asThird?: true;
}

/**
 * Verbs that carry no action of their own, with the one they name alone: "napravi uplatu" pays,
 * "izvrši skriptu" runs, "daj mu pristup" shares, "daj do znanja" tells, "stavi to na web"
 * publishes, "napravi račun" and "stavi u rezervaciju" change.
 */
const LIGHT: Record<string, { forms: string; alone?: Category }> = {
  napraviti: { forms: 'napravi/napraviti/napravi', alone: 'change' },
  izvrsiti: { forms: 'izvrsi/izvrsiti/izvrsi' },
  obaviti: { forms: 'obavi/obaviti/obavi' },
  odraditi: { forms: 'odradi/odraditi/odradi' },
  dati: { forms: 'daj/dati/dade' },
  staviti: { forms: 'stavi/staviti/stavi', alone: 'change' },
  poduzeti: { forms: 'poduzmi/poduzeti/poduzme' },
};

/** The forms a verb's three listed forms give. */
function formsOf(entry: string): { forms: [string, Kind][]; first: string; inf: string } {
  const [imp, inf, third] = entry.split('/');
  const first = `${third}m`;
  const forms: [string, Kind][] = [
    [imp, 'imp'],
    [`${imp}te`, 'impl'],
    [inf, 'inf'],
    [third, 'third'],
    [`${third}s`, 'you'],
    [`${third}te`, 'youpl'],
    [`${third}mo`, 'we'],
    [first, 'first'],
  ];
  // The third person plural: "pošalju", "plate", "rezerviraju".
  const plural = third.endsWith('a') ? `${third}ju` : third.endsWith('e') ? `${third.slice(0, -1)}u` : `${third.slice(0, -1)}e`;
  forms.push([plural, 'third']);
  if (inf.endsWith('ti')) {
    // The infinitive as it is spoken, without its "i": "isplatit", "poslat".
    forms.push([inf.slice(0, -1), 'inf']);
    // Past forms: "poslao", "poslala", "poslali"; "platio"; "pokrenuo".
    const stem = inf.slice(0, -2);
    for (const end of ['o', 'la', 'li', 'le', 'lo']) forms.push([`${stem}${end}`, 'past']);
  }
  return { forms, first, inf };
}

/** The nouns of an action a verb names ("slanje", "plaćanje", "brisanje", "otkazivanje"). */
function verbalNouns(inf: string): string[] {
  if (!/[ae]ti$/.test(inf)) return [];
  const noun = `${inf.slice(0, -2)}nje`;
  return [noun, `${noun.slice(0, -1)}a`, `${noun.slice(0, -1)}u`];
}

const FORMS = new Map<string, Form>();
/** First persons ("pošaljem", "platim") to their infinitive, for offers and plans. */
const FIRST = new Map<string, string>();
/** Nouns of an action to its category ("slanje", "brisanje"). */
const VERBAL = new Map<string, Category>();
const LIGHT_FORMS = new Map<string, { verb: string; kind: Kind }>();
for (const [category, entries] of Object.entries(VERBS) as [Category, string][])
  for (const entry of entries.split(' ')) {
    const { forms, first, inf } = formsOf(norm(entry));
    const third = norm(entry).split('/')[2];
    for (const [f, kind] of forms)
      if (!FORMS.has(f)) FORMS.set(f, { category, verb: inf, kind, ...(kind === 'imp' && f === third ? { asThird: true as const } : {}) });
    if (category !== 'read') {
      if (!FIRST.has(first)) FIRST.set(first, inf);
      for (const n of verbalNouns(inf)) if (!VERBAL.has(n)) VERBAL.set(n, category);
    }
  }
for (const [verb, l] of Object.entries(LIGHT)) {
  const { forms, first } = formsOf(l.forms);
  for (const [f, kind] of forms) if (!LIGHT_FORMS.has(f)) LIGHT_FORMS.set(f, { verb, kind });
  if (l.alone) FIRST.set(first, verb);
}

/** Forms written as nouns, told apart where written with diacritics ("plaća", "plaće": a wage, not "pays"). */
const NOUNS_AS_WRITTEN = wordSet('plaće plaća');

/**
 * Nouns by stem; a noun is one of them with a case ending ("račun", "računa", "računu", "računom";
 * "uplata", "uplatu", "uplati"). A stem that changes ("novac", "novca") is listed in each spelling.
 */
const ENDINGS = wordSet(' a u e i o om em ama ima ovi ove ova ovima eva evi ju oj ih im');
const NOUN_STEMS: Partial<Record<ObjectKind, string>> = {
  money:
    'novac novc novca prijenos racun uplat isplat placanj iznos cijen cen kun eur euro dolar naknad provizij kaucij depozit predujam ' +
    'predujm akontacij dug dugovanj povrat refundacij iban transakcij plac najam najm najamnin stanarin clanarin pristojb ' +
    'porez pdv faktur obracun trosak troskov zaduzenj kamat popust rat uplatnic nalog',
  message: 'poruk mail email sms pism obavijest odgovor podsjetnik opomen pozivnic whatsapp vijest upit newsletter',
  access: 'pristup dozvol ovlast ovlasten prav admin administrator rol',
  booking:
    'rezervacij termin sastanak sastank sob stol kart ulaznic let transfer smjestaj boravak boravk posjet konzultacij ' +
    'pregled izlet brod vozn',
  publication: 'objav clanak clank oglas recenzij komentar post blog ocjen',
  credential: 'lozink zapork sifr pin token kod',
};
const NOUNS = new DeclinedNouns(NOUN_STEMS, ENDINGS, 4, norm);
const stemsOf = (w: string) => NOUNS.stemsOf(w);

/** Nouns that say what an action acts on, by the lexicon's object kinds, in any case. */
export function croatianObjects(ws: readonly string[]): Set<ObjectKind> {
  return NOUNS.objects(ws);
}

/** Nouns of an action, by stem, for a light verb or "molim za …". */
const ACTION_STEMS: Record<string, Category> = {
  uplat: 'pay',
  isplat: 'pay',
  placanj: 'pay',
  transakcij: 'pay',
  prijenos: 'pay',
  narudzb: 'pay',
  kupnj: 'pay',
  kupovin: 'pay',
  rezervacij: 'book',
  termin: 'book',
  izmjen: 'change',
  promjen: 'change',
  ispravak: 'change',
  ispravk: 'change',
  zahtjev: 'change',
  prijav: 'change',
  biljesk: 'change',
  napomen: 'change',
  zadatak: 'change',
  zadatk: 'change',
  racun: 'change',
  otkaz: 'delete',
  storn: 'delete',
  poziv: 'send',
  poruk: 'send',
  znanj: 'send',
  pristup: 'share',
  dozvol: 'share',
  skript: 'exec',
  naredb: 'exec',
  oglas: 'publish',
  objav: 'publish',
};
/** Where something put up is read by others: "na web", "na stranicu", "na Facebook", "na oglasnu ploču". */
const VENUES = wordSet(
  'web webu stranicu stranici stranice facebook facebooku instagram instagramu linkedin linkedinu intranet intranetu blog blogu oglasnu',
);

/** The category of a noun of an action, by its stem or as a verb's own noun ("slanje"); "povrat novca" pays. */
function actionNoun(w: string, after: readonly string[] = []): Category | undefined {
  const verbal = VERBAL.get(w);
  if (verbal) return verbal;
  if (/^povrat/.test(w)) return croatianObjects(after.slice(0, 3)).has('money') || /^povrat(?:a|u)?$/.test(w) ? 'pay' : undefined;
  for (const s of stemsOf(w)) {
    const c = ACTION_STEMS[s];
    if (c) return c;
  }
  return undefined;
}

/** A light verb's action: its venue ("stavi to na web"), the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if (/^(?:dati|staviti)$/.test(verb) && after.some((w) => VENUES.has(w))) return 'publish';
  // "Daj do znanja": let them know.
  if (verb === 'dati' && after[0] === 'do' && after[1] === 'znanja') return 'send';
  for (let k = 0; k < after.length; k++) {
    const c = actionNoun(after[k], after.slice(k + 1));
    if (c) return c;
  }
  return LIGHT[verb].alone;
}

/** Pronouns, forms of address and small words that stand between a verb and what leads into it ("možeš li mu molim te poslati"). */
const PRONOUNS = folded(
  'mu joj im ga je ju ih mi meni nam vam ti te se si to ovo ono sve li molim molimo vas gospodine gospodo jos odmah danas sutra ' +
    'sad sada isto takoder hitno',
);
/** A reply to the user is no message: "pošalji mi", "javi mi", "napišite nam". */
const TO_USER = folded('mi meni nam nama');
/** Words after which a verb is a verb: a conjunction, an adverb, a polite word. */
const VERB_CONTEXT = folded(
  'a i pa onda zatim potom nakon toga jos molim molimo hvala ok okej dobro daj ajde hajde sad sada odmah danas sutra hitno ' +
    'obavezno svakako slobodno samo takoder isto ali ili nego vec prvo najprije kasnije pa jos i bok',
);
/** Words before an infinitive that ask the reader for it: "molim poslati", "možeš li platiti", "trebam otkazati", "ne zaboravi poslati". */
const MODAL = folded(
  'molim molimo mozes mozete mogao mogla mogli mogle bi biste trebam trebamo trebas trebate treba trebalo trebala trebati ' +
    'moras morate moramo zelim zelimo hocu hocemo htio htjela htjeli htela hteo zaboravi zaboravite zaboraviti pokusaj pokusajte ' +
    'probaj probajte potrebno nuzno dovoljno daj',
);
/** Modals that say what is needed, not who is asked: in a question they ask advice ("Treba li platiti?"). */
const IMPERSONAL = folded('treba trebalo trebala potrebno nuzno');
/** Words after which a past form asks: "biste li poslali", "bi li mu poslao". */
const WISH = folded('bi biste');
/** Words a negation does not reach past: "ne zaboravi poslati" asks, "ne X, već Y" asks Y. */
const NEGATION_STOPS = folded('a i pa ali nego vec onda zatim samo zaboravi zaboravite zaboraviti');
/** Negations that stand apart from the verb they negate: "ne šalji", "nemoj slati", "ni nudit", "nije potrebno platiti". */
const NEGATORS = folded('ne nemoj nemojte nemojmo nikad nikada nikako ni niti nije nemoras nemorate nemoramo nemamo nisam nismo');
const QUESTION_WORDS = folded(
  'sto sta tko ko koji koja koje koju kojeg kojem kojima ciji cija cije kada kad gdje gde kako zasto koliko je jel jeli ima imaju ' +
    'kamo kuda odakle otkad',
);
/** Words that open a condition or a reported clause: "ako treba platiti", "da je platio", "je li platio". */
const CONDITION = folded('ako ukoliko li jel jeli cim dok jer');
/** Words a clause inside a sentence opens with (relatives, questions, "da" not after a modal). */
const INNER = folded('sto sta tko ko koji koja koje koju kojeg kojem kojima kada kad gdje gde kako zasto koliko da');

/** How far back a verb's context is looked for: a clause of thousands of words is read once, not once per word. */
const WINDOW = 12;

const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "vrati", "prebaci", "naruči" by their objects. */
function verbAt(cw: readonly Word[], i: number, labels: ReadonlySet<number>): Form | undefined {
  if (labels.has(i) || NOUNS_AS_WRITTEN.has(cw[i].raw)) return undefined;
  const w = cw[i].w;
  const after = cw.slice(i + 1, i + 7).map((x) => x.w);
  const light = LIGHT_FORMS.get(w);
  if (light) {
    const category = lightCategory(light.verb, after);
    return category ? { category, verb: light.verb, kind: light.kind } : undefined;
  }
  const f = FORMS.get(w);
  if (!f) return undefined;
  const money = croatianObjects(after).has('money');
  if (/^(?:vratiti|vracati|prebaciti|prenijeti|preneti|dostaviti)$/.test(f.verb) && money) return { ...f, category: 'pay' };
  // "Naruči me kod zubara", "naruči ga na pregled": an appointment.
  if (/^naruc/.test(f.verb) && (croatianObjects(after).has('booking') || after.some((x) => /^(?:lijecnik|doktor|zubar|kontrol)/.test(x))))
    return { ...f, category: 'book' };
  return f;
}

/** A second person after "da" that follows a modal or "molim": "molim vas da uplatite", "treba da pošalješ", "hoću da otkažeš". */
function afterModalDa(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  let j = i - 1;
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && PRONOUNS.has(ws[j]) && ws[j] !== 'molim' && ws[j] !== 'molimo') j--;
  if (j < 1 || ws[j] !== 'da') return false;
  let k = j - 1;
  while (k >= 0 && j - k <= 3 && PRONOUNS.has(ws[k]) && ws[k] !== 'molim' && ws[k] !== 'molimo') k--;
  return k >= 0 && MODAL.has(ws[k]);
}

/**
 * Whether the verb at `i` stands as one the reader is asked to carry out. An imperative does
 * anywhere in its clause ("Račun pošalji Ivanu"), but one written as its third person ("plati",
 * "provjeri") only first or after a word that leads into a verb: after a subject it states ("Ivan
 * plati u petak"). An infinitive asks first in its part ("Poslati račun klijentu.") or after a modal
 * ("molim poslati", "možeš li platiti", "trebam otkazati"); a second person in a question ("Pošalješ
 * mu račun?") or after a modal's "da" ("molim vas da uplatite"); a past form after "bi" or "biste" in
 * a question ("Biste li poslali ponudu?"). "We", the first person and a third person state.
 */
function stands(cw: readonly Word[], i: number, v: Form, parts: ReadonlySet<number>, question: boolean): boolean {
  const ws = cw.map((x) => x.w);
  if (v.kind === 'we' || v.kind === 'first' || v.kind === 'third') return false;
  let j = i - 1;
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && PRONOUNS.has(ws[j])) j--;
  const before = j < 0 || parts.has(j + 1) ? undefined : ws[j];
  if (v.kind === 'past') return question && before !== undefined && WISH.has(before);
  if (v.kind === 'you' || v.kind === 'youpl')
    return afterModalDa(ws, i, parts) || (question && (before === undefined || before === 'a' || before === 'i' || before === 'pa'));
  if (v.kind === 'impl' && afterModalDa(ws, i, parts)) return true;
  if (before === undefined) return true;
  if (v.kind !== 'inf') return VERB_CONTEXT.has(before) || MODAL.has(before) || !v.asThird;
  if (MODAL.has(before)) return !(question && IMPERSONAL.has(before));
  return VERB_CONTEXT.has(before) && before !== 'to';
}

/** A negation before the verb in its part: "ne šalji", "nemoj mu vraćati", "ne trebaš platiti"; "ne zaboravi platiti" asks. */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= 4 && !parts.has(j + 1); j--) {
    if (NEGATION_STOPS.has(ws[j])) return false;
    if (NEGATORS.has(ws[j])) return true;
  }
  return false;
}

/**
 * A verb inside a clause that asks whether, what or who ("provjeri je li potrebno platiti",
 * "saznaj koliko trebamo platiti"), a condition ("ako treba platiti, …": its main clause after the
 * comma asks) or a reported one ("reci joj da mora platiti"); "da" after a modal leads the verb in.
 */
function subordinate(cw: readonly Word[], i: number, parts: ReadonlySet<number>): boolean {
  const ws = cw.map((x) => x.w);
  for (let j = i - 1; j >= 0 && i - j <= WINDOW && !parts.has(j + 1); j--) {
    const w = ws[j];
    if (w === 'a' || w === 'i' || w === 'pa' || w === 'onda' || w === 'zatim' || w === 'ali' || w === 'nego') return false;
    // "Možete li …", "Biste li …" opening the clause ask; "saznaj treba li …" inside one asks whether.
    if (w === 'li' && j > 0 && MODAL.has(ws[j - 1]) && (j === 1 || parts.has(j - 1))) return false;
    if (CONDITION.has(w)) return true;
    if (w === 'da' && afterModalDa(ws, i, parts)) return false;
    if (INNER.has(w) && j > 0) return true;
  }
  return false;
}

/** A message to the user: "pošalji mi", "možeš mi poslati", "napiši nam", "javi mi". */
function toUser(ws: readonly string[], i: number): boolean {
  const k = ws[i + 1] === 'to' || ws[i + 1] === 'molim' ? i + 2 : i + 1;
  if (TO_USER.has(ws[k] ?? '') || (ws[k] === 'na' && /^(?:moj|nas)/.test(ws[k + 1] ?? ''))) return true;
  for (let j = i - 1; j >= 0 && i - j <= 3 && PRONOUNS.has(ws[j]); j--) if (TO_USER.has(ws[j])) return true;
  return false;
}

/** Whom a confirmation goes to ("potvrdi gostu", "potvrdi mu"), or the channel it goes by ("mailom", "na whatsapp"): then it is a message too. */
const RECIPIENTS = folded('mu joj im njemu njoj njima svima');
const RECIPIENT_NOUNS = /^(?:gost|gosc|gospodin|gospod|klijent|vlasni|strank|kup(?:c|ac)|partner|dobavljac|dobavljac)/;
const CHANNEL_WORDS = folded('mailom emailom porukom smsom whatsappom telefonom');
function toSomeone(ws: readonly string[], i: number): boolean {
  const after = ws.slice(i + 1, i + 4);
  if (after.some((w) => RECIPIENTS.has(w) || (RECIPIENT_NOUNS.test(w) && /(?:u|i|ima|ama|oj)$/.test(w)))) return true;
  const later = ws.slice(i + 1, i + 9);
  return later.some((w, k) => CHANNEL_WORDS.has(w) || (w === 'na' && /^(?:mail|email|whatsapp|sms)$/.test(later[k + 1] ?? '')));
}

/** Pronouns that stand for an object named before: "unesi ih", "pošalji ga", "plati ju". */
const OBJECT_PRONOUNS = folded('ih ga ju njih');

/** Words that ask for the action a noun names: "molim za uplatu", "tražim otkaz". */
const REQUEST_FOR = folded('molim molimo trazim trazimo');

/**
 * The actions a Croatian request asks for, clause by clause. A question that opens with a question
 * word asks about things ("Koliko je ostalo za platiti?"), where "Možeš li poslati …?" asks for the
 * action. "Molim za uplatu …" asks for the action its noun names.
 */
export function croatianActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  for (const clause of prose
    .slice(0, 8000)
    .replace(/\.(?=\s|$)/g, '\n')
    .match(/[^;!?\n]+\?*/g) ?? []) {
    const cw = wordsOf(clause);
    const ws = cw.map((x) => x.w);
    const question = clause.trim().endsWith('?');
    if (ws.length === 0 || (question && QUESTION_WORDS.has(ws[0]))) continue;
    const { parts, labels } = partsOf(clause);
    for (let i = 0; i < ws.length; i++) {
      // "…mail s cijenama za rujan, unesi ih u sustav": a pronoun for its object ("ih", "ga", "ju")
      // acts on what the sentence named before it.
      const named = OBJECT_PRONOUNS.has(ws[i + 1] ?? '') ? ws.slice(Math.max(0, i - WINDOW), i) : [];
      const asked = (category: Category) =>
        out.push({ category, after: [...ws.slice(i + 1, i + 13), ...named], words: ws.slice(i, i + 4).join(' ') });
      if (REQUEST_FOR.has(ws[i]) && (ws[i + 1] === 'za' || ws[i] === 'trazim' || ws[i] === 'trazimo') && !negated(ws, i, parts)) {
        const at = ws[i + 1] === 'za' ? i + 2 : i + 1;
        const c = ws[at] === undefined ? undefined : actionNoun(ws[at], ws.slice(at + 1, at + 4));
        if (c && c !== 'read' && !(c === 'send' && TO_USER.has(ws[at + 1] ?? ''))) {
          asked(c);
          continue;
        }
      }
      const v = verbAt(cw, i, labels);
      if (!v || v.category === 'read') continue;
      if (!stands(cw, i, v, parts, question) || negated(ws, i, parts) || subordinate(cw, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i)) continue;
      asked(v.category);
      // "Potvrdi gostu dolazak", "upiši i javi mailom": a confirmation to someone is a message too.
      if ((v.category === 'change' || v.category === 'book') && /^potvrd/.test(v.verb) && toSomeone(ws, i)) asked('send');
    }
  }
  return out;
}

/** Words that lead into an order without changing it: "Molim …", "Pažnja: …", "Hitno: …". */
const ORDER_LEAD_IN = folded(
  'molim molimo ljubazno lijepo pazn paznja vazno hitno obavezno ps nb takoder isto sada sad onda zatim potom odmah hitno ' +
    'svakako a i samo',
);
/** An obligation put on the reader, or on whoever holds a role: "morate platiti …", "asistent mora obrisati …", "potrebno je uplatiti …". */
const OBLIGATION =
  /\b(?:moras|morate|mora|moramo|trebas|trebate|treba|(?:je\s+)?potrebno(?:\s+je)?|(?:je\s+)?nuzno(?:\s+je)?|(?:ste|si|je|su|smo)\s+duz(?:an|na|ni|ne|no)|duz(?:an|na|ni|ne|no)\s+(?:ste|si|je|su|smo)|(?:bi|biste)\s+trebal[aoi]?|trebal[aoi]?\s+(?:bi|biste))\s+/g;
/** A passive after an obligation ("mora biti plaćeno"): no one is ordered. */
const PASSIVE = folded('biti bit bude');
/** Two capitalised words: a name opening a record's line ("Ana Horvat, Ilica 5"). */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+/u;
/** A courier's note about the door or the delivery: "nazovite prije dostave", "zvono ne radi". */
const DOORBELL = folded('dvaput zvono zvona zvonite ulaz ulaza kod portir dostave dostavom dolaska dolaskom interfon');

/** The verb that orders in a part, from `i`: there, or an imperative a word or two later ("a kopiju pošaljite na …"). */
function orderVerb(cw: readonly Word[], i: number): Form | undefined {
  const v = i < cw.length ? verbAt(cw, i, new Set()) : undefined;
  if (v) return v;
  for (let k = i + 1; k <= i + 2 && k < cw.length - 1; k++) {
    const later = verbAt(cw, k, new Set());
    if ((later?.kind === 'imp' && !later.asThird) || later?.kind === 'impl') return later;
  }
  return undefined;
}

/**
 * An order written in Croatian in data: a clause that opens with an imperative of an action other
 * than reading ("Uplatite iznos na račun …", "Proslijedite ovu poruku na …"), an infinitive after
 * "molim", "molim vas da" with a second person ("Molim vas da uplatite …"), "molimo za" with a noun
 * of an action ("Molimo za uplatu …"), a third person after "neka" ("neka asistent uplati …"); or an
 * obligation on the reader or a role ("morate platiti …", "asistent mora obrisati …", "potrebno je
 * uplatiti …", "iznajmljivači su dužni proslijediti …"). An infinitive title ("Poslati račun
 * računovodstvu"), a noun heading ("Uplata od 3. svibnja"), a participle ("Plaćeno 3. 5."), a
 * statement ("Klijent plaća virmanom", "Račun šaljemo sutra"), a passive ("mora biti plaćeno") and a
 * courier's note ("Nazovite prije dostave") are none. Returns the words that order.
 */
export function croatianOrderIn(sentence: string): string | undefined {
  const text = sentence.slice(0, 8000).normalize('NFC');
  for (const part of text.split(/[:;,]\s*|\s+(?:i|pa|te)\s+(?:onda\s+|zatim\s+|potom\s+)?/i).slice(0, 400)) {
    const cw = wordsOf(part);
    const ws = cw.map((x) => x.w);
    let i = 0;
    while (i < ws.length && i < WINDOW && ORDER_LEAD_IN.has(ws[i])) i++;
    const polite = ws.slice(0, i).some((w) => w === 'molim' || w === 'molimo' || w === 'ljubazno');
    if (polite && ws[i] === 'za') {
      const c = ws[i + 1] === undefined ? undefined : actionNoun(ws[i + 1], ws.slice(i + 2, i + 5));
      if (c && c !== 'read') return ws.slice(i - 1, i + 4).join(' ');
      continue;
    }
    // "Molim vas da …", "molim te da …": the verb after "da" is the order.
    let da = false;
    if (polite) {
      let k = i;
      while (k < ws.length && k - i < 3 && PRONOUNS.has(ws[k])) k++;
      if (ws[k] === 'da') {
        da = true;
        i = k + 1;
      }
    }
    let neka = false;
    if (ws[i] === 'neka') {
      neka = true;
      i++;
      // "neka asistent", "neka gospodin Horvat": the one asked, before the verb.
      const from = i;
      while (i < ws.length && i - from < 3 && !FORMS.has(ws[i]) && !LIGHT_FORMS.has(ws[i])) i++;
    }
    while (i < ws.length && i < WINDOW && PRONOUNS.has(ws[i]) && ws[i] !== 'molim') i++;
    const opens = i === 0 && !FORMS.has(ws[0] ?? '') && !LIGHT_FORMS.has(ws[0] ?? '');
    if (opens && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    const v = da ? (i < cw.length ? verbAt(cw, i, new Set()) : undefined) : orderVerb(cw, i);
    if (!v || v.category === 'read' || ws.length - i < 2) continue;
    const ordered = da
      ? v.kind === 'youpl' || v.kind === 'you' || v.kind === 'impl'
      : neka
        ? v.kind === 'third' || (v.kind === 'imp' && v.asThird === true)
        : v.kind === 'inf'
          ? polite
          : v.kind === 'imp' || v.kind === 'impl';
    if (!ordered) continue;
    if (/zvati$/.test(v.verb) && ws.slice(i + 1, i + 6).some((w) => DOORBELL.has(w))) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  return obligationIn(norm(text));
}

/** An obligation in a folded text: "morate uplatiti", "asistent mora obrisati"; not "ne morate", "ako morate", "mora biti". */
function obligationIn(text: string): string | undefined {
  let tried = 0;
  // "Ivan ima psa. Morate platiti …": each "mora", "treba" is tried, a bounded number of them.
  for (const m of text.matchAll(OBLIGATION)) {
    if (++tried > 50) break;
    // "Treba li platiti …?": an obligation asked about orders nothing.
    if (/^[^.!?]*\?/.test(text.slice(m.index, m.index + 400))) continue;
    if (
      /(?:^|[^a-z])(?:ne|ni|ako|li|koliko|sto|sta|kada|kad|kako|zasto|gdje|da|jel)\s+$/.test(text.slice(Math.max(0, m.index - 12), m.index))
    )
      continue;
    // The infinitive it puts on the reader, a few words on: "su dužni ovaj link odmah proslijediti".
    const after =
      text
        .slice(m.index + m[0].length, m.index + m[0].length + 200)
        .split(/[.!?;\n]/)[0]
        .match(/[a-z]+/g) ?? [];
    let category: Category | undefined;
    let k = 0;
    for (; k < Math.min(after.length, 6) && category === undefined; k++) {
      if (PASSIVE.has(after[k]) || NEGATORS.has(after[k])) break;
      const f = FORMS.get(after[k]);
      const light = LIGHT_FORMS.get(after[k]);
      category = f?.kind === 'inf' ? f.category : light?.kind === 'inf' ? LIGHT[light.verb].alone : undefined;
    }
    if (category && category !== 'read') return [...m[0].trim().split(/\s+/), ...after.slice(0, k)].slice(0, 6).join(' ');
  }
  return undefined;
}

/** A question that asks leave to go on: "Da nastavim?", "Mogu li nastaviti?", "Slažete li se?", "Je li to u redu?", "OK?". */
const ASKS_TO_GO_ON =
  /^(?:(?:a|pa|onda|dakle)\s+)?(?:(?:da\s+(?:nastavim|krenem|to\s+napravim|napravim\s+to|to\s+obavim))|(?:(?:mogu|smijem|smem|trebam|hocete|zelite)\s+li\s+)?(?:nastaviti|nastavit|krenuti|krenut|to\s+napraviti|to\s+obaviti|napraviti\s+to)|nastavljam|(?:je\s+li|jel|da\s+li\s+je)\s+(?:to\s+)?(?:tako\s+)?(?:u\s+redu|ok|okej|dobro|ispravno)|(?:to\s+)?(?:je\s+)?(?:u\s+redu|ok|okej|dobro)|slazes\s+li\s+se|slazete\s+li\s+se|slazes\s+se|slazete\s+se|potvrdujes|potvrdujete|moze|moze\s+li\s+tako|(?:zelis|zelite|hoces|hocete),?\s+(?:li\s+)?da\s+(?:nastavim|to\s+napravim|to\s+obavim|krenem))(?:\s+(?:sada|sad|dalje|tako|onda))?\s*\?*$/;
/** A question that offers an action: "Da pošaljem …?", "Mogu li platiti …?", "Želite li da pošaljem …?", "Trebam li poslati …?". */
const OFFER_LEAD =
  /^(?:(?:a|pa|onda|dobro|ok)\s+)?(?:(?:mogu|smijem|smem|trebam|trebamo|mozemo)\s+li\s+|(?:zelis|zelite|hoces|hocete)\s+li,?\s+(?:da\s+)?|(?:da\s+li\s+)?(?:zelis|zelite|hoces|hocete),?\s+da\s+|da\s+)/;

/** A word without what is not a letter or a digit, folded. */
const bare = (word: string) => norm(word).replace(/[^a-z0-9]/g, '');

/** The tables proposals and plans are read with (proposals.ts). */
const TABLES: ProposalTables<Kind> = { forms: FORMS, first: FIRST, light: LIGHT_FORMS, lightCategory, pronouns: PRONOUNS, bare };

/**
 * What the assistant offers to do in a Croatian question, written as the user would ask for it:
 * "Da pošaljem račun?" gives "poslati račun"; "Mogu li platiti najam?" "platiti najam"; "Želite li
 * da otkažem rezervaciju?" "otkazati rezervaciju"; "Poslati mu račun?" itself; a question that asks
 * leave to go on ("Da nastavim?", "Je li to u redu?") gives 'go-on'. Undefined for any other
 * question, and for one of another language: it holds a Croatian verb of an action.
 */
export function croatianOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().normalize('NFC');
  if (!q.endsWith('?') || q.length > 2000 || FOREIGN_LETTER.test(q)) return undefined;
  const f = norm(q);
  if (ASKS_TO_GO_ON.test(f)) return 'go-on';
  // Folding keeps a composed text's length but for "dj", which it shortens: the lead is cut from the folded words.
  const lead = OFFER_LEAD.exec(f);
  const leadWords = lead ? lead[0].trim().split(/\s+/).filter(Boolean).length : 0;
  const words = q
    .replace(/\s*\?+$/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(leadWords);
  if (words.length === 0) return lead ? 'go-on' : undefined;
  return proposedIn(TABLES, words, new Set<Kind>(lead ? ['inf', 'first'] : ['inf', 'first']));
}

/** A plan in the first person: "Mogu poslati …", "Odmah šaljem …", "Pokušat ću otkazati …", "Sad ću poslati …". */
const PLAN_LEAD =
  /^(?:(?:ja|sad|sada|odmah|prvo|onda|zatim|danas)\s+)?(?:mogu|mozemo|pokusat\s+cu|pokusacu|planiram|namjeravam|predlazem\s+da|cu|cemo|sad\s+cu|odmah\s+cu|sada|sad|odmah|prvo|onda|zatim|danas)\s+/;

/** What the assistant says it will or can do: "Mogu poslati račun", "Pošaljem račun sutra" (as "poslati račun sutra"). */
export function croatianPlan(sentence: string): string | undefined {
  const s = sentence
    .trim()
    .normalize('NFC')
    .replace(/[.!:]+$/, '');
  if (s.length > 2000 || s.endsWith('?') || FOREIGN_LETTER.test(s)) return undefined;
  const lead = PLAN_LEAD.exec(norm(s));
  const leadWords = lead ? lead[0].trim().split(/\s+/).filter(Boolean).length : 0;
  const words = s.split(/\s+/).filter(Boolean).slice(leadWords);
  // "Poslat ću …", "Platit ću …": an infinitive before "ću" is a plan.
  if (!lead && words.length > 1 && /^(?:cu|cemo)$/.test(bare(words[1]))) {
    const f = FORMS.get(bare(words[0]));
    if (f && f.kind === 'inf' && f.category !== 'read') return [f.verb, ...words.slice(2)].join(' ');
  }
  return proposedIn(TABLES, words, new Set<Kind>(lead ? ['inf', 'first'] : ['first']));
}

/** Forms tools use in their names and descriptions: the imperative, the infinitive, the third person. */
const TOOL_KINDS = new Set<Kind>(['imp', 'inf', 'third']);
/** Words English and tool names write as nouns ("plan", "post", "pin"): in a tool's name they say nothing of Croatian. */
const ENGLISH_SPELLED = wordSet('sms pin post blog plan kod');

/** The category of a word as a Croatian verb (for a tool's name and description): "posalji", "poslati", "salje", "otkazi", "vraca". */
export function croatianCategory(word: string): Category | undefined {
  // A light verb names no action of its own in a tool's name (`izvrsi_uplatu` pays, `izvrsi_skriptu`
  // runs): its arguments say which sink (a payee and an amount, a command).
  const w = norm(word);
  const f = ENGLISH_SPELLED.has(w) ? undefined : FORMS.get(w);
  return f && TOOL_KINDS.has(f.kind) ? f.category : undefined;
}

/** Where a tool's name holds a Croatian verb (`posalji_racun`, `otkaziRezervaciju`, `rezervacije_pregledaj`), or -1: such a name is Croatian. */
export function croatianInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => croatianCategory(w) !== undefined);
}
