/**
 * Requests and tools written in Czech (docs/taint-policy.md, "Requests in Czech"). The English parse
 * (intent.ts) finds no verb in "Pošli mu fakturu" or "Prosím uhraďte nájem za březen", and so asks
 * for nothing: every call of a Czech-speaking team would be blocked as unasked. This reads Czech as
 * polish.ts reads Polish: a verb is told by its forms (each verb is listed with its imperative,
 * infinitive, third and first person, in both aspects: "pošli", "poslat", "pošle", "pošlu";
 * "posílej", "posílat", "posílá", "posílám"; the plural and polite imperative "pošlete", the second
 * persons and "we" follow from those); by where it stands (an imperative anywhere in its clause, an
 * infinitive first or after "prosím", "můžete", "mohl byste", "chci", "potřebuji", "je třeba"); and
 * not when negated (Czech writes "ne" on the verb: "neposílej" is no listed form), in a question
 * about things ("Kdo nezaplatil?"), after "jestli", "zda", "pokud" or "že" inside a clause, or as a
 * participle ("zaplacená faktura"). Nouns decline through seven cases: they are matched by stem and
 * ending ("faktura", "fakturu", "fakturou"). Words are compared folded, as quick messages and names
 * are often written without diacritics ("posli", "zaplat").
 */
import { clauseParts, verbCategory, wordSet, type Category, type ObjectKind } from './lexicon.js';
import { proposedIn, type ProposalTables } from './proposals.js';
import { DeclinedNouns } from './declined-nouns.js';
import type { LanguageAction } from './languages.js';
import { polishCategory } from './polish.js';
import { fold } from './spanish.js';

/** A word as written (lower case, diacritics kept) and folded: "Zaplať" is "zaplať" and "zaplat". */
interface Word {
  raw: string;
  w: string;
}

const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dolar', '£': 'libra' };

function wordsOf(text: string): Word[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+|[€$£]/gu) ?? []
  )
    .map((raw) => ({ raw, w: CURRENCY[raw] ?? fold(raw).replace(/[^a-z0-9]/g, '') }))
    .filter((x) => x.w !== '');
}

/** The folded words of a text. */
export function czechWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

/** Function words only Czech writes here (those with "ě", "ř", "ů", "č", "š", "ž", "ý" count by their letters). */
const CZECH_OWN = wordSet(
  'jsem jsi jsou jsme jste není neni nejsou prosím prosim prosíme prosime děkuji dekuji děkujeme dekujeme díky diky také taky ' +
    'uz jeste jestli pokud kdyz kdyby abys abyste byste bych bychom bys nebo protoze proto mohl mohla mohli mohu muzu muzes ' +
    'muzete chci chceme chcete chces potrebuji potrebuju potrebujeme musíš musis musíte musite musí mne jeho její ' +
    'tyto tady dnes zítra zitra vcera hned pak potom velmi vše vse dobrý ano kde kdo kdy kolik jaký jaká jaké kam odkud zda ' +
    'už žádám žádáme pane paní bude budou byl byla bylo můžete mám máme máte mají taky také též',
);
/** Function words Czech shares with Polish, Slovak or the others ("a", "na", "do", "to", "je", "se", "ne"). */
const CZECH_SHARED = wordSet(
  'a i o u v s k z ve ze na do od po za to ten ta tu co jak tak mi mu ho se si ne ani aby ja my vy ty je den pro bez ale moje ma',
);
/** Function words of English, Spanish, Portuguese, French, Italian, German, Dutch, Polish and Scandinavian that Czech does not write. */
const OTHER_OWN = wordSet(
  'the of and in is for with that this it an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y por para es está muy pero este esta sus más ya hay usted gracias también la que de en un una con del al su lo le les ' +
    'os um não nao com em da é são ao aos pelo pela você seu isso já des du et est une pour dans sur au aux ce cette vous nous avec ' +
    'pas qui votre merci leur der die das und ist nicht ein eine mit für von zu auf bitte wir den dem il di della che gli sono ' +
    'questo questa anche grazie ho hai è non een het niet naar graag jij uw voor op met dat ' +
    'nie się jest są czy proszę prosze dla oraz także takze też tez już juz tylko jeszcze bardzo przez przed przy lub albo gdy kiedy ' +
    'gdzie kto ile jeśli jesli żeby zeby niech jego mnie nam wam nas was pani dziękuję dzięki teraz potem wszystko który która które ' +
    'ktory ktora ktore może moze możesz mozesz będzie bedzie trzeba należy nalezy więc wiec tego tej musi musisz ' +
    'og ikke jeg deg meg er til som av har vil skal är och inte jag att för bir bu için ile lütfen',
);
/** Letters only Czech writes of the languages read here. */
const CZECH_LETTER = /[ěřůčšďťňžý]/;
/** Letters the other languages write and Czech does not. */
const FOREIGN_LETTER = /[ñãõâêôûçœàèìùëäöüßąęłśćńźżåøæğış¿¡]/i;

/**
 * Whether a text is written in Czech: two of its words at least are Czech alone (a function word,
 * or a word in lower case with a letter only Czech writes: a name "Dvořák" says nothing), and more
 * of them than the other languages' own; or, with none of the others' words and no letter of
 * theirs, a verb only Czech has ("Zaplať nájem"). Its first 4,000 characters. Czech is tried before
 * Polish (languages.ts): Polish "nie", "się", "czy" and its letters count against it.
 */
