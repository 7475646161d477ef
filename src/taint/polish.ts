/**
 * Requests and tools written in Polish (docs/taint-policy.md, "Requests in Polish"). The English
 * parse (intent.ts) finds no verb in "Wyślij mu fakturę" or "Proszę przelać czynsz za marzec", and
 * so asks for nothing: every call of a Polish-speaking team would be blocked as unasked. This reads
 * Polish as italian.ts reads Italian: a verb is told by its forms (each verb is listed with its
 * imperative, infinitive, third person and first person, in both aspects: "wyślij", "wysłać",
 * "wysyła"; the plural imperative, "let us", the second persons and "we" follow from those); by
 * where it stands (the clause's first word, or after "i", "potem", "proszę", "możesz", "czy
 * mógłbyś", "trzeba", "niech Pan", a pronoun); and not when negated ("nie wysyłaj"), in a question
 * that asks about something ("Kto nie zapłacił?"), after "czy" or "jeśli" inside a clause
 * ("sprawdź, czy trzeba zapłacić"), or as a participle ("opłacona faktura": no participle is a
 * listed form). Nouns decline through seven cases: they are matched by stem and ending
 * ("przelew", "przelewu", "przelewem"). Words are compared folded, as names are often written
 * without diacritics ("wyslij", "zaplac").
 */
import { clauseParts, wordSet, type Category, type ObjectKind } from './lexicon.js';
import { lightFormIn, type ProposalTables } from './proposals.js';
import { DeclinedNouns } from './declined-nouns.js';
import type { LanguageAction } from './languages.js';
import { fold } from './spanish.js';

/** A word as written (lower case, diacritics kept) and folded: "Zapłać" is "zapłać" and "zaplac". */
interface Word {
  raw: string;
  w: string;
}

const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dolar', '£': 'funt' };

/** A word folded: "ł", which Unicode does not decompose, as "l"; the other diacritics dropped. */
export function polishFold(word: string): string {
  return fold(word.toLowerCase().replace(/ł/g, 'l'));
}

function wordsOf(text: string): Word[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+|[€$£]/gu) ?? [])
    .map((raw) => ({ raw, w: CURRENCY[raw] ?? polishFold(raw).replace(/[^a-z0-9]/g, '') }))
    .filter((x) => x.w !== '');
}

/** The folded words of a text. */
export function polishWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

/** Function words only Polish writes here, as written and as written without diacritics. */
const POLISH_OWN = wordSet(
  'nie się jest są że czy proszę prosze prosimy dla oraz także takze też tez już juz tylko jeszcze bardzo przez przed przy bez ' +
    'od za w z lub albo ale jak jako gdy kiedy gdzie kto ile dlaczego jeśli jesli jeżeli jezeli żeby zeby aby niech ' +
    'jej jego mu mnie nam wam nas was ty ona oni one pani państwo panstwo dziękuję dziekuje dzięki dzieki cześć czesc dzień ' +
    'dobry jutro dzisiaj dziś dzis teraz potem następnie nastepnie wszystkie wszystko wszystkich który która które którą ' +
    'ktory ktora ktore mój moja moje mojego mojej mojemu twój twoja twoje swój swoją swoje swoja może moze możesz mozesz ' +
    'możecie mozecie był była było będzie bedzie trzeba należy nalezy ani nic nigdy więc wiec tego tej tym tę tą mam masz ' +
    'ma są sa tak musi musisz musicie powinien powinna',
);
/** Function words Polish shares with the others ("do", "na", "to", "i", "a", "o") or that name a person ("Pan"). */
const POLISH_SHARED = wordSet('i a o do na to po co go je im ich ja my on u ze sie mi ci te ten ta no pan');
/** Function words of English, Spanish, Portuguese, French, Italian, German and Dutch that Polish does not write. */
const OTHER_OWN = wordSet(
  'the of and in is for with that this it an be are at by from please you your our we was were have has will would can could should ' +
    'el los las y por para es está muy pero este esta sus más ya hay usted gracias también la que de en un una con del al se su lo le les ' +
    'os um não nao com em da é são ao aos pelo pela você seu isso já les des du et est une pour dans sur au aux ce cette vous nous avec ' +
    'pas qui votre merci leur der die das und ist nicht ein eine mit für von zu auf bitte wir den dem il di della che per gli sono ' +
    'questo questa anche grazie ho hai è non een het niet naar graag jij uw voor op met dat',
);
/** Letters only Polish writes of the languages read here ("ó" is Spanish too). */
const POLISH_LETTER = /[ąęłśćńźż]/;
/** Accents the other languages write and Polish does not. */
const FOREIGN_ACCENT = /[ñáíúãõâêôûçœàèìùéëäöüß¿¡]/i;

/**
 * Whether a text is written in Polish: two of its words at least are Polish alone (a function word,
 * or a word in lower case with a letter only Polish writes: a name "Łukasz" says nothing), and more
 * of them than the other languages' own; or, with none of the others' words and no accent of theirs,
 * a verb or a noun only Polish has ("Zapłać fakturę Marka"). Its first 4,000 characters. Polish is
 * tried first (languages.ts), so a text of another language must never read as Polish: German "nie"
 * and "im", Portuguese "do" and "na", English "to" count for nothing alone.
 */
export function readsAsPolish(raw: string): boolean {
  const text = raw.slice(0, 4000);
  let own = 0;
  let shared = 0;
  let others = 0;
  for (const token of text.match(/\p{L}+/gu) ?? []) {
    const w = token.toLowerCase();
    if (POLISH_OWN.has(w) || (POLISH_LETTER.test(w) && token[0] === w[0])) own++;
    else if (POLISH_SHARED.has(w)) shared++;
    else if (OTHER_OWN.has(w)) others++;
  }
  if (own >= 2 && own > others && own + shared > others) return true;
  if (others > 0 || FOREIGN_ACCENT.test(text)) return false;
  return polishWords(text).some((w) => polishOnly(w));
}

/** A verb or a noun of Polish, no currency (an amount in "zł" in English prose is no Polish). */
function polishOnly(w: string): boolean {
  return FORMS.has(w) || LIGHT_FORMS.has(w) || (!/^(?:zl|pln|eur|euro)$/.test(w) && polishObjects([w]).size > 0);
}