export function readsAsCzech(raw: string): boolean {
  const text = raw.slice(0, 4000).normalize('NFC');
  let own = 0;
  let shared = 0;
  let others = 0;
  for (const token of text.match(/\p{L}+/gu) ?? []) {
    const w = token.toLowerCase();
    if (CZECH_OWN.has(w) || (CZECH_LETTER.test(w) && token[0] === w[0])) own++;
    else if (CZECH_SHARED.has(w)) shared++;
    else if (OTHER_OWN.has(w)) others++;
  }
  if (own >= 2 && own > others && own + shared > others) return true;
  if (others > 0 || FOREIGN_LETTER.test(text)) return false;
  return czechWords(text).some((w) => czechOnlyVerb(w) || (w.startsWith('ne') && czechOnlyVerb(w.slice(2))));
}

/** A Czech verb form no other language read here, nor English, writes ("posli", "zaplatit", "posles", "udelej"); a person's or a past form may be another's word. */
function czechOnlyVerb(w: string): boolean {
  const kind = FORMS.get(w)?.kind ?? LIGHT_FORMS.get(w)?.kind;
  return (
    kind !== undefined &&
    OWN_KINDS.has(kind) &&
    // "date" is "dáte" folded: a person's form counts from five letters.
    w.length >= (kind === 'imp' || kind === 'inf' ? 4 : 5) &&
    !ENGLISH_SPELLED.has(w) &&
    polishCategory(w) === undefined &&
    verbCategory(w) === undefined
  );
}
const OWN_KINDS = new Set<Kind>(['imp', 'impl', 'inf', 'you', 'youpl', 'first']);

/**
 * What a form is: the imperative ("pošli"), its plural and polite form ("pošlete"), the infinitive,
 * the third person ("pošle", "posílá"), the second persons ("pošleš", "posíláte"), "we"
 * ("pošleme"), the first person ("pošlu", for plans), a past form after "abys" or before "byste".
 */
type Kind = 'imp' | 'impl' | 'inf' | 'third' | 'you' | 'youpl' | 'we' | 'first' | 'past';

/**
 * Verbs (folded) by the action they name, each `imperative/infinitive/third/first`, both aspects
 * where business writes both. "Vrať", "předej" read or send, and pay with money after them;
 * "převeď" changes, and pays with money after it; "objednej" pays, and books an appointment.
 */
const VERBS: Record<Category, string> = {
  read:
    'zkontroluj/zkontrolovat/zkontroluje/zkontroluju kontroluj/kontrolovat/kontroluje/kontroluju najdi/najit/najde/najdu ' +
    'hledej/hledat/hleda/hledam vyhledej/vyhledat/vyhleda/vyhledam ukaz/ukazat/ukaze/ukazu zobraz/zobrazit/zobrazi/zobrazim ' +
    'precti/precist/precte/prectu stahni/stahnout/stahne/stahnu spocitej/spocitat/spocita/spocitam ' +
    'shrn/shrnout/shrne/shrnu projdi/projit/projde/projdu podivej/podivat/podiva/podivam otevri/otevrit/otevre/otevru ' +
    'porovnej/porovnat/porovna/porovnam over/overit/overi/overim zjisti/zjistit/zjisti/zjistim vypis/vypsat/vypise/vypisu ' +
    'vrat/vratit/vrati/vratim vracej/vracet/vraci/vracim',
  send:
    'posli/poslat/posle/poslu posilej/posilat/posila/posilam odesli/odeslat/odesle/odeslu odesilej/odesilat/odesila/odesilam ' +
    'preposli/preposlat/preposle/preposlu zasli/zaslat/zasle/zaslu zasilej/zasilat/zasila/zasilam napis/napsat/napise/napisu ' +
    'odpovez/odpovedet/odpovi/odpovim odpovidej/odpovidat/odpovida/odpovidam zavolej/zavolat/zavola/zavolam volej/volat/vola/volam ' +
    'informuj/informovat/informuje/informuju upozorni/upozornit/upozorni/upozornim oznam/oznamit/oznami/oznamim ' +
    'sdel/sdelit/sdeli/sdelim rekni/rict/rekne/reknu pripomen/pripomenout/pripomene/pripomenu ' +
    'pripominej/pripominat/pripomina/pripominam kontaktuj/kontaktovat/kontaktuje/kontaktuju urguj/urgovat/urguje/urguju ' +
    'zeptej/zeptat/zepta/zeptam ozvi/ozvat/ozve/ozvu predej/predat/preda/predam vyrid/vyridit/vyridi/vyridim ' +
    'mailni/mailnout/mailne/mailnu omluv/omluvit/omluvi/omluvim',
  share:
    'sdilej/sdilet/sdili/sdilim nasdilej/nasdilet/nasdili/nasdilim pozvi/pozvat/pozve/pozvu ' +
    'zpristupni/zpristupnit/zpristupni/zpristupnim povol/povolit/povoli/povolim',
  publish:
    'zverejni/zverejnit/zverejni/zverejnim zverejnuj/zverejnovat/zverejnuje/zverejnuju publikuj/publikovat/publikuje/publikuju ' +
    'vyves/vyvesit/vyvesi/vyvesim postni/postnout/postne/postnu okomentuj/okomentovat/okomentuje/okomentuju',
  pay:
    'zaplat/zaplatit/zaplati/zaplatim plat/platit/plati/platim uhrad/uhradit/uhradi/uhradim hrad/hradit/hradi/hradim ' +
    'kup/koupit/koupi/koupim kupuj/kupovat/kupuje/kupuju nakup/nakoupit/nakoupi/nakoupim objednej/objednat/objedna/objednam ' +
    'objednavej/objednavat/objednava/objednavam vyplat/vyplatit/vyplati/vyplatim vyplacej/vyplacet/vyplaci/vyplacim ' +
    'splat/splatit/splati/splatim proplat/proplatit/proplati/proplatim predplat/predplatit/predplati/predplatim ' +
    'dobij/dobit/dobije/dobiju vyfakturuj/vyfakturovat/vyfakturuje/vyfakturuju fakturuj/fakturovat/fakturuje/fakturuju ' +
    'refunduj/refundovat/refunduje/refunduju strhni/strhnout/strhne/strhnu',
  book:
    'zarezervuj/zarezervovat/zarezervuje/zarezervuju rezervuj/rezervovat/rezervuje/rezervuju naplanuj/naplanovat/naplanuje/naplanuju ' +
    'planuj/planovat/planuje/planuju domluv/domluvit/domluvi/domluvim sjednej/sjednat/sjedna/sjednam ' +
    'zamluv/zamluvit/zamluvi/zamluvim svolej/svolat/svola/svolam pronajmi/pronajmout/pronajme/pronajmu',
  change:
    'zmen/zmenit/zmeni/zmenim uprav/upravit/upravi/upravim upravuj/upravovat/upravuje/upravuju ' +
    'aktualizuj/aktualizovat/aktualizuje/aktualizuju pridej/pridat/prida/pridam pridavej/pridavat/pridava/pridavam ' +
    'vytvor/vytvorit/vytvori/vytvorim zaloz/zalozit/zalozi/zalozim uloz/ulozit/ulozi/ulozim ukladej/ukladat/uklada/ukladam ' +
    'oprav/opravit/opravi/opravim edituj/editovat/edituje/edituju presun/presunout/presune/presunu ' +
    'posun/posunout/posune/posunu preved/prevest/prevede/prevedu nastav/nastavit/nastavi/nastavim ' +
    'zapis/zapsat/zapise/zapisu zapisuj/zapisovat/zapisuje/zapisuju vypln/vyplnit/vyplni/vyplnim dopln/doplnit/doplni/doplnim ' +
    'potvrd/potvrdit/potvrdi/potvrdim schval/schvalit/schvali/schvalim zamitni/zamitnout/zamitne/zamitnu ' +
    'odmitni/odmitnout/odmitne/odmitnu podepis/podepsat/podepise/podepisu vystav/vystavit/vystavi/vystavim ' +
    'vygeneruj/vygenerovat/vygeneruje/vygeneruju oznac/oznacit/oznaci/oznacim prirad/priradit/priradi/priradim ' +
    'zablokuj/zablokovat/zablokuje/zablokuju odblokuj/odblokovat/odblokuje/odblokuju aktivuj/aktivovat/aktivuje/aktivuju ' +
    'zapni/zapnout/zapne/zapnu zavri/zavrit/zavre/zavru uzavri/uzavrit/uzavre/uzavru prodluz/prodlouzit/prodlouzi/prodlouzim ' +
    'obnov/obnovit/obnovi/obnovim nahrad/nahradit/nahradi/nahradim zkopiruj/zkopirovat/zkopiruje/zkopiruju ' +
    'zaregistruj/zaregistrovat/zaregistruje/zaregistruju zaznamenej/zaznamenat/zaznamena/zaznamenam ' +
    'poznamenej/poznamenat/poznamena/poznamenam importuj/importovat/importuje/importuju prejmenuj/prejmenovat/prejmenuje/prejmenuju ' +
    'prepis/prepsat/prepise/prepisu nahraj/nahrat/nahraje/nahraju zarad/zaradit/zaradi/zaradim prijmi/prijmout/prijme/prijmu ' +
    'odsouhlas/odsouhlasit/odsouhlasi/odsouhlasim zauctuj/zauctovat/zauctuje/zauctuju ' +
    'pripis/pripsat/pripise/pripisu rozdel/rozdelit/rozdeli/rozdelim zatahni/zatahnout/zatahne/zatahnu',
  delete:
    'smaz/smazat/smaze/smazu maz/mazat/maze/mazu vymaz/vymazat/vymaze/vymazu odstran/odstranit/odstrani/odstranim ' +
    'zrus/zrusit/zrusi/zrusim rus/rusit/rusi/rusim stornuj/stornovat/stornuje/stornuju vyrad/vyradit/vyradi/vyradim ' +
    'vypni/vypnout/vypne/vypnu deaktivuj/deaktivovat/deaktivuje/deaktivuju archivuj/archivovat/archivuje/archivuju ' +
    'odhlas/odhlasit/odhlasi/odhlasim vypovez/vypovedet/vypovi/vypovim zahod/zahodit/zahodi/zahodim ' +
    'vyskrtni/vyskrtnout/vyskrtne/vyskrtnu vyprazdni/vyprazdnit/vyprazdni/vyprazdnim odvolej/odvolat/odvola/odvolam ' +
    'vycisti/vycistit/vycisti/vycistim',
  exec:
    'spust/spustit/spusti/spustim spoustej/spoustet/spousti/spoustim nainstaluj/nainstalovat/nainstaluje/nainstaluju ' +
    'instaluj/instalovat/instaluje/instaluju nasad/nasadit/nasadi/nasadim zkompiluj/zkompilovat/zkompiluje/zkompiluju',
};

interface Form {
  category: Category;
  /** The verb's infinitive ("poslat" for "pošli"). */
  verb: string;
  kind: Kind;
  /** An imperative folded as its third person is ("zveřejni", "zveřejní"): told apart by the "í" as written. */
  asThird?: true;
}

/**
 * Verbs that carry no action of their own, with the one they name alone: "udělej platbu" pays,
 * "proveď skript" runs, "dej mu přístup" shares, "dej vědět" tells, "dej to na web" publishes,
 * "zadej příkaz k úhradě" pays, "podej žádost" changes.
 */
const LIGHT: Record<string, { forms: string; alone?: Category }> = {
  udelat: { forms: 'udelej/udelat/udela/udelam' },
  provest: { forms: 'proved/provest/provede/provedu' },
  zadat: { forms: 'zadej/zadat/zada/zadam', alone: 'change' },
  dat: { forms: 'dej/dat/da/dam' },
  vlozit: { forms: 'vloz/vlozit/vlozi/vlozim', alone: 'change' },
  hodit: { forms: 'hod/hodit/hodi/hodim' },
  podat: { forms: 'podej/podat/poda/podam' },
  zaridit: { forms: 'zarid/zaridit/zaridi/zaridim' },
};