/**
 * What a form is: the imperative ("wyślij"), its plural ("wyślijcie") and "let us" ("wyślijmy"),
 * the infinitive, the third person ("wyśle", "wysyła"), the second persons ("wyślesz",
 * "wyślecie"), "we" ("wyślemy"), a past form after "żebyś" ("żebyś wysłał").
 */
type Kind = 'imp' | 'impl' | 'impw' | 'inf' | 'third' | 'you' | 'youpl' | 'we' | 'past';

/**
 * Verbs (folded) by the action they name, each `imperative/infinitive/third/first`, both aspects.
 * "Zwróć" and "pobierz" read (a tool's "Zwraca listę", "pobierz plik") and pay with money after
 * them; "przekaż" and "przenieś" pay with money after them. Light verbs are in LIGHT.
 */
const VERBS: Record<Category, string> = {
  read:
    'sprawdz/sprawdzic/sprawdzi/sprawdze sprawdzaj/sprawdzac/sprawdza/sprawdzam znajdz/znalezc/znajdzie/znajde ' +
    'wyszukaj/wyszukac/wyszuka/wyszukam wyszukuj/wyszukiwac/wyszukuje/wyszukuje szukaj/szukac/szuka/szukam ' +
    'pokaz/pokazac/pokaze/pokaze wyswietl/wyswietlic/wyswietli/wyswietle wyswietlaj/wyswietlac/wyswietla/wyswietlam ' +
    'przeczytaj/przeczytac/przeczyta/przeczytam czytaj/czytac/czyta/czytam odczytaj/odczytac/odczyta/odczytam ' +
    'pobierz/pobrac/pobierze/pobiore pobieraj/pobierac/pobiera/pobieram zwroc/zwrocic/zwroci/zwroce ' +
    'zwracaj/zwracac/zwraca/zwracam policz/policzyc/policzy/policze oblicz/obliczyc/obliczy/oblicze ' +
    'podsumuj/podsumowac/podsumuje/podsumuje przejrzyj/przejrzec/przejrzy/przejrze zobacz/zobaczyc/zobaczy/zobacze ' +
    'otworz/otworzyc/otworzy/otworze porownaj/porownac/porowna/porownam zweryfikuj/zweryfikowac/zweryfikuje/zweryfikuje ' +
    'ustal/ustalic/ustali/ustale wylistuj/wylistowac/wylistuje/wylistuje listuj/listowac/listuje/listuje',
  send:
    'wyslij/wyslac/wysle/wysle wysylaj/wysylac/wysyla/wysylam przeslij/przeslac/przesle/przesle ' +
    'przesylaj/przesylac/przesyla/przesylam odeslij/odeslac/odesle/odesle napisz/napisac/napisze/napisze ' +
    'odpisz/odpisac/odpisze/odpisze odpowiedz/odpowiedziec/odpowie/odpowiem odpowiadaj/odpowiadac/odpowiada/odpowiadam przekaz/przekazac/przekaze/przekaze ' +
    'przekazuj/przekazywac/przekazuje/przekazuje powiadom/powiadomic/powiadomi/powiadomie ' +
    'powiadamiaj/powiadamiac/powiadamia/powiadamiam zawiadom/zawiadomic/zawiadomi/zawiadomie ' +
    'poinformuj/poinformowac/poinformuje/poinformuje informuj/informowac/informuje/informuje ' +
    'zadzwon/zadzwonic/zadzwoni/zadzwonie dzwon/dzwonic/dzwoni/dzwonie przypomnij/przypomniec/przypomni/przypomne ' +
    'przypominaj/przypominac/przypomina/przypominam skontaktuj/skontaktowac/skontaktuje/skontaktuje ' +
    'powiedz/powiedziec/powie/powiem zapytaj/zapytac/zapyta/zapytam ponagl/ponaglic/ponagli/ponagle ' +
    'zglos/zglosic/zglosi/zglosze przyslij/przyslac/przysle/przysle',
  share:
    'udostepnij/udostepnic/udostepni/udostepnie udostepniaj/udostepniac/udostepnia/udostepniam ' +
    'zapros/zaprosic/zaprosi/zaprosze upowaznij/upowaznic/upowazni/upowaznie',
  publish:
    'opublikuj/opublikowac/opublikuje/opublikuje publikuj/publikowac/publikuje/publikuje oglos/oglosic/oglosi/oglosze ' +
    'zamiesc/zamiescic/zamiesci/zamieszcze skomentuj/skomentowac/skomentuje/skomentuje wywies/wywiesic/wywiesi/wywiesze',
  pay:
    'zaplac/zaplacic/zaplaci/zaplace plac/placic/placi/place oplac/oplacic/oplaci/oplace oplacaj/oplacac/oplaca/oplacam ' +
    'przelej/przelac/przeleje/przeleje przelewaj/przelewac/przelewa/przelewam kup/kupic/kupi/kupie ' +
    'kupuj/kupowac/kupuje/kupuje zamow/zamowic/zamowi/zamowie zamawiaj/zamawiac/zamawia/zamawiam ' +
    'doladuj/doladowac/doladuje/doladuje ureguluj/uregulowac/ureguluje/ureguluje splac/splacic/splaci/splace ' +
    'wplac/wplacic/wplaci/wplace wyplac/wyplacic/wyplaci/wyplace obciaz/obciazyc/obciazy/obciaze ' +
    'nalicz/naliczyc/naliczy/nalicze ' +
    'zafakturuj/zafakturowac/zafakturuje/zafakturuje',
  book:
    'zarezerwuj/zarezerwowac/zarezerwuje/zarezerwuje rezerwuj/rezerwowac/rezerwuje/rezerwuje umow/umowic/umowi/umowie ' +
    'zaplanuj/zaplanowac/zaplanuje/zaplanuje planuj/planowac/planuje/planuje wynajmij/wynajac/wynajmie/wynajme ' +
    'zwolaj/zwolac/zwola/zwolam',
  change:
    'zmien/zmienic/zmieni/zmienie zmieniaj/zmieniac/zmienia/zmieniam zaktualizuj/zaktualizowac/zaktualizuje/zaktualizuje ' +
    'aktualizuj/aktualizowac/aktualizuje/aktualizuje dodaj/dodac/doda/dodam dodawaj/dodawac/dodaje/dodaje ' +
    'utworz/utworzyc/utworzy/utworze tworz/tworzyc/tworzy/tworze stworz/stworzyc/stworzy/stworze ' +
    'zapisz/zapisac/zapisze/zapisze zapisuj/zapisywac/zapisuje/zapisuje popraw/poprawic/poprawi/poprawie ' +
    'edytuj/edytowac/edytuje/edytuje przenies/przeniesc/przeniesie/przeniose przesun/przesunac/przesunie/przesune ' +
    'przeloz/przelozyc/przelozy/przeloze ustaw/ustawic/ustawi/ustawie wpisz/wpisac/wpisze/wpisze wklep/wklepac/wklepie/wklepie ' +
    'wprowadz/wprowadzic/wprowadzi/wprowadze zatwierdz/zatwierdzic/zatwierdzi/zatwierdze ' +
    'potwierdz/potwierdzic/potwierdzi/potwierdze zaakceptuj/zaakceptowac/zaakceptuje/zaakceptuje ' +
    'odrzuc/odrzucic/odrzuci/odrzuce podpisz/podpisac/podpisze/podpisze wystaw/wystawic/wystawi/wystawie ' +
    'wystawiaj/wystawiac/wystawia/wystawiam wygeneruj/wygenerowac/wygeneruje/wygeneruje generuj/generowac/generuje/generuje ' +
    'oznacz/oznaczyc/oznaczy/oznacze przypisz/przypisac/przypisze/przypisze zablokuj/zablokowac/zablokuje/zablokuje ' +
    'odblokuj/odblokowac/odblokuje/odblokuje aktywuj/aktywowac/aktywuje/aktywuje wlacz/wlaczyc/wlaczy/wlacze ' +
    'zamknij/zamknac/zamknie/zamkne uzupelnij/uzupelnic/uzupelni/uzupelnie wypelnij/wypelnic/wypelni/wypelnie ' +
    'przedluz/przedluzyc/przedluzy/przedluze odnow/odnowic/odnowi/odnowie zastap/zastapic/zastapi/zastapie ' +
    'zmodyfikuj/zmodyfikowac/zmodyfikuje/zmodyfikuje skopiuj/skopiowac/skopiuje/skopiuje ' +
    'zarejestruj/zarejestrowac/zarejestruje/zarejestruje zanotuj/zanotowac/zanotuje/zanotuje ' +
    'odnotuj/odnotowac/odnotuje/odnotuje zaimportuj/zaimportowac/zaimportuje/zaimportuje',
  delete:
    'usun/usunac/usunie/usune usuwaj/usuwac/usuwa/usuwam anuluj/anulowac/anuluje/anuluje skasuj/skasowac/skasuje/skasuje ' +
    'kasuj/kasowac/kasuje/kasuje wykresl/wykreslic/wykresli/wykresle odwolaj/odwolac/odwola/odwolam ' +
    'wypowiedz/wypowiedziec/wypowie/wypowiem zrezygnuj/zrezygnowac/zrezygnuje/zrezygnuje wyczysc/wyczyscic/wyczysci/wyczyszcze ' +
    'wylacz/wylaczyc/wylaczy/wylacze dezaktywuj/dezaktywowac/dezaktywuje/dezaktywuje ' +
    'zarchiwizuj/zarchiwizowac/zarchiwizuje/zarchiwizuje cofnij/cofnac/cofnie/cofne wyrzuc/wyrzucic/wyrzuci/wyrzuce',
  exec:
    'uruchom/uruchomic/uruchomi/uruchomie uruchamiaj/uruchamiac/uruchamia/uruchamiam ' +
    'zainstaluj/zainstalowac/zainstaluje/zainstaluje instaluj/instalowac/instaluje/instaluje wdroz/wdrozyc/wdrozy/wdroze ' +
    'skompiluj/skompilowac/skompiluje/skompiluje',
};