/** The forms a verb's four listed forms give: the plural imperative ("pošli" → "pošlete", "zruš" → "zrušte"), the persons of the third. */
function formsOf(entry: string): { forms: [string, Kind][]; first: string; inf: string } {
  const [imp, inf, third, first] = entry.split('/');
  const forms: [string, Kind][] = [
    [imp, 'imp'],
    [imp.endsWith('i') ? `${imp.slice(0, -1)}ete` : `${imp}te`, 'impl'],
    [inf, 'inf'],
    [third, 'third'],
    [`${third}s`, 'you'],
    [`${third}te`, 'youpl'],
    [`${third}me`, 'we'],
    [first, 'first'],
  ];
  // "zarezervuju" and "zarezervuji" are both written.
  if (first.endsWith('uju')) forms.push([`${first.slice(0, -1)}i`, 'first']);
  // Past forms: "poslal", "poslala", "poslali"; "vypnul" for "vypnout".
  const past = inf.endsWith('out') ? `${inf.slice(0, -3)}u` : inf.slice(0, -1);
  if (inf.endsWith('t')) for (const end of ['l', 'la', 'li']) forms.push([`${past}${end}`, 'past']);
  return { forms, first, inf };
}

/** The nouns of an action a verb names ("zaslání", "zaplacení", "uhrazení", "zrušení", "připomenutí"). */
function verbalNouns(inf: string): string[] {
  let noun: string | undefined;
  if (/[ae]t$/.test(inf)) noun = `${inf.slice(0, -1)}ni`;
  else if (inf.endsWith('out')) noun = `${inf.slice(0, -3)}uti`;
  else if (inf.endsWith('it')) {
    const stem = inf.slice(0, -2);
    noun = /st$/.test(stem)
      ? `${stem}eni`
      : stem.endsWith('t')
        ? `${stem.slice(0, -1)}ceni`
        : stem.endsWith('d')
          ? `${stem.slice(0, -1)}zeni`
          : `${stem}eni`;
  }
  return noun ? [noun, `${noun}m`] : [];
}