interface Form {
  category: Category;
  /** The verb's infinitive ("wyslac" for "wyslij"). */
  verb: string;
  kind: Kind;
}

/**
 * Verbs that carry no action of their own, with the one they name alone: "zrób przelew" pays,
 * "wykonaj skrypt" runs, "daj mu dostęp" shares, "daj znać" tells, "wstaw to na stronę" publishes,
 * "złóż zamówienie" orders, "zleć przelew" pays.
 */
const LIGHT: Record<string, { forms: string; alone?: Category }> = {
  zrobic: { forms: 'zrob/zrobic/zrobi/zrobie' },
  wykonac: { forms: 'wykonaj/wykonac/wykona/wykonam' },
  dokonac: { forms: 'dokonaj/dokonac/dokona/dokonam' },
  przeprowadzic: { forms: 'przeprowadz/przeprowadzic/przeprowadzi/przeprowadze' },
  zlecic: { forms: 'zlec/zlecic/zleci/zlece' },
  zrealizowac: { forms: 'zrealizuj/zrealizowac/zrealizuje/zrealizuje' },
  realizowac: { forms: 'realizuj/realizowac/realizuje/realizuje' },
  dac: { forms: 'daj/dac/da/dam' },
  nadac: { forms: 'nadaj/nadac/nada/nadam' },
  wstawic: { forms: 'wstaw/wstawic/wstawi/wstawie', alone: 'change' },
  wrzucic: { forms: 'wrzuc/wrzucic/wrzuci/wrzuce' },
  umiescic: { forms: 'umiesc/umiescic/umiesci/umieszcze', alone: 'change' },
  zlozyc: { forms: 'zloz/zlozyc/zlozy/zloze' },
};

/** The forms a verb's four listed forms give: the plurals of the imperative, the persons of the third. */
function formsOf(entry: string): { forms: [string, Kind][]; first: string; inf: string } {
  const [imp, inf, third, first] = entry.split('/');
  const forms: [string, Kind][] = [
    [imp, 'imp'],
    [inf, 'inf'],
    [third, 'third'],
    [`${imp}cie`, 'impl'],
    [`${imp}my`, 'impw'],
    [`${third}sz`, 'you'],
    [`${third}cie`, 'youpl'],
    [`${third}my`, 'we'],
  ];
  for (const p of pastOf(inf)) forms.push([p, 'past']);
  return { forms, first, inf };
}

/** Past forms after "żebyś", "żebym" ("wysłał", "wysłała", "usunęła"): an infinitive's "ć" as "ł". */
function pastOf(inf: string): string[] {
  if (/nac$/.test(inf)) return [`${inf.slice(0, -1)}l`, `${inf.slice(0, -3)}nela`];
  if (/ec$/.test(inf)) return [`${inf.slice(0, -2)}al`, `${inf.slice(0, -2)}ala`];
  return /[aiy]c$/.test(inf) ? [`${inf.slice(0, -1)}l`, `${inf.slice(0, -1)}la`] : [];
}

/** The nouns of an action a verb names ("przelanie", "wysłanie", "usunięcie", "zapłacenie"), in the cases "o", "do" take. */
function verbalNouns(inf: string): string[] {
  const stems = /nac$/.test(inf)
    ? [`${inf.slice(0, -3)}nieci`]
    : /ac$/.test(inf)
      ? [`${inf.slice(0, -1)}ni`]
      : /[iy]c$/.test(inf)
        ? [`${inf.slice(0, -2)}eni`, `${inf.slice(0, -2)}ieni`, ...(/sic$/.test(inf) ? [`${inf.slice(0, -3)}szeni`] : [])]
        : [];
  return stems.flatMap((s) => [`${s}e`, `${s}a`, `${s}u`]);
}

const FORMS = new Map<string, Form>();
/** First persons ("wyślę", "przeleję", "wysyłam") to their infinitive, for offers and plans. */
const FIRST = new Map<string, string>();
/** Nouns of an action to its category ("przelanie", "wysłania"). */
const VERBAL = new Map<string, Category>();
const LIGHT_FORMS = new Map<string, { verb: string; kind: Kind }>();
for (const [category, entries] of Object.entries(VERBS) as [Category, string][])
  for (const entry of entries.split(' ')) {
    const { forms, first, inf } = formsOf(entry);
    for (const [f, kind] of forms) if (!FORMS.has(f)) FORMS.set(f, { category, verb: inf, kind });
    if (category !== 'read') {
      if (!FIRST.has(first)) FIRST.set(first, inf);
      for (const n of verbalNouns(inf)) if (!VERBAL.has(n)) VERBAL.set(n, category);
    }
  }
/** A light verb's own nouns ("nadanie", "wykonanie", "zrobienie"), to the verb. */
const LIGHT_NOUNS = new Map<string, string>();
for (const [verb, l] of Object.entries(LIGHT)) {
  const { forms, first } = formsOf(l.forms);
  for (const [f, kind] of forms) if (!LIGHT_FORMS.has(f)) LIGHT_FORMS.set(f, { verb, kind });
  if (l.alone) FIRST.set(first, verb);
  for (const n of verbalNouns(verb)) if (!LIGHT_NOUNS.has(n)) LIGHT_NOUNS.set(n, verb);
}
// "Płacę" is "place" folded, an English word: an English sentence is no Polish plan.
FIRST.delete('place');

/** Forms that are nouns as often, told apart where written with diacritics ("odpowiedź", "płać" is no "plac"). */
const NOUNS_AS_WRITTEN = wordSet('odpowiedź pokaz plac');

/**
 * Nouns by stem; a noun is one of them with a case ending ("faktura", "faktury", "fakturę",
 * "fakturze"; "przelew", "przelewu", "przelewem"). A stem that changes ("rachunek", "rachunku") is
 * listed in both spellings.
 */
const ENDINGS = wordSet(' a u e em y i ie ow om ami ach o ia iu iem ii ji je ja jach jami jom owi ze ce iach iami');
const NOUN_STEMS: Partial<Record<ObjectKind, string>> = {
  money:
    'pieniadz pieniedz pieniadze kwot sum faktur rachunek rachunk platnosc zaplat przelew wplat wyplat zwrot zaliczk ' +
    'kaucj czynsz pensj wynagrodzeni oplat skladk rat naleznosc zl zlot zlotych pln eur euro dolar iban srodk ' +
    'abonament cen mandat prowizj sald dlug blik',
  message:
    'wiadomosc wiadomosci mail email maila sms pism przypomnieni powiadomieni odpowiedz odpowiedzi monit komunikat newsletter zaproszeni',
  access: 'dostep uprawnieni rol admin administrator',
  booking: 'wizyt wizyc spotkani rezerwacj termin pokoj stolik lot bilet sal nocleg konsultacj',
  publication: 'ogloszeni post wpis publikacj artykul komentarz recenzj opini',
  credential: 'hasl pin token login',
};
const NOUNS = new DeclinedNouns(NOUN_STEMS, ENDINGS, 4);
const stemsOf = (w: string) => NOUNS.stemsOf(w);

/** Nouns that say what an action acts on, by the lexicon's object kinds, in any case. */
export function polishObjects(ws: readonly string[]): Set<ObjectKind> {
  return NOUNS.objects(ws);
}

/** Nouns of an action, by stem, for a light verb or "proszę o …". */
const ACTION_STEMS: Record<string, Category> = {
  przelew: 'pay',
  platnosc: 'pay',
  platnosci: 'pay',
  zaplat: 'pay',
  wplat: 'pay',
  wyplat: 'pay',
  zwrot: 'pay',
  zakup: 'pay',
  zamowieni: 'pay',
  oplat: 'pay',
  doladowani: 'pay',
  rezerwacj: 'book',
  zmian: 'change',
  aktualizacj: 'change',
  korekt: 'change',
  kopi: 'change',
  wniosek: 'change',
  wnios: 'change',
  anulowani: 'delete',
  rezygnacj: 'delete',
  wysylk: 'send',
  telefon: 'send',
  znac: 'send',
  paczk: 'send',
  przypomnieni: 'send',
  dostep: 'share',
  uprawnieni: 'share',
  rol: 'share',
  skrypt: 'exec',
  komend: 'exec',
  ogloszeni: 'publish',
  post: 'publish',
  publikacj: 'publish',
};
/** Where something put up is read by others: "na stronę", "na Facebooka", "na tablicę". */
const VENUES = wordSet(
  'strona strone stronie stronke witryna witryne portal portalu facebook facebooka instagram instagrama linkedin linkedina twitter twittera tablica tablice tablicy blog bloga intranet intranecie forum',
);