const FORMS = new Map<string, Form>();
/** First persons ("pošlu", "zaplatím", "posílám") to their infinitive, for offers and plans. */
const FIRST = new Map<string, string>();
/** Nouns of an action to its category ("zaslání", "zrušení"). */
const VERBAL = new Map<string, Category>();
const LIGHT_FORMS = new Map<string, { verb: string; kind: Kind }>();
for (const [category, entries] of Object.entries(VERBS) as [Category, string][])
  for (const entry of entries.split(' ')) {
    const { forms, first, inf } = formsOf(entry);
    const third = entry.split('/')[2];
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
// "Žádám o …" (I ask for …) is "zadám" (I will enter) folded.
FIRST.delete('zadam');
LIGHT_FORMS.delete('zadam');

/** Forms written as nouns, told apart where written with diacritics ("plat" is a salary, "výpis" a statement, "změn" of changes). */
const NOUNS_AS_WRITTEN = wordSet('plat úhrad zápis výpis přesun změn výplat náhrad výstav');

/**
 * Nouns by stem; a noun is one of them with a case ending ("faktura", "fakturu", "faktuře" folded
 * "fakture"; "převod", "převodu", "převodem"). A stem that changes ("účet", "účtu"; "částka",
 * "částce", "částek") is listed in each spelling.
 */
const ENDINGS = wordSet(' a u e y i o ou em ech ami um ach im ich ym ymi emi ovi ove eho emu');
const NOUN_STEMS: Partial<Record<ObjectKind, string>> = {
  money:
    'penize penez peniz castk castc castek faktur platb plateb prevod ucet uct uhrad zaloh zaloz najem najm najemn poplatek ' +
    'poplatk kauc mzd mezd vyplat splatk splatek splatc pokut dluh korun kc czk eur euro dolar cen predplatn refundac ' +
    'proviz odmen honorar iban dobropis doplatek doplatk preplatek preplatk dph pojistn vratk vraceni',
  message:
    'zprav email mail sms smsk esemesk esemesc dopis upomink upominek upominc pripomink pripominek pripominc oznameni ' +
    'odpoved notifikac newsletter vzkaz pozvank pozvanek pozvanc potvrzeni',
  access: 'pristup opravneni prav rol admin administrator spravc',
  booking:
    'termin navstev schuzk schuzek schuzc rezervac pokoj stul stol letenk letenek letenc jizdenk jizdenek jizdenc vstupenk ' +
    'vstupenek vstupenc sal konzultac vysetreni prohlidk prohlidek prohlidc ubytovani porad',
  publication: 'prispevek prispevk inzerat clanek clank recenz komentar post blog hodnoceni',
  credential: 'hesl pin token login kod',
};
const NOUNS = new DeclinedNouns(NOUN_STEMS, ENDINGS, 3);
const stemsOf = (w: string) => NOUNS.stemsOf(w);

/** Nouns that say what an action acts on, by the lexicon's object kinds, in any case. */
export function czechObjects(ws: readonly string[]): Set<ObjectKind> {
  return NOUNS.objects(ws);
}

/** Nouns of an action, by stem, for a light verb or "prosím o …". */
const ACTION_STEMS: Record<string, Category> = {
  platb: 'pay',
  plateb: 'pay',
  prevod: 'pay',
  uhrad: 'pay',
  objednavk: 'pay',
  objednavek: 'pay',
  nakup: 'pay',
  rezervac: 'book',
  termin: 'book',
  schuzk: 'book',
  zmen: 'change',
  oprav: 'change',
  zadost: 'change',
  prihlask: 'change',
  priznani: 'change',
  // "Dej tam interní poznámku", "zadej úkol": a note or a task is written down.
  poznamk: 'change',
  poznamek: 'change',
  ukol: 'change',
  pripominka: 'change',
  storn: 'delete',
  vedet: 'send',
  telefon: 'send',
  zprav: 'send',
  vzkaz: 'send',
  pristup: 'share',
  opravneni: 'share',
  skript: 'exec',
  prikaz: 'exec',
  inzerat: 'publish',
  prispevek: 'publish',
};
/** Where something put up is read by others: "na web", "na stránky", "na Facebook", "na nástěnku". */
const VENUES = wordSet(
  'web webu stranky strankach stranku facebook facebooku instagram instagramu linkedin linkedinu nastenku nastence intranet intranetu blog blogu',
);

/** The category of a noun of an action, by its stem or as a verb's own noun ("zaslání"); "příkaz k úhradě" pays. */
function actionNoun(w: string, after: readonly string[] = []): Category | undefined {
  const verbal = VERBAL.get(w);
  if (verbal) return verbal;
  if (/^vraceni/.test(w)) return czechObjects(after.slice(0, 3)).has('money') ? 'pay' : undefined;
  for (const s of stemsOf(w)) {
    const c = ACTION_STEMS[s];
    if (c === 'exec' && s === 'prikaz' && after.slice(0, 2).some((x) => /^(?:uhrad|plat)/.test(x))) return 'pay';
    if (c) return c;
  }
  return undefined;
}

/** A light verb's action: its venue ("dej to na web"), the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if (/^(?:dat|vlozit|hodit)$/.test(verb) && after.some((w) => VENUES.has(w))) return 'publish';
  // "Hoď to tam", "hoď ho tam": put into the system, a change.
  if (verb === 'hodit' && (after[0] === 'tam' || after[1] === 'tam')) return 'change';
  for (let k = 0; k < after.length; k++) {
    const c = actionNoun(after[k], after.slice(k + 1));
    if (c) return c;
  }
  return LIGHT[verb].alone;
}

/** Pronouns, forms of address and small words that stand between a verb and what leads into it ("můžete mu prosím poslat"). */
const PRONOUNS = wordSet(
  'mu ji jim ho je mi mne nam nas ti te tobe vam vas to tu se si pane pani panu prosim prosime laskave jeste hned uz take taky dnes zitra',
);
/** A reply to the user is no message: "pošli mi", "dej mi vědět", "napište nám". */
const TO_USER = wordSet('mi mne nam nas');
/** Words after which a verb is a verb: a conjunction, an adverb, a polite word. */
const VERB_CONTEXT = wordSet(
  'a i pak potom nejdriv nejprve ted take taky tez jeste prosim prosime laskave dekuji diky ok dobre tak tedy uz hned rychle zitra dnes ' +
    'urgentne nalehave okamzite ihned obratem pote nasledne zaroven hlavne radsi rovnou ale nebo to',
);
/** Imperatives that are nouns as often: "plat" (a salary), "zapis", "vypis", "oprav", "zmen", "uhrad" (of payments). */
const HOMOGRAPHS = wordSet('plat uhrad zapis vypis oprav zmen presun vyplat nahrad vystav obnov hod');
/** Words before an infinitive that ask the reader for it: "prosím poslat", "můžete zaplatit", "chci zrušit", "nezapomeň poslat". */
const MODAL = wordSet(
  'prosim prosime muzes muzete mohl mohla mohli mohlo bys byste bych bychom chci chceme potrebuji potrebuju potrebujeme musis musite ' +
    'treba potreba nutne nutno nezapomen nezapomente zkus zkuste dobre nejlepe laskave',
);
/** Modals that say what is needed, not who is asked: in a question they ask advice ("Je třeba zaplatit?"). */
const IMPERSONAL = wordSet('treba potreba nutne nutno');
/** Words after which a past form asks: "abys poslal", "abyste zaplatila". */
const WISH = wordSet('abys abyste');
/** Words a negation does not reach past: "nezapomeň poslat" asks. */
const NEGATION_STOPS = wordSet('a i pak potom ale nebo');
/** Negations that stand apart from the verb they negate: "ne", "nikdy", "nemusíte platit", "nechci rušit", "není třeba platit". */
const NEGATORS = wordSet(
  'ne nikdy ani nemusis nemusite nemusi nemusime nechci nechceme nepotrebuji nepotrebuju nepotrebujeme neni nebude nesmis nesmite nesmi nemej nemejte',
);
const QUESTION_WORDS = wordSet(
  'co kdo kdy kde jak proc kolik ktery ktera ktere kterou kteri jaky jaka jake jakou koho komu ceho kam odkud zda zdali jestli cim',
);
/** Words that open a condition or a reported clause: "pokud je třeba zaplatit", "jestli zaplatila". */
const CONDITION = wordSet('jestli jestlize pokud kdyz kdyby kdybys kdybyste li zda zdali');

/** How far back a verb's context is looked for: a clause of thousands of words is read once, not once per word. */
const WINDOW = 12;

const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "vrať", "předej", "převeď", "objednej" by their objects. */
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
  // "zveřejní" is the third person of what "zveřejni" orders.
  if (f.asThird && cw[i].raw.endsWith('í')) return { ...f, kind: 'third' };
  const money = czechObjects(after).has('money');
  if (/^(?:vratit|vracet|predat|prevest)$/.test(f.verb) && money) return { ...f, category: 'pay' };
  // "ať se to zatáhne z karty": taken from a card, a payment.
  if (/^zatahnout$/.test(f.verb) && after.slice(0, 4).some((x) => /^(?:kart|uct)/.test(x))) return { ...f, category: 'pay' };
  // "Objednej mě k zubaři", "objednat se na vyšetření": an appointment.
  if (
    /^objedn/.test(f.verb) &&
    (after[0] === 'se' || czechObjects(after).has('booking') || after.some((x) => /^(?:lekar|zubar|doktor|kontrol|ordinac)/.test(x)))
  )
    return { ...f, category: 'book' };
  if (f.verb === 'nahrat' && after.some((x) => VENUES.has(x))) return { ...f, category: 'publish' };
  return f;
}

/**
 * Whether the verb at `i` stands as one the reader is asked to carry out. An imperative does
 * anywhere in its clause ("Fakturu pošli Petrovi"), but for the few that are nouns as often ("plat",
 * "zápis"), which stand first or after a word that leads into a verb. An infinitive asks first in
 * its part ("Odeslat fakturu klientovi."), after a modal ("prosím poslat", "můžete zaplatit", "mohl
 * byste zrušit", "chci zrušit"); a third person after "ať" opening the clause; a second person in a
 * question ("Pošleš mu fakturu?"); a past form after "abys" or before "bys", "byste" ("Poslal byste
 * mu fakturu?"). "We", the first person and a third person alone state.
 */
/**
 * A third person after "ať" that opens its clause or follows "a" ("a ať se to rovnou zatáhne z
 * karty"), pronouns and an adverb of manner between: a wish that it be done, an order.
 */
function jussive(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  let j = i - 1;
  while (j >= 0 && i - j <= 5 && !parts.has(j + 1) && (PRONOUNS.has(ws[j]) || JUSSIVE_ADVERBS.has(ws[j]))) j--;
  if (j < 0 || ws[j] !== 'at') return false;
  return j === 0 || parts.has(j) || ws[j - 1] === 'a' || ws[j - 1] === 'i';
}
const JUSSIVE_ADVERBS = wordSet('rovnou hned taky take klidne pak radsi prosim');

function stands(cw: readonly Word[], i: number, v: Form, parts: ReadonlySet<number>, question: boolean): boolean {
  const ws = cw.map((x) => x.w);
  if (v.kind === 'we' || v.kind === 'first') return false;
  let j = i - 1;
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && PRONOUNS.has(ws[j])) j--;
  const before = j < 0 || parts.has(j + 1) ? undefined : ws[j];
  if (v.kind === 'third') return jussive(ws, i, parts);
  if (v.kind === 'past') return (before !== undefined && WISH.has(before)) || ws[i + 1] === 'bys' || ws[i + 1] === 'byste';
  if (v.kind === 'you' || v.kind === 'youpl') return question && (before === undefined || before === 'a' || before === 'tak');
  if (before === undefined) return true;
  if (v.kind !== 'inf') return VERB_CONTEXT.has(before) || !HOMOGRAPHS.has(ws[i]);
  if (MODAL.has(before)) return !(question && IMPERSONAL.has(before));
  return VERB_CONTEXT.has(before) && before !== 'to';
}

/** A negation before the verb in its part: "ne, neplať", "nikdy nemaž", "nemusíte platit"; "nezapomeň zaplatit" asks. */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= 4 && !parts.has(j + 1); j--) {
    if (NEGATION_STOPS.has(ws[j])) return false;
    if (NEGATORS.has(ws[j])) return true;
  }
  return false;
}

/**
 * A verb inside a clause that asks whether, what or who ("zkontroluj, jestli je třeba zaplatit",
 * "zjisti, kolik máme zaplatit"), a condition ("pokud je třeba zaplatit, …": its main clause after
 * the comma asks) or a reported one ("řekni jí, že má zaplatit").
 */
function subordinate(cw: readonly Word[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= WINDOW && !parts.has(j + 1); j--) {
    const w = cw[j].w;
    if (w === 'a' || w === 'pak' || w === 'potom' || w === 'ale' || w === 'tak') return false;
    if (CONDITION.has(w)) return true;
    if ((QUESTION_WORDS.has(w) || cw[j].raw === 'že') && j > 0) return true;
  }
  return false;
}

/** A message to the user: "pošli mi", "můžete mi poslat", "napiš nám", "dej mi vědět". */
function toUser(ws: readonly string[], i: number): boolean {
  const k = ws[i + 1] === 'to' || ws[i + 1] === 'prosim' ? i + 2 : i + 1;
  if (TO_USER.has(ws[k] ?? '') || (ws[k] === 'na' && /^(?:muj|moj|nas)/.test(ws[k + 1] ?? ''))) return true;
  for (let j = i - 1; j >= 0 && i - j <= 3 && PRONOUNS.has(ws[j]); j--) if (TO_USER.has(ws[j])) return true;
  return false;
}

/** Words that ask for the action a noun names: "prosím o zaslání", "žádám o zrušení". */
const REQUEST_FOR = wordSet('prosim prosime poprosim zadam zadame');

/**
 * The actions a Czech request asks for, clause by clause. A question that opens with a question
 * word asks about things ("Kolik zbývá zaplatit?"), where "Můžete poslat …?" asks for the action.
 * "Prosím o zaslání …" asks for the action its noun names.
 */
export function czechActions(prose: string): LanguageAction[] {
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
      const asked = (category: Category) => out.push({ category, after: ws.slice(i + 1, i + 13), words: ws.slice(i, i + 4).join(' ') });
      if (REQUEST_FOR.has(ws[i]) && ws[i + 1] === 'o' && !negated(ws, i, parts)) {
        const c = ws[i + 2] === undefined ? undefined : actionNoun(ws[i + 2], ws.slice(i + 3, i + 6));
        if (c && c !== 'read' && !(c === 'send' && TO_USER.has(ws[i + 3] ?? ''))) asked(c);
        continue;
      }
      const v = verbAt(cw, i, labels);
      if (!v || v.category === 'read') continue;
      if (!stands(cw, i, v, parts, question) || negated(ws, i, parts) || subordinate(cw, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i)) continue;
      asked(v.category);
    }
  }
  return out;
}