/** The category of a noun of an action, by its stem or as a verb's own noun ("przelanie", "usunięcia"). */
function actionNoun(w: string): Category | undefined {
  const verbal = VERBAL.get(w);
  if (verbal) return verbal;
  for (const s of stemsOf(w)) if (ACTION_STEMS[s]) return ACTION_STEMS[s];
  return undefined;
}

/** A light verb's action: its venue ("wstaw na stronę"), the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if ((verb === 'wstawic' || verb === 'wrzucic' || verb === 'umiescic') && after.some((w) => VENUES.has(w))) return 'publish';
  for (const w of after) {
    const c = actionNoun(w);
    if (c) return c;
  }
  return LIGHT[verb].alone;
}

/** Pronouns and forms of address that stand between a verb and what leads into it ("możesz mu wysłać", "czy może Pan przesłać"). */
const PRONOUNS = wordSet('mu jej im go ja je mi mnie nam nas ci cie ciebie jemu ich to tego sie pan pani panstwo panie wam was');
/** A reply to the user is no message: "wyślij mi", "daj mi znać", "powiadom mnie", "napisz do nas". */
const TO_USER = wordSet('mi mnie nam nas');
/** Words after which a verb is a verb: a conjunction, an adverb, a polite word. */
const VERB_CONTEXT = wordSet(
  'i oraz a ale potem nastepnie teraz takze tez rowniez jeszcze pozniej najpierw prosze prosimy uprzejmie dzieki dziekuje ok okej dobrze tak wiec zatem to juz szybko jutro dzisiaj dzis pilnie koniecznie razu wreszcie zaraz tylko lepiej najlepiej najszybciej natychmiast niezwlocznie prostu jednak',
);
/** Imperatives that are nouns as often: "umów" (of contracts), "ustaw" (of laws), "wystaw", "pokaz", "odpowiedź". */
const HOMOGRAPHS = wordSet('umow ustaw wystaw plac pokaz odpowiedz wypowiedz');
/** Words before an infinitive that ask the reader for it: "proszę wysłać", "możesz zapłacić", "trzeba przelać", "nie zapomnij wysłać". */
const MODAL = wordSet(
  'prosze prosimy uprzejmie mozesz mozecie moglbys moglabys moglibyscie moglybyscie moglby moglaby mogliby mogla zechce zechcesz zechciej zechciejcie ' +
    'musisz musicie trzeba nalezy chce chcialbym chcialabym chcemy chcielibysmy potrzebuje pamietaj pamietajcie zapomnij zapomnijcie sprobuj sprobujcie postaraj',
);
/** Words after which a past form asks: "żebyś wysłał", "abyś przelała". */
const WISH = wordSet('zebys abys zebyscie abyscie');
/** Words a negation does not reach past: "nie zapomnij wysłać" asks. */
const NEGATION_STOPS = wordSet('i oraz a ale potem zapomnij zapomnijcie wahaj');
const NEGATORS = wordSet('nie nigdy ani');
const QUESTION_WORDS = wordSet(
  'kto co ile kiedy gdzie jak dlaczego czemu ktory ktora ktore jaki jaka jakie czyj czyja kogo komu czego ktorego ktorej',
);
/** Words that open a condition or a reported clause: "jeśli trzeba zapłacić", "powiedz jej, że trzeba zapłacić". */
const CONDITION = wordSet('jesli jezeli gdyby jakby gdy');

/** How far back a verb's context is looked for: a clause of thousands of words is read once, not once per word. */
const WINDOW = 12;

const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

interface Verb {
  category: Category;
  verb: string;
  kind: Kind;
}

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "zwróć", "pobierz", "przekaż" by their money. */
function verbAt(cw: readonly Word[], i: number, labels: ReadonlySet<number>): Verb | undefined {
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
  if (/^(?:zwrocic|pobrac|przekazac|przekazywac|przeniesc)$/.test(f.verb) && polishObjects(after).has('money'))
    return { ...f, category: 'pay' };
  return f;
}

/**
 * Whether the verb at `i` stands as one the reader is asked to carry out. An imperative does
 * anywhere in its clause ("Fakturę wyślij do Marka"): Polish writes it apart from every other form,
 * but for the few that are nouns as often ("umów" is also "of contracts"), which stand first or
 * after a word that leads into a verb. An infinitive asks first in its part ("Wysłać fakturę do
 * klienta."), after a modal ("proszę przesłać", "czy może Pan przesłać"), not after a clause's
 * "czy" ("Czy zapłacić?" asks advice); a third person after "niech" ("niech Pan przeleje"); a
 * second person in a question ("Wyślesz mu fakturę?"); a past form after "żebyś". "We" and a third
 * person alone state. Pronouns and a form of address may stand between.
 */
function stands(ws: readonly string[], i: number, v: Verb, parts: ReadonlySet<number>, question: boolean): boolean {
  if (v.kind === 'we') return false;
  let j = i - 1;
  while (j >= 0 && i - j <= 4 && !parts.has(j + 1) && PRONOUNS.has(ws[j])) j--;
  const before = j < 0 || parts.has(j + 1) ? undefined : ws[j];
  if (v.kind === 'third') return before === 'niech';
  if (v.kind === 'past') return before !== undefined && WISH.has(before);
  if (v.kind === 'you' || v.kind === 'youpl') return question && (before === undefined || before === 'czy');
  if (before === undefined) return true;
  if (v.kind !== 'inf') return VERB_CONTEXT.has(before) || !HOMOGRAPHS.has(ws[i]);
  if (MODAL.has(before)) return true;
  // "Czy może Pan przesłać …?", "Może Pan przesłać …?": "może" asks only of the one addressed.
  if (before === 'moze') return /^pan/.test(ws[j + 1]) || j === 0 || ws[j - 1] === 'czy';
  return VERB_CONTEXT.has(before) && before !== 'to';
}