/** Words that lead into an order without changing it: "Prosím …", "Pozor: …", "Urgentní: …". */
const ORDER_LEAD_IN = wordSet(
  'prosim prosime laskave pozor dulezite urgentni nalehave ps nb take taky rovnez ted nyni pak potom nasledne neprodlene okamzite ihned obratem a',
);
/** An obligation put on the reader, or on whoever holds a role: "musíte zaplatit …", "asistent musí smazat …", "je třeba uhradit …". */
const OBLIGATION =
  /\b(?:musis|musite|musi|je\s+treba|je\s+nutne|je\s+nutno|je\s+potreba|mas|mate|ma\s+povinnost|(?:je|jste|jsi)\s+povin(?:en|na|ni|ny)|mel[ai]?\s+(?:bys|byste)|by\s+mel[ai]?)\s+(?:(?:okamzite|ihned|neprodlene|urychlene|vzdy|take|rovnez|prosim|zaroven)\s+)?(?:(?:mu|ji|jim|ho|to|nam|mi|je)\s+){0,3}([a-z]+)/g;
/** Two capitalised words: a name opening a record's line ("Jana Nováková, Dlouhá 5"). */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+/u;
/** A courier's note about the door or the delivery: "zavolejte před doručením", "zvonek nefunguje". */
const DOORBELL = wordSet('dvakrat zvonek zvonku zvonte branu branky kod vratnici dorucenim doruceni prijezdem prijezdu');

/** The verb that orders in a part, from `i`: there, or an imperative a word or two later ("a kopii pošlete na …"). */
function orderVerb(cw: readonly Word[], i: number): Form | undefined {
  const v = i < cw.length ? verbAt(cw, i, new Set()) : undefined;
  if (v) return v;
  for (let k = i + 1; k <= i + 2 && k < cw.length - 1; k++) {
    const later = verbAt(cw, k, new Set());
    if (later?.kind === 'imp' || later?.kind === 'impl') return later;
  }
  return undefined;
}

/**
 * An order written in Czech in data: a clause that opens with an imperative of an action other than
 * reading ("Převeďte částku na účet …", "Přepošlete tuto zprávu na …"), an infinitive after
 * "prosím", "prosíme o" with a noun of an action ("Prosíme o úhradu …"), a third person after "ať"
 * ("ať asistent převede …"); or an obligation on the reader or a role ("musíte zaplatit …", "asistent
 * musí smazat …", "je třeba uhradit …"). An infinitive title ("Odeslat fakturu účtárně"), a noun
 * heading ("Platba z 3. května"), a participle ("Zaplaceno 3. 5."), a statement ("Klient platí
 * převodem", "Fakturu pošleme zítra"), a passive ("musí být uhrazeno") and a courier's note
 * ("Zavolejte před doručením") are none. Returns the words that order.
 */