/** A negation before the verb in its part: "nie wysyłaj", "nic nie płać", "nie trzeba płacić"; "nie zapomnij zapłacić" asks. */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= 4 && !parts.has(j + 1); j--) {
    if (NEGATION_STOPS.has(ws[j])) return false;
    if (NEGATORS.has(ws[j])) return true;
  }
  return false;
}

/**
 * A verb inside a clause that asks whether, what or who ("sprawdź, czy trzeba zapłacić", "zobacz,
 * ile trzeba przelać"), a condition ("jeśli trzeba zapłacić, …": its main clause after the comma,
 * or after "to", asks) or a reported one ("powiedz jej, że trzeba zapłacić").
 */
function subordinate(cw: readonly Word[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && i - j <= WINDOW && !parts.has(j + 1); j--) {
    const w = cw[j].w;
    if (w === 'i' || w === 'oraz' || w === 'ale' || w === 'potem') return false;
    // "jak tak, to daj jej znać", "jeśli przyszły, to wyślij": the "to" of a condition opens its main clause.
    if (w === 'to' && cw.slice(j + 1, i).every((x) => PRONOUNS.has(x.w))) return false;
    if ((w === 'czy' || QUESTION_WORDS.has(w) || cw[j].raw === 'że') && j > 0) return true;
    if (CONDITION.has(w)) return true;
  }
  return false;
}

/** A message to the user: "wyślij mi", "możesz mi przesłać", "napisz do mnie", "daj mi znać". */
function toUser(ws: readonly string[], i: number): boolean {
  const next = ws[i + 1] === 'to' || ws[i + 1] === 'je' ? ws[i + 2] : ws[i + 1];
  if (TO_USER.has(next) || (next === 'do' && TO_USER.has(ws[i + 2]))) return true;
  for (let j = i - 1; j >= 0 && i - j <= 3 && PRONOUNS.has(ws[j]); j--) if (TO_USER.has(ws[j])) return true;
  return false;
}

/**
 * The actions a Polish request asks for, clause by clause. A question that opens with a question
 * word asks about things ("Ile zostało do zapłaty?"), where "Czy możesz wysłać …?" asks for the
 * action. "Proszę o przelanie …" asks for the action its noun names.
 */
export function polishActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  for (const clause of prose.replace(/\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const cw = wordsOf(clause);
    const ws = cw.map((x) => x.w);
    const question = clause.trim().endsWith('?');
    if (ws.length === 0 || (question && QUESTION_WORDS.has(ws[0]))) continue;
    const { parts, labels } = partsOf(clause);
    for (let i = 0; i < ws.length; i++) {
      const asked = (category: Category) => out.push({ category, after: ws.slice(i + 1, i + 13), words: ws.slice(i, i + 4).join(' ') });
      // "Proszę o przelanie 200 zł", "prosimy o przesłanie faktury".
      if ((ws[i] === 'prosze' || ws[i] === 'prosimy') && ws[i + 1] === 'o' && !negated(ws, i, parts)) {
        const c = ws[i + 2] === undefined ? undefined : actionNoun(ws[i + 2]);
        if (c && c !== 'read' && !(c === 'send' && TO_USER.has(ws[i + 3] ?? ''))) asked(c);
        continue;
      }
      const v = verbAt(cw, i, labels);
      if (!v || v.category === 'read') continue;
      if (!stands(ws, i, v, parts, question) || negated(ws, i, parts) || subordinate(cw, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i)) continue;
      asked(v.category);
    }
  }
  return out;
}

/** Words that lead into an order without changing it: "Proszę …", "Uwaga: …", "Pilne: …". */
const ORDER_LEAD_IN = wordSet(
  'prosze prosimy uprzejmie bardzo uwaga pilne pilnie wazne ps nb rowniez takze tez teraz nastepnie potem niezwlocznie natychmiast koniecznie i',
);
/** An obligation put on the reader, or on whoever holds a role: "musisz zapłacić …", "asystent musi przesłać …", "należy przelać …". */
const OBLIGATION =
  /\b(?:musisz|musicie|musi|musza|nalezy|trzeba|powinienes|powinnas|powinien|powinna|powinni|powinniscie|masz|macie|ma|ma\s+obowiazek|jest\s+zobowiazan[ya]\s+do)\s+(?:(?:natychmiast|koniecznie|zawsze|niezwlocznie|pilnie|obowiazkowo|rowniez|takze)\s+)?(?:(?:mu|jej|im|go|je|to|sie|nam|mi)\s+){0,3}([a-z]+)/g;
/** Two capitalised words: a name opening a record's line ("Anna Nowak, ul. Długa 5"). */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+/u;
/** A courier's note about the door: "zadzwoń dwa razy", "dzwonić domofonem". */
const DOORBELL = wordSet('razy raz domofon domofonem domofonu dzwonek dzwonkiem furtke brame kod');

/**
 * An order written in Polish in data: a clause that opens with an imperative of an action other
 * than reading ("Przelej kwotę na konto …", "Prześlij tę wiadomość na …"), an infinitive after
 * "proszę" or "prosimy", a third person after "niech" ("niech asystent przeleje …"), "proszę o" with
 * a noun of an action ("Prosimy o przelanie …"); or an obligation on the reader or a role ("musisz
 * zapłacić …", "asystent musi przesłać …", "należy przelać …"). An infinitive title ("Wysłać
 * fakturę do działu"), a noun heading ("Przelew z 3 maja"), a participle ("Zapłacono 3 maja"), a
 * statement ("Klient płaci przelewem", "Wyślemy fakturę jutro") and a courier's note ("Zadzwonić
 * dwa razy", "zadzwoń domofonem") are none. Returns the words that order.
 */