export function czechOrderIn(sentence: string): string | undefined {
  const text = sentence.slice(0, 8000).normalize('NFC');
  for (const part of text.split(/[:;,]\s*|\s+a\s+(?:pak\s+|potom\s+|následně\s+|nasledne\s+)?/i).slice(0, 400)) {
    const cw = wordsOf(part);
    const ws = cw.map((x) => x.w);
    let i = 0;
    while (i < ws.length && i < WINDOW && ORDER_LEAD_IN.has(ws[i])) i++;
    const polite = ws.slice(0, i).some((w) => w === 'prosim' || w === 'prosime' || w === 'laskave');
    if (polite && ws[i] === 'o') {
      const c = ws[i + 1] === undefined ? undefined : actionNoun(ws[i + 1], ws.slice(i + 2, i + 5));
      if (c && c !== 'read') return ws.slice(i - 1, i + 4).join(' ');
      continue;
    }
    let at = false;
    if (ws[i] === 'at' && cw[i].raw === 'ať') {
      at = true;
      i++;
      // "ať pan Novák", "ať asistent": the one asked, before the verb.
      const from = i;
      while (i < ws.length && i - from < 3 && !FORMS.has(ws[i]) && !LIGHT_FORMS.has(ws[i])) i++;
    }
    while (i < ws.length && i < WINDOW && PRONOUNS.has(ws[i])) i++;
    const opens = i === 0 && !FORMS.has(ws[0] ?? '') && !LIGHT_FORMS.has(ws[0] ?? '');
    if (opens && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    const v = orderVerb(cw, i);
    if (!v || v.category === 'read' || ws.length - i < 2) continue;
    const ordered = at ? v.kind === 'third' : v.kind === 'inf' ? polite : v.kind === 'imp' || v.kind === 'impl';
    if (!ordered) continue;
    if (/volat$/.test(v.verb) && ws.slice(i + 1, i + 6).some((w) => DOORBELL.has(w))) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  return obligationIn(fold(text));
}

/** An obligation in a folded text: "musíte uhradit", "asistent musí smazat"; not "nemusíte", "jestli musíte", "musí být". */
function obligationIn(folded: string): string | undefined {
  let tried = 0;
  // "Petr má psa. Musíte zaplatit …": each "má", "musí" is tried, a bounded number of them.
  for (const m of folded.matchAll(OBLIGATION)) {
    if (++tried > 50) break;
    // "Je třeba zaplatit …?": an obligation asked about orders nothing.
    if (/^[^.!?]*\?/.test(folded.slice(m.index, m.index + 400))) continue;
    if (
      /(?:^|[^a-z])(?:ne|jestli|zda|pokud|kdyz|ze|li|kolik|co|kdy|jak|proc|kde)\s+$/.test(folded.slice(Math.max(0, m.index - 12), m.index))
    )
      continue;
    const f = FORMS.get(m[1]);
    const light = LIGHT_FORMS.get(m[1]);
    const category = f?.kind === 'inf' ? f.category : light?.kind === 'inf' ? LIGHT[light.verb].alone : undefined;
    if (category && category !== 'read') return m[0].split(/\s+/).slice(0, 6).join(' ');
  }
  return undefined;
}

/** A question that asks leave to go on: "Mám pokračovat?", "Pokračovat?", "Souhlasíte?", "Je to v pořádku?", "OK?". */
const ASKS_TO_GO_ON =
  /^(?:(?:a|tak)\s+)?(?:(?:(?:mam|mame|muzu|mohu|muzeme|smim)\s+)?(?:pokracovat|zacit|to\s+udelat|udelat\s+to|to\s+provest|provest\s+to|to\s+tak\s+udelat|jet\s+dal)|pokracuju|pokracuji|(?:je\s+)?(?:to\s+)?(?:tak\s+)?(?:v\s+poradku|ok|okay|oki|dobre|spravne)|souhlasis|souhlasite|plati|potvrzujes|potvrzujete|muze\s+to\s+tak\s+byt|hodi\s+se|(?:chces|chcete|prejete\s+si|prejes\s+si),?\s+(?:abych|abychom)\s+(?:pokracoval[ai]?|to\s+udelal[ai]?|to\s+provedl[ai]?|zacal[ai]?))(?:\s+(?:ted|tedy|dal|takto|tak))?\s*\?*$/;
/** A question that offers an action: "Mám poslat …?", "Můžu zaplatit …?", "Chcete, abych poslal …?". */
const OFFER_LEAD =
  /^(?:(?:a|tak|dobre|ok)\s+)?(?:(?:mam|mame|muzu|mohu|muzeme|mel\s+bych|mela\s+bych)\s+|(?:chces|chcete|prejete\s+si|prejes\s+si|chtel[ai]?\s+(?:byste|bys)),?\s+(?:abych|abychom)\s+)/;

/** A word without what is not a letter or a digit, folded. */
const bare = (word: string) => fold(word).replace(/[^a-z0-9]/g, '');

/** The tables proposals and plans are read with (proposals.ts). */
const TABLES: ProposalTables<Kind> = { forms: FORMS, first: FIRST, light: LIGHT_FORMS, lightCategory, pronouns: PRONOUNS, bare };

/**
 * What the assistant offers to do in a Czech question, written as the user would ask for it: "Mám
 * poslat fakturu?" gives "poslat fakturu"; "Chcete, abych poslal fakturu?" "poslat fakturu"; "Pošlu
 * mu fakturu?" and "Zaplatit 200 Kč?" "poslat mu fakturu", "Zaplatit 200 Kč"; a question that asks
 * leave to go on ("Mám pokračovat?", "Souhlasíte?") gives 'go-on'. Undefined for any other question,
 * and for one of another language: it holds a Czech verb of an action.
 */
export function czechOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().normalize('NFC');
  if (!q.endsWith('?') || q.length > 2000 || FOREIGN_LETTER.test(q)) return undefined;
  const folded = fold(q);
  if (ASKS_TO_GO_ON.test(folded)) return 'go-on';
  // Folding keeps a composed text's length (one letter for one), so the lead's length is the question's.
  const lead = OFFER_LEAD.exec(folded);
  const words = q
    .slice(lead ? lead[0].length : 0)
    .replace(/\s*\?+$/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return lead ? 'go-on' : undefined;
  return proposedIn(TABLES, words, new Set<Kind>(lead ? ['inf', 'past'] : ['inf', 'first']));
}

/** A plan in the first person: "Můžu poslat …", "Hned pošlu …", "Zkusím zrušit …", "Budu posílat …". */
const PLAN_LEAD =
  /^(?:(?:ja|ted|hned|nejdriv|pak|potom|rovnou|dnes)\s+)?(?:muzu|mohu|muzeme|zkusim|planuju|planuji|chystam\s+se|hodlam|navrhuju|navrhuji|budu|ted|hned|nejdriv|pak|potom|rovnou|jeste\s+dnes|dnes)\s+/;

/** What the assistant says it will or can do: "Můžu poslat fakturu", "Pošlu fakturu zítra" (as "poslat fakturu zítra"). */
export function czechPlan(sentence: string): string | undefined {
  const s = sentence
    .trim()
    .normalize('NFC')
    .replace(/[.!:]+$/, '');
  if (s.length > 2000 || s.endsWith('?') || FOREIGN_LETTER.test(s)) return undefined;
  const lead = PLAN_LEAD.exec(fold(s));
  const words = s
    .slice(lead ? lead[0].length : 0)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return proposedIn(TABLES, words, new Set<Kind>(lead ? ['inf', 'first'] : ['first']));
}

/** Forms tools use in their names and descriptions: the imperative, the infinitive, the third person. */
const TOOL_KINDS = new Set<Kind>(['imp', 'inf', 'third']);
/** Forms English writes too ("over", "maze"): in a tool's name they say nothing of Czech. */
const ENGLISH_SPELLED = wordSet('over maze plat pis vola hod');

/** The category of a word as a Czech verb (for a tool's name and description): "posli", "odeslat", "odesle", "zrusi", "vraci". */
export function czechCategory(word: string): Category | undefined {
  // A light verb names no action of its own in a tool's name (`proved_platbu` pays, `proved_skript`
  // runs): its arguments say which sink (a payee and an amount, a command).
  const w = fold(word);
  const f = ENGLISH_SPELLED.has(w) ? undefined : FORMS.get(w);
  return f && TOOL_KINDS.has(f.kind) ? f.category : undefined;
}

/** Where a tool's name holds a Czech verb (`odesli_fakturu`, `zrusRezervaci`, `faktury_vypis`), or -1: such a name is Czech. */
export function czechInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => czechCategory(w) !== undefined);
}