export function polishOrderIn(sentence: string): string | undefined {
  const text = sentence.slice(0, 8000);
  let pleaded = false;
  for (const part of text.split(/[:;,]\s*|\s+(?:i|oraz)\s+(?:potem\s+|następnie\s+|nastepnie\s+)?/i)) {
    const cw = wordsOf(part);
    const ws = cw.map((x) => x.w);
    let i = 0;
    while (i < ws.length && i < WINDOW && ORDER_LEAD_IN.has(ws[i])) i++;
    // "Proszę kody do recept i wszystkie SMS-y wysyłać …": a "proszę" whose part holds no verb reaches the next.
    const polite: boolean = pleaded || ws.slice(0, i).some((w) => w === 'prosze' || w === 'prosimy' || w === 'uprzejmie');
    pleaded = polite && !ws.some((w) => FORMS.has(w) || LIGHT_FORMS.has(w));
    if (polite && ws[i] === 'o') {
      const c = ws[i + 1] === undefined ? undefined : actionNoun(ws[i + 1]);
      if (c && c !== 'read') return ws.slice(i - 1, i + 4).join(' ');
      continue;
    }
    let niech = false;
    if (ws[i] === 'niech') {
      niech = true;
      i++;
      // "niech Pan", "niech asystent", "niech dział księgowości": the one asked, before the verb.
      let k = i;
      while (k < ws.length && k - i < 3 && !FORMS.has(ws[k]) && !LIGHT_FORMS.has(ws[k])) k++;
      i = k;
    }
    while (i < ws.length && i < WINDOW && PRONOUNS.has(ws[i])) i++;
    if (i === 0 && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    let v = i < ws.length ? verbAt(cw, i, new Set()) : undefined;
    // Polish puts the object first as readily ("a kopię wyślij na …", "do odpowiedzi dołącz …"): an
    // imperative, a form no statement has, two words in orders too; after "proszę", an infinitive
    // further on ("Proszę kody do recept i wszystkie SMS-y wysyłać od teraz na …").
    for (let k = i + 1; !v && k <= i + (polite ? 8 : 2) && k < ws.length - 1; k++) {
      const later = verbAt(cw, k, new Set());
      if (later?.kind === 'imp' || (polite && later?.kind === 'inf')) v = later;
    }
    if (!v || v.category === 'read' || ws.length - i < 2) continue;
    const ordered = niech ? v.kind === 'third' : v.kind === 'inf' ? polite : v.kind === 'imp' || v.kind === 'impl';
    if (!ordered) continue;
    if (v.verb.endsWith('dzwonic') && ws.slice(i + 1, i + 5).some((w) => DOORBELL.has(w))) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  let tried = 0;
  // "Marek ma psa. Musisz przelać …": each "ma", "musisz" is tried, a bounded number of them.
  const folded = polishFold(text);
  const asked = askedOf(folded);
  if (asked) return asked;
  for (const m of folded.matchAll(OBLIGATION)) {
    if (++tried > 50) break;
    // "nie trzeba płacić", "sprawdź, czy trzeba zapłacić", "jeśli musisz zapłacić": no order.
    if (/(?:^|[^a-z])(?:nie|czy|jesli|jezeli|gdy|ze)\s+$/.test(folded.slice(Math.max(0, m.index - 12), m.index))) continue;
    const f = FORMS.get(m[1]);
    const light = LIGHT_FORMS.get(m[1]);
    const category = f?.kind === 'inf' ? f.category : light?.kind === 'inf' ? LIGHT[light.verb].alone : VERBAL.get(m[1]);
    if (category && category !== 'read') return m[0].split(/\s+/).slice(0, 6).join(' ');
  }
  return undefined;
}

/**
 * A request put on whoever reads, in the passive or the impersonal: "użytkownik proszony jest o
 * nadanie konta … z rolą administrator", "klienci proszeni są o przelanie …", "wzywa się placówkę
 * do przesłania wykazu …": the noun after "o" or "do" names the action, or a light verb's noun does
 * with the action noun after it.
 */
function askedOf(folded: string): string | undefined {
  let tried = 0;
  for (const m of folded.matchAll(PASSIVE_ASK)) {
    if (++tried > 50) break;
    if (/(?:^|[^a-z])nie\s+(?:(?:jest|sa|bedzie|beda)\s+)?$/.test(folded.slice(Math.max(0, m.index - 14), m.index))) continue;
    const after = wordsOf(folded.slice(m.index + m[0].length, m.index + m[0].length + 200)).map((x) => x.w);
    const light = LIGHT_NOUNS.get(m[1]);
    const category = actionNoun(m[1]) ?? (light ? lightCategory(light, after.slice(0, 16)) : undefined);
    if (category && category !== 'read') return m[0];
  }
  return undefined;
}
const PASSIVE_ASK =
  /(?<![a-z])(?:(?:proszony|proszona|proszeni|proszone|zobowiazany|zobowiazana|zobowiazani)\s+(?:(?:jest|sa|bedzie|beda|zostaje|zostaja)\s+)?|(?:wzywa|prosi|uprasza|zobowiazuje)\s+sie\s+(?:[a-z]+\s+){0,3}?)(?:o|do)\s+([a-z]+)/g;

/** A question that asks leave to go on: "Kontynuować?", "Czy mam kontynuować?", "Zgoda?", "Czy to w porządku?". */
const ASKS_TO_GO_ON =
  /^(?:(?:a\s+|to\s+)?(?:czy\s+)?(?:(?:mam|moge|mozemy|mamy|powinienem|powinnam)\s+)?(?:kontynuowac|kontynuuje|dzialac|dzialam|przejsc\s+dalej|isc\s+dalej|to\s+zrobic|zrobic\s+to|to\s+wykonac|wykonac\s+to|realizowac|zaczynac|zaczac|zatwierdzic\s+to)|(?:czy\s+)?(?:to\s+)?(?:w\s+porzadku|ok|okej|pasuje|moze\s+byc|zgoda|dobrze)|(?:czy\s+)?(?:sie\s+)?zgadzasz(?:\s+sie)?|(?:czy\s+)?(?:pan|pani)\s+(?:sie\s+)?zgadza|(?:czy\s+)?potwierdzasz|(?:czy\s+)?potwierdza\s+(?:pan|pani)|(?:czy\s+)?chcesz,?\s+(?:zebym|abym)\s+(?:kontynuowal[a]?|to\s+zrobil[a]?|zrobil[a]?\s+to))(?:\s+(?:teraz|wiec|zatem|dalej))?\s*\?*$/;
/**
 * A question that offers an action: "Czy mam wysłać …?", "Mogę przelać …?", "Czy chcesz, żebym
 * wysłał …?", or asks which of the options laid out to act on ("Który zarezerwować?", "Który
 * termin mam potwierdzić?").
 */
const OFFER_LEAD =
  /^(?:a\s+|to\s+)?(?:(?:ktory|ktora|ktore|ktorego|jaki|jaka|jakie|kiedy|gdzie|komu)\s+(?:(?:z\s+nich|termin|opcje|godzine|dzien)\s+)?(?:(?:mam|moge|mamy|mozemy)\s+)?|(?:czy\s+)?(?:(?:mam|moge|powinienem|powinnam|mamy|mozemy)\s+|(?:chcesz|chcecie|chce\s+(?:pan|pani)|zyczy\s+sobie\s+(?:pan|pani)|wolisz),?\s+(?:zebym|abym|zebysmy|abysmy)\s+))/;

/**
 * What the assistant offers to do in a Polish question, written as the user would ask for it:
 * "Czy mam wysłać fakturę?" gives "wysłać fakturę"; "Czy chcesz, żebym wysłał fakturę?" "wyslac
 * fakturę"; "Wyślę mu fakturę?" and "Przelać 200 zł?" "wyslac mu fakturę", "Przelać 200 zł"; a
 * question that asks leave to go on ("Kontynuować?", "Zgoda?") gives 'go-on'. Undefined for any
 * other question, and for one of another language: it holds a Polish verb of an action.
 */
export function polishOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim();
  if (!q.endsWith('?') || q.length > 2000) return undefined;
  const folded = polishFold(q);
  if (ASKS_TO_GO_ON.test(folded)) return 'go-on';
  // Folding keeps a Polish text's length (one letter for one), so the lead's length is the question's.
  const lead = OFFER_LEAD.exec(folded);
  let words = q
    .slice(lead ? lead[0].length : 0)
    .replace(/\s*\?+$/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  // "Czy wysłać fakturę?": a clause's "czy" before an infinitive offers as "czy mam" does.
  if (!lead && bare(words[0] ?? '') === 'czy') words = words.slice(1);
  if (words.length === 0) return lead ? 'go-on' : undefined;
  let i = 0;
  while (i < words.length - 1 && i < 3 && PRONOUNS.has(bare(words[i]))) i++;
  const w = bare(words[i]);
  const say = (verb: string) => [...words.slice(0, i), verb, ...words.slice(i + 1)].join(' ');
  const f = FORMS.get(w) ?? lightFormIn(TABLES, w, words.slice(i + 1).map(bare));
  if (f && f.category !== 'read') {
    if (f.kind === 'inf') return say(words[i]);
    if (lead && f.kind === 'past') return say(f.verb);
  }
  const first = lead ? undefined : FIRST.get(w);
  return first ? say(first) : undefined;
}

/** A word without what is not a letter or a digit, folded. */
const bare = (word: string) => polishFold(word).replace(/[^a-z0-9]/g, '');

/** The tables proposals and plans are read with (proposals.ts). */
const TABLES: ProposalTables<Kind> = { forms: FORMS, first: FIRST, light: LIGHT_FORMS, lightCategory, pronouns: PRONOUNS, bare };

/** A plan in the first person: "Mogę wysłać …", "Zamierzam przelać …", "Zaraz wyślę …", "Proponuję przesłać …". */
const PLAN_LEAD =
  /^(?:(?:ja|to)\s+)?(?:moge|mozemy|moglbym|moglabym|zamierzam|zamierzamy|planuje|chce|proponuje|sprobuje|postaram\s+sie|zajme\s+sie\s+tym,?\s+i|zaraz|teraz|najpierw|nastepnie|potem|od\s+razu|juz)\s+/;

/** What the assistant says it will or can do: "Mogę wysłać fakturę", "Wyślę fakturę jutro" (as "wyslac fakturę jutro"). */
export function polishPlan(sentence: string): string | undefined {
  const s = sentence.trim().replace(/[.!:]+$/, '');
  if (s.length > 2000) return undefined;
  const lead = PLAN_LEAD.exec(polishFold(s));
  const words = s
    .slice(lead ? lead[0].length : 0)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  let i = 0;
  while (i < words.length - 1 && i < 3 && PRONOUNS.has(bare(words[i]))) i++;
  if (i >= words.length) return undefined;
  const w = bare(words[i]);
  const say = (verb: string) => [...words.slice(0, i), verb, ...words.slice(i + 1)].join(' ');
  const f = FORMS.get(w) ?? lightFormIn(TABLES, w, words.slice(i + 1).map(bare));
  if (lead && f && f.category !== 'read' && f.kind === 'inf') return say(words[i]);
  const first = FIRST.get(w);
  return first ? say(first) : undefined;
}

/** Forms tools use in their names and descriptions: the imperative, the infinitive, the third person. */
const TOOL_KINDS = new Set<Kind>(['imp', 'inf', 'third']);

/** The category of a word as a Polish verb (for a tool's name and description): "wyslij", "wyslac", "wysyla", "usuwa", "zaplac". */
export function polishCategory(word: string): Category | undefined {
  // A light verb names no action of its own in a tool's name (`wykonaj_przelew` pays,
  // `wykonaj_skrypt` runs): its arguments say which sink (a payee and an amount, a command).
  const f = FORMS.get(polishFold(word));
  return f && TOOL_KINDS.has(f.kind) ? f.category : undefined;
}

/** Where a tool's name holds a Polish verb (`wyslij_fakture`, `usunWydarzenie`, `faktury_pobierz`), or -1: such a name is Polish. */
export function polishInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => polishCategory(w) !== undefined);
}
