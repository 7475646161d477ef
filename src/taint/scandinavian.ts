/**
 * Requests and tools written in Norwegian (bokmål), Danish and Swedish (docs/taint-policy.md,
 * "Requests in Scandinavian"). The English parse finds no verb in "Skicka fakturan till Anna" or
 * "Kan du betale regningen?", and so asks for nothing: every call of a Scandinavian team would be
 * blocked as unasked. The three languages share their grammar and most verbs, and are read as one:
 * each verb is listed in each language's spelling ("skicka", "send"; "betala", "betal"), with its
 * imperative, infinitive and present ("skicka/skickar", "send/sende/sender"). A verb asks where it
 * stands first in a clause as an imperative ("Betala fakturan", "og send kvitteringen"), with its
 * particle next to it ("boka in", "säg upp", "si opp", "sig … op"); as an infinitive after a modal
 * put to the reader ("Kan du skicka …?", "Vil du sende …?"), the user's wish or need ("Jag vill
 * avboka …", "Jeg trenger å bestille …") or a polite lead ("Var snäll och …", "Husk at betale …").
 * A clause with "inte", "ikke" or "aldrig", a question about facts, what follows "om", "hvis" or
 * "att" inside a clause, a participle ("betald", "sendt": no participle is a listed form) and a
 * reply to the user ("skicka mig …") ask for nothing. Letters are compared as Danish and Norwegian
 * write them: Swedish "ä" as "æ" and "ö" as "ø", so "ändra" and "ændre" meet and "andra" (others) stays apart.
 */
import { verbCategory, wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';

/** A word in one spelling: lower case, Swedish "ä" and "ö" as "æ" and "ø", other accents dropped ("idé", "annullér"). */
function canonical(word: string): string {
  return word
    .toLowerCase()
    .replace(/ä/g, 'æ')
    .replace(/ö/g, 'ø')
    .normalize('NFD')
    .replace(/[\u0300-\u0309\u030b-\u036f]/g, '')
    .normalize('NFC');
}

/** A word as a tool's name spells it (lexicon.ts `words`): "ändra" is "andra", "sørg" "sorg", "ærende" "aerende". */
function asciiFold(word: string): string {
  return word
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** A word as Swedish writes it ("æ" as "ä", "ø" as "ö"), for a tool's folded name: "hæmta" is "hämta", folded "hamta". */
const swedish = (word: string) => word.replace(/æ/g, 'ä').replace(/ø/g, 'ö');

/** The words of a text in their one spelling; "sms:a", "e-post" and "sms'e" are one word each. Its first 8,000 characters. */
export function scandinavianWords(text: string): string[] {
  const joined = text
    .slice(0, 8000)
    .toLowerCase()
    .replace(/\bsms[:'’-](?=a\b|e\b)/g, 'sms')
    .replace(/\be-(?=post|mail|mejl)/g, 'e');
  return (joined.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map(canonical);
}

/** Function words only these languages write, of the languages read here and English. */
const OWN = wordSet(
  'och inte att ær jag jeg hon honom henne hende mig oss mej dej deg meg dere jeres vores deres ' +
    'också også eller når nær hær dær nå hei tack takk snælla vænligen venligst vennligst gærna gjerne ' +
    'mitt mina ditt dina sitt sina våra vår från efter etter innan før ingen inget inga intet ikke ikkje ej ' +
    'aldrig aldri redan allerede kunne skulle mycket mye meget hur vad varfør vilken vilket vilka ' +
    'hvordan hvad hva hvem hvorfor hvilken hvilket hvilke hvor hvis og det som på med av har hade ska skall skal vill måste må ' +
    'idag imorgon igår siden sedan sen då så bara kanske kanskje måske hos utan uten uden mellan mellom nesten næsten ' +
    'næsta næste neste vecka uke uge måndag tisdag onsdag torsdag fredag lørdag søndag mandag tirsdag',
);
/** Words these languages write that another writes as well ("de", "den", "er", "at", "for", "alle", "men", "om"). */
const SHARED = wordSet(
  'de den der dem er at for i en ett et till til af om men alle han hun du vi ni kan kun bare vil sig seg sin nu tak ja nej nei ham os da man mit din dig min mine dine sine fra hej vem over under',
);
/** The other languages' own function words: a text with as many of them is not Scandinavian. */
const OTHER_OWN = wordSet(
  'the of and to in is on with that this it my an be are by from please me you your our we was were have has will would can could should ' +
    'el los las y con por para una del es está muy pero cuando este esta lo le les su sus que la ' +
    'os um uma não com em da do na no é são ao aos pelo pela você ' +
    'est une pour dans sur au aux ce cette ces vous nous il ils elle elles ne pas avec par qui où moi lui ' +
    'della che di per non sono anche ho ha gli questo questa grazie ' +
    'das und ist nicht ein eine einen mit für von zu auf bitte ich sie wir ihr ihm ihn uns mir oder auch noch die ' +
    'een het niet geen naar voor van op aan bij uit ook nog maar dat deze wat ik jij jou jouw jullie zij ze wij mij mijn uw ons onze hem haar hun zijn heb hebt heeft wordt kunt wilt zou graag ' +
    'nie się jest są że czy proszę dla oraz także już tylko jeszcze przez przed przy bez od za jak gdy kiedy gdzie kto ile',
);

/** Whether a word counts for these languages alone: a function word, a lower-case word with "å", "æ" or "ø", or a noun's definite form. */
function ownWord(raw: string, w: string): boolean {
  if (OWN.has(w)) return true;
  // "Åström", "Søren": a name says nothing of its text, a verb of theirs does ("Låter det bra?").
  if (/[åæø]/.test(raw) && !/[äö]/.test(raw) && (raw[0] === raw[0].toLowerCase() || FORMS.has(w) || LIGHT_FORMS.has(w))) return true;
  const noun = nounOf(w);
  return noun !== undefined && noun.base.length >= 5 && DEFINITE.has(noun.ending);
}
/** A definite noun's endings ("fakturan", "beløbet", "regningen", "fakturorna"): no other language writes them on these nouns. */
const DEFINITE = wordSet('en et n na ne arna orna erna erne ene');

/**
 * Whether a text is Norwegian, Danish or Swedish: two words at least that only they write, and more
 * of them than the other languages' own; or, with none of the others' words, one of them beside an
 * imperative of theirs or a word they share ("Betala fakturan."). A lower-case word with "ä" or "ö"
 * counts as theirs only where no other language's word stands (German writes them). Its first 4,000 characters; tried before Polish and Dutch
 * (languages.ts), so "de", "den", "er", "men", "om", "alle" count for nothing alone.
 */
export function readsAsScandinavian(text: string): boolean {
  let own = 0;
  let shared = 0;
  let other = 0;
  let verb = false;
  let umlauts = 0;
  for (const raw of text.slice(0, 4000).match(/[\p{L}\p{M}_]+/gu) ?? []) {
    // "AV-5531", "I-20", "hos_drive_left": a code in capitals or a field's key is no word.
    if (raw === raw.toUpperCase() || raw.includes('_')) continue;
    const w = canonical(raw);
    if (!verb && !ENGLISH_SPELLED.has(w) && (FORMS.get(w) ?? []).some((f) => f.kind === 'imp')) verb = true;
    if (ownWord(raw, w)) own++;
    else if (SHARED.has(w)) shared++;
    else if (/[äö]/.test(raw) && raw[0] === raw[0].toLowerCase()) umlauts++;
    else if (OTHER_OWN.has(w)) other++;
  }
  if (own <= other && other > 0) return false;
  // Swedish "ä" and "ö" are German letters too: they count as the text's own only where no other language's word stands.
  if (other === 0) own += umlauts;
  else shared += umlauts;
  return (own >= 2 && own + shared > other) || (other === 0 && own >= 1 && (verb || shared >= 1));
}
/** Verbs spelled as English words ("send", "start", "post"): they say nothing of a text's language, nor make an English tool's name theirs. */
const ENGLISH_SPELLED = wordSet(
  'send sender ring post start stop test mail sms plan book kontakt del spar list print skip gem bet merge lag slet',
);

/**
 * Verbs by the action they name, each `imperative/infinitive[/present]` in each language's spelling:
 * one word where the imperative is the infinitive (Swedish "skicka", present "skickar"); the present
 * is the infinitive with "r" ("sende", "sender"), or the imperative with "er" ("skriv", "skriver").
 * `|particle` for a verb with its particle ("boka|in", "säg|upp"): a particle that turns it to another
 * action is listed under that one ("ta|bort" deletes, "betala|tillbaka" pays); `none` asks nothing of
 * the reader ("ring|på": ring the doorbell, a courier's note).
 */
const VERBS: Record<Category | 'none', string> = {
  read:
    'søk/søka kolla hæmta kontrollera granska læs/læsa visa lista titta jæmfør/jæmføra rækna sammanfatta summera leta hitta øppna ' +
    'undersøk/undersøka verifiera søg/søge hent/hente tjek/tjekke kontroller/kontrollere læs/læse vis/vise find/finde ' +
    'sammenlign/sammenligne beregn/beregne opsummer/opsummere åbn/åbne undersøg/undersøge sjekk/sjekke les/lese finn/finne ' +
    'oppsummer/oppsummere åpne/åpne undersøk/undersøke',
  send:
    'skicka skicka|vidare skicka|ivæg skicka|tillbaka sænd/sænda mejla maila smsa ring/ringa ring|upp ring|tillbaka svara besvara ' +
    'meddela informera underrætta påminn/påminna kontakta hør|av berætta fråga varna vidarebefordra skriv/skriva|till ' +
    'send/sende send|videre send|tilbage send|tilbake mail/maile email/emaile sms/smse ring/ringe ring|tilbage ring|tilbake ring|op ring|opp ' +
    'svar/svare besvar/besvare meddel/meddele informer/informere underret/underrette påmind/påminde kontakt/kontakte ' +
    'spørg/spørge fortæl/fortælle advar/advare videresend/videresende skriv/skrive|til spør/spørre fortell/fortelle ' +
    'varsl/varsle minn/minne påminn/påminne meld|fra si/si/sier|fra sig/sige|til ' +
    // "Tilbyd dem en ny tid", "erbjud kunden rabatt": an offer is a message to those it is made to.
    'tilbyd/tilbyde tilby/tilby/tilbyr erbjud/erbjuda',
  share: 'dela bjud/bjuda|in bevilja del/dele inviter/invitere',
  publish: 'publicera posta annonsera publicer/publicere poste/poste publiser/publisere kunngjør/kunngjøre',
  pay:
    'betala betala|tillbaka återbetala øverfør/øverføra før/føra|øver sætt/sætta|in bestæll/bestælla køp/køpa fakturera debitera kreditera swisha ' +
    'betal/betale betal|tilbage betal|tilbake tilbagebetal/tilbagebetale tilbakebetal/tilbakebetale overfør/overføre ' +
    'indbetal/indbetale innbetal/innbetale udbetal/udbetale utbetal/utbetale refunder/refundere bestil/bestille bestill/bestille ' +
    'køb/købe kjøp/kjøpe fakturer/fakturere debiter/debitere krediter/kreditere belast/belaste vipps/vippse ' +
    // "Opkræv skaden", "krev inn depositumet", "kräv in avgiften": to charge or collect money.
    'opkræv/opkræve inddriv/inddrive krev/kreve|inn innkrev/innkreve kræv/kræva|in',
  // "Kan du holde av to pakker …": Norwegian holds goods back for someone.
  book: 'boka boka|in reservera schemalægg/schemalægga book/booke reserver/reservere planlæg/planlægge planlegg/planlegge hold/holde|av',
  change:
    'ændra uppdatera lægg/lægga|till lægg/lægga|in skapa registrera spara flytta byt/byta korrigera rætta godkænn/godkænna ' +
    'bekræfta attestera avvisa blockera spærra lås/låsa lås|upp aktivera frys/frysa førlæng/førlænga førnya ersætt/ersætta ' +
    'fyll/fylla|i markera tilldela signera skriv/skriva|under skriv/skriva|in skriv/skriva stæng/stænga arkivera återstæll/återstælla ' +
    'importera kopiera omboka justera notera uppgradera nedgradera återaktivera ' +
    'ændr/ændre opdater/opdatere tilføj/tilføje opret/oprette registrer/registrere gem/gemme flyt/flytte skift/skifte ret/rette ' +
    'godkend/godkende bekræft/bekræfte afvis/afvise bloker/blokere spær/spærre lås/låse lås|op aktiver/aktivere forlæng/forlænge ' +
    'forny/forny/fornyer erstat/erstatte udfyld/udfylde marker/markere tildel/tildele underskriv/underskrive luk/lukke nulstil/nulstille ' +
    'kopier/kopiere ombook/ombooke juster/justere noter/notere indtast/indtaste tilmeld/tilmelde skriv/skrive ' +
    'endre/endre oppdater/oppdatere legg/legge|til legg/legge|inn opprett/opprette lagre/lagre flytt/flytte bytt/bytte rett/rette ' +
    'godkjenn/godkjenne bekreft/bekrefte avvis/avvise blokker/blokkere sperr/sperre lås|opp forleng/forlenge forny/fornye ' +
    'erstatt/erstatte fyll/fylle|ut merk/merke signer/signere lukk/lukke tilbakestill/tilbakestille meld/melde|på',
  delete:
    'radera ta|bort avboka avbestæll/avbestælla avsluta sæg/sæga|upp stryk/stryka makulera annullera rensa slæng/slænga återkalla ' +
    'avregistrera inaktivera stoppa avbryt/avbryta hæv/hæva slet/slette fjern/fjerne afbestil/afbestille aflys/aflyse ' +
    'annuller/annullere opsig/opsige sig/sige|op afmeld/afmelde afslut/afslutte stop/stoppe tilbagekald/tilbagekalde deaktiver/deaktivere ' +
    'slett/slette avbestill/avbestille avlys/avlyse kanseller/kansellere si/si/sier|opp meld/melde|av avslutt/avslutte stopp/stoppe ' +
    'tilbakekall/tilbakekalle tag/tage|bort',
  exec: 'kør/køra installera starta driftsætt/driftsætta kør/køre installer/installere start/starte kjør/kjøre',
  none: 'ring|på ring/ringe|på læmna',
};

type Kind = 'imp' | 'inf' | 'pres';
interface Form {
  category: Category | 'none';
  particle?: string;
  /** The imperative, to write an offer or a plan as the request it becomes ("sende" → "send"). */
  imp: string;
  kind: Kind;
}

/** The present of a verb: Swedish "skickar", "skriver", Danish and Norwegian "sender". */
function presentOf(imp: string, inf: string): string {
  if (inf.endsWith('e')) return `${inf}r`;
  if (imp === inf) return inf.endsWith('a') ? `${inf}r` : inf;
  // Swedish "för", "kör": a stem in "r" is its own present.
  return imp.endsWith('r') ? imp : `${imp}er`;
}

/** Every form of every verb, to the entries it can be. */
const FORMS: Map<string, Form[]> = new Map();
for (const [category, list] of Object.entries(VERBS) as [Category | 'none', string][])
  for (const item of list.split(' ')) {
    const [head, particle] = item.split('|');
    const [imp, inf = imp, pres = presentOf(imp, inf)] = head.split('/');
    const base = { category, imp, ...(particle ? { particle } : {}) };
    const forms: [string, Kind][] = [
      [imp, 'imp'],
      [inf, 'inf'],
      [pres, 'pres'],
    ];
    for (const [form, kind] of forms) FORMS.set(form, [...(FORMS.get(form) ?? []), { ...base, kind }]);
  }

/**
 * Verbs that carry no action of their own ("gör en betalning", "giv ham adgang", "lad Jens vide",
 * "legg ut innlegget på nettsiden"): the noun after them says it, or a place others read (publish);
 * a few name one alone ("lägg", "sätt", "fixa" change). Each `imperative/infinitive/present`.
 */
const LIGHT: Record<string, Category | undefined> = {
  'gør/gøra/gør': undefined,
  'gjør/gjøre/gjør': undefined,
  'gør/gøre/gør': undefined,
  'genomfør/genomføra': undefined,
  'gennemfør/gennemføre': undefined,
  'gjennomfør/gjennomføre': undefined,
  'utfør/utføra': undefined,
  'udfør/udføre': undefined,
  'utfør/utføre': undefined,
  'foretag/foretage': undefined,
  'foreta/foreta/foretar': undefined,
  'lav/lave': undefined,
  'lag/lage/lager': undefined,
  'ge/ge/ger': undefined,
  'gi/gi/gir': undefined,
  'giv/give': undefined,
  'ta/ta/tar': undefined,
  'tag/tage': undefined,
  'låt/låta': undefined,
  'la/la/lar': undefined,
  'lad/lade': undefined,
  'hør/høra': undefined,
  'lægg/lægga': 'change',
  'legg/legge': 'change',
  'læg/lægge': 'change',
  'sætt/sætta': 'change',
  'sett/sette': 'change',
  'sæt/sætte': 'change',
  fixa: 'change',
  'fiks/fikse': 'change',
  ordna: 'change',
  'ordne/ordne': 'change',
};
const LIGHT_FORMS: Map<string, { imp: string; kind: Kind; alone?: Category }> = new Map();
for (const [entry, alone] of Object.entries(LIGHT)) {
  const [imp, inf = imp, pres = presentOf(imp, inf)] = entry.split('/');
  const forms: [string, Kind][] = [
    [pres, 'pres'],
    [inf, 'inf'],
    [imp, 'imp'],
  ];
  for (const [form, kind] of forms) LIGHT_FORMS.set(form, { imp, kind, ...(alone ? { alone } : {}) });
}

/** Nouns of an action, for a light verb: "gör en betalning" pays, "giv ham adgang" shares, "lad Jens vide" tells. */
const ACTION_NOUNS: [string, Category][] = [
  ...'betalning betaling øverføring overførsel overføring insættning indbetaling innbetaling utbetalning udbetaling utbetaling återbetalning tilbagebetaling tilbakebetaling refusion refusjon bestællning bestilling køp køb kjøp'
    .split(' ')
    .map((n): [string, Category] => [n, 'pay']),
  ...'bokning booking reservation reservasjon møte møde aftale avtale'.split(' ').map((n): [string, Category] => [n, 'book']),
  // "lag en oppgave til henne", "skriv ett anteckning": a task or a note is written down.
  ...'ændring endring korrigering rættelse oppgave opgave uppgift notat anteckning'
    .split(' ')
    .map((n): [string, Category] => [n, 'change']),
  ...'avbokning afbestilling avbestilling uppsægning opsigelse oppsigelse annullering'
    .split(' ')
    .map((n): [string, Category] => [n, 'delete']),
  ...'inlægg opslag innlegg publicering annons annonce annonse'.split(' ').map((n): [string, Category] => [n, 'publish']),
  ...'samtal opringning oppringning påminnelse påmindelse mejl mail sms meddelande besked beskjed kontakt veta vide vite signal utskick'
    .split(' ')
    .map((n): [string, Category] => [n, 'send']),
  ...'åtkomst tillgång behørighet adgang tilgang rettigheder rettigheter'.split(' ').map((n): [string, Category] => [n, 'share']),
  ['betalt', 'pay'],
  ['skript', 'exec'],
  ['script', 'exec'],
];
/** Places others read: "lägg upp det på hemsidan", "legg det ut på Facebook". */
const VENUES =
  /^(?:hemsida|webbplats|webbsida|hjemmeside|nettside|nettsted|intranæt|intranet|facebook|instagram|linkedin|anslagstavl|opslagstavl|oppslagstavl|medlemsapp)/;

/** The action of a light verb, by a venue or the first action noun after it, or what it names alone. */
function lightCategory(alone: Category | undefined, after: readonly string[]): Category | undefined {
  const near = after.slice(0, 8);
  if ((alone === 'change' || near.includes('upp') || near.includes('ut') || near.includes('op')) && near.some((w) => VENUES.test(w)))
    return 'publish';
  for (const w of near) {
    const hit = ACTION_NOUNS.find(([n]) => ENDINGS.some((e) => w.endsWith(n + e) && (n.length >= 5 || w === n + e)));
    if (hit) return hit[1];
  }
  return alone;
}

/** Nouns by the lexicon's object kinds, in their base form; a compound counts by its last noun ("aprilfakturan", "husleje"). */
const OBJECTS: Partial<Record<ObjectKind, string>> = {
  money:
    'pengar penge penger belopp beløb beløp faktura rækning regning betalning betaling øverføring overførsel overføring hyra husleje husleie ' +
    'depositum deposition løn lønn avgift afgift gebyr kvitto kvittering återbetalning tilbagebetaling tilbakebetaling refusion refusjon ' +
    'kronor kroner kr sek dkk nok eur euro saldo skuld gæld gjeld konto bankgiro plusgiro swish vipps mobilepay iban autogiro dragning ' +
    'kreditnota kreditfaktura førskott forskud forskudd arvode honorar ersættning erstatning moms skatt skat bøde bøter premie kontingent',
  message:
    'mejl mail email epost sms meddelande besked beskjed brev påminnelse påmindelse bekræftelse bekreftelse inbjudan invitation invitasjon ' +
    'nyhetsbrev nyhedsbrev notis melding meddelelse utskick kallelse innkalling indkaldelse',
  access:
    'åtkomst tillgång behørighet adgang tilgang rettighed rettighet roll rolle admin administratør administrator nyckel nøgle nøkkel fullmakt fuldmagt',
  booking:
    'bokning booking reservation reservasjon time møte møde bord rum værelse flyg biljett billet billett pass konsultation konsultasjon besøk besøg visning aftale avtale',
  publication: 'inlægg opslag innlegg annons annonce annonse artikel artikkel recension anmeldelse omtale blogg blog nyhet nyhed',
  credential: 'løsenord adgangskode passord pinkod pinkode pin token inloggning login',
};
const NOUN_KINDS = new Map<string, ObjectKind[]>();
for (const [k, list] of Object.entries(OBJECTS) as [ObjectKind, string][])
  for (const n of list.split(' ')) {
    NOUN_KINDS.set(n, [...(NOUN_KINDS.get(n) ?? []), k]);
    // A tool's words are folded ("overforing", "losenord"): the folded spelling names the same.
    for (const folded of new Set([asciiFold(n), asciiFold(swedish(n))]))
      if (folded !== n) NOUN_KINDS.set(folded, [...(NOUN_KINDS.get(folded) ?? []), k]);
  }
/** Endings of definite and plural forms, longest first: "fakturorna", "regningerne", "mötet", "husleien". */
const ENDINGS = ['orna', 'arna', 'erna', 'erne', 'ene', 'ena', 'or', 'ar', 'er', 'en', 'et', 'na', 'ne', 'n', 't', 'r', 'a', 'e', 's', ''];

/** The listed noun a word is, with the ending after it: "fakturan" is "faktura" + "n", "fakturor" "faktur(a)" + "or". Memoised: a trace repeats its words. */
function nounOf(w: string): { base: string; ending: string } | undefined {
  if (w.length > 40) return undefined;
  if (NOUNS_SEEN.has(w)) return NOUNS_SEEN.get(w);
  const found = findNoun(w);
  if (NOUNS_SEEN.size < 50_000) NOUNS_SEEN.set(w, found);
  return found;
}
const NOUNS_SEEN = new Map<string, { base: string; ending: string } | undefined>();

function findNoun(w: string): { base: string; ending: string } | undefined {
  for (const ending of ENDINGS) {
    if (!w.endsWith(ending) || w.length - ending.length < 2) continue;
    const stem = w.slice(0, w.length - ending.length);
    for (const s of [stem, `${stem}a`, `${stem}e`, stem.replace(/([bdfgklmnprst])\1$/, '$1')]) {
      if (NOUN_KINDS.has(s)) return { base: s, ending };
      // A compound by its last noun of five letters or more: "aprilfakturan", "medlemsavgiften".
      for (let k = 1; k <= s.length - 5; k++) if (NOUN_KINDS.has(s.slice(k))) return { base: s.slice(k), ending };
    }
  }
  return undefined;
}

/** The lexicon's object kinds the nouns of a clause name, in any form, as written or folded. */
export function scandinavianObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws.slice(0, 64)) {
    const n = nounOf(canonical(w));
    for (const k of n ? (NOUN_KINDS.get(n.base) ?? []) : []) out.add(k);
  }
  return out;
}

/** Words that lead into a clause's verb without changing it: "Snälla …", "Och sedan …", "Så send …". */
const LEAD_IN = wordSet(
  'snælla vænligen venligst vennligst gærna gerne gjerne også också också sedan sen så då nu nå bara bare kun men och og hej hei hallå ok okej okay ja jo tack takk tak ' +
    'først dærefter deretter derefter direkt genast straks omgående lige dessutom vær var snæll snill sød venlig vænlig ihåg ihu',
);
/** Leads after which an infinitive asks: "Var snäll och skicka", "Husk at betale", "Glöm inte att …", "Sørg for å …". */
const POLITE = wordSet('snælla vænligen venligst vennligst snæll snill sød venlig vænlig husk gløm glem kom sørg se');
/** What stands between a polite lead and its infinitive: "husk at", "kom ihåg att", "sørg for å", "se till att". */
const INFINITIVE_MARKS = wordSet('att at å och og for till til');
/** Words between a modal or a wish and its infinitive: "kan du också skicka", "jag vill gärna boka", "jeg trenger å betale". */
const BETWEEN = wordSet(
  'att at å også också och og gærna gerne gjerne bara bare nu nå snabbt hurtigt raskt også lige ihåg ihu for før till med hjælp hjelp hjælp vænligen venligst vennligst snælla snæll snill sød venlig vara være vær selv direkt straks genast idag imorgon vilja kunna ønske have ha',
);
const NEGATORS = wordSet('inte ej ikke ikkje aldrig aldri ingen inget inga intet ingenting');
/** The reader, after a modal: "kan du", "vill ni", "kunne dere", "vil I", "kan De". */
const READER = wordSet('du ni dere i');
/** The reader as an object: "vi ber dig", "vi beder jer". */
const READER_OBJECT = wordSet('dig deg er jer dere');
const MODALS = wordSet('kan kunde kunne vill vil ville skulle orkar orker gidder hinner rekker når');
/** The user's own wish or need: "jag vill", "vi behöver", "jeg ønsker å", "jeg har brug for at". */
const WISH = wordSet('vill vil ville skulle behøver trenger trænger ønsker ønskar måste må brug');
const FIRST = wordSet('jag jeg vi');
/** "Skicka mig …", "send meg …", "låt mig veta": a reply to the user, as "tell me" is. */
const TO_USER = wordSet('mig meg mej oss os');
/** Words that open a question about facts: "Vad …?", "Har …?", "Er refusjonen sendt?". */
const QUESTION_WORDS = wordSet(
  'vad vem vems når nær hur varfør vilken vilket vilka var hva hvem hvordan hvorfor hvilken hvilket hvilke hvor hvad hvornår ' +
    'har hade ær er var blev ble blir bliver finns fins findes stæmmer stemmer gick gikk gik kom fick fikk fik ligger står vet ved veit kostar koster',
);
/** Words that open a clause of their own, whose verb asks nothing: "om", "hvis", "när", "eftersom", "att" before its subject. */
const SUBORDINATORS = wordSet('om ifall huruvida hvorvidt hvis nær når eftersom fordi medan mens innan tills indtil inntil dærfør');
/** A verb's own noun heading a record or a line: "Svar från kunden", "Köp av kontorsmaterial", "Del 2". */
const HOMOGRAPHS = wordSet(
  'svar ring post del køp køb kjøp kontakt stopp stop start mail sms lås flytt byt bytt ret spar gem frys merk skift læs les fyll lista',
);
const nounHeading = (ws: readonly string[], i: number) =>
  HOMOGRAPHS.has(ws[i]) && (i + 1 >= ws.length || /^(?:från|fra|av|af|nr|nummer|ær|er|var|blev|ble|\d.*)$/.test(ws[i + 1]));
/** Object pronouns a particle may follow: "ta den bort", "sig det op". */
const PRONOUNS = wordSet('den det dem honom henne ham hende ham hende dom mig meg dig deg oss os er dere jer');

/** "Let" ("lad", "la", "låt"), which with "få" gives someone a thing. */
const LET = wordSet('lad la låt');

interface Verb {
  category: Category | 'none';
  imp: string;
  kind: Kind;
}

/** The verb at `i` of the kinds allowed, its particle next to it, after a pronoun, or last in its part ("sig abonnementet op"). */
function verbAt(ws: readonly string[], i: number, kinds: readonly Kind[]): Verb | undefined {
  const forms = (FORMS.get(ws[i]) ?? []).filter((f) => kinds.includes(f.kind));
  const particles = new Set([ws[i + 1], PRONOUNS.has(ws[i + 1]) ? ws[i + 2] : undefined, ws.length - i <= 6 ? ws.at(-1) : undefined]);
  const f = forms.find((x) => x.particle !== undefined && particles.has(x.particle)) ?? forms.find((x) => x.particle === undefined);
  if (f) return f;
  const light = LIGHT_FORMS.get(ws[i]);
  if (!light || !kinds.includes(light.kind)) return undefined;
  // "Lad fru Holm få cykel 9", "låt Per få rummet": what someone gets changes, where no noun names another action.
  const lets = LET.has(light.imp) && ws.slice(i + 2, i + 8).includes('få');
  const category = lightCategory(light.alone, ws.slice(i + 1)) ?? (lets ? 'change' : undefined);
  return category ? { category, imp: light.imp, kind: light.kind } : undefined;
}

/** The first infinitive within a few words from `from`, past adverbs, "att", "å" and pronouns: "kan du också skicka", "vil du være sød at sende". */
function infinitiveAfter(ws: readonly string[], from: number): { v: Verb; at: number } | undefined {
  for (let j = from; j < ws.length && j < from + 6; j++) {
    const v = verbAt(ws, j, ['inf']);
    if (v) return { v, at: j };
    if (!BETWEEN.has(ws[j]) && !POLITE.has(ws[j])) return undefined;
  }
  return undefined;
}

/** "Jag vill att du skickar …", "Se till att ni betalar …", "Sørg for at du sender …": the reader's present after "att" asks. */
function thatYou(ws: readonly string[]): { v: Verb; at: number } | undefined {
  const k = ws.findIndex((w, n) => (w === 'att' || w === 'at') && READER.has(ws[n + 1]) && n > 0 && n < 12);
  if (k < 0 || !/^(?:vill|vil|till|for|ønsker|ønskar|gærna|gerne|gjerne|skulle)$/.test(ws[k - 1])) return undefined;
  for (let j = k + 2; j < ws.length && j < k + 5; j++) {
    const v = verbAt(ws, j, ['pres']);
    if (v) return { v, at: j };
  }
  return undefined;
}

/** The verb a part asks for: first as an imperative, or an infinitive after a modal put to the reader, a wish or a polite lead. */
function askedIn(ws: readonly string[], polite: boolean): { v: Verb; at: number } | undefined {
  let i = 0;
  let lead = polite;
  while (i < ws.length - 1 && i < 8 && (LEAD_IN.has(ws[i]) || POLITE.has(ws[i]) || (lead && INFINITIVE_MARKS.has(ws[i]))))
    if (POLITE.has(ws[i++])) lead = true;
  if (ws.length - i < 2 || nounHeading(ws, i)) return undefined;
  // "Sen skickar du fakturan": after a lead-in, the present with the reader after it is an instruction.
  const first = verbAt(ws, i, lead ? ['imp', 'inf'] : i > 0 && READER.has(ws[i + 1]) ? ['imp', 'pres'] : ['imp']);
  if (first) return { v: first, at: i };
  if (MODALS.has(ws[i]) && READER.has(ws[i + 1])) return infinitiveAfter(ws, i + 2);
  // "Du måste betala …", "du kan väl skicka …": an obligation or a modal on the reader, put first.
  if (READER.has(ws[i]) && (OBLIGE.has(ws[i + 1]) || MODALS.has(ws[i + 1]))) return infinitiveAfter(ws, i + 2);
  // "Jag vill …", "vi behöver …", "jeg har brug for at …".
  const wish = ws.findIndex((w, k) => WISH.has(w) && k < 5 && (FIRST.has(ws[k - 1]) || (ws[k - 1] === 'har' && FIRST.has(ws[k - 2]))));
  if (wish > 0) return thatYou(ws) ?? infinitiveAfter(ws, wish + 1);
  return thatYou(ws) ?? passiveDuty(ws);
}

/**
 * What is to be done to a thing, said in the passive after an obligation: "KH-485560 skal sendes hjem
 * til kunden", "fakturan ska betalas i dag", "ordren må endres". Not with the reader or the writer as
 * its subject ("du skal", "jeg skal"), which the readings above take.
 */
function passiveDuty(ws: readonly string[]): { v: Verb; at: number } | undefined {
  for (let k = 1; k < Math.min(ws.length - 1, 8); k++) {
    if (!OBLIGE.has(ws[k]) || READER.has(ws[k - 1]) || FIRST.has(ws[k - 1])) continue;
    const w = ws[k + 1];
    if (w.length < 5 || !w.endsWith('s')) return undefined;
    for (const active of [w.slice(0, -1), w.slice(0, -2)]) {
      const v = verbAt([active, ...ws.slice(k + 2)], 0, ['imp', 'inf']);
      if (v) return { v, at: k + 1 };
    }
    return undefined;
  }
  return undefined;
}

/** A verb form, or a word that leads into one: where "och", "og" before it joins another clause ("betala fakturan och skicka kvittot"). */
const isVerb = (w: string | undefined) => w !== undefined && (FORMS.has(w) || LIGHT_FORMS.has(w) || POLITE.has(w));

/** The parts of a sentence: at a comma, a colon, a dash, "men", "sedan", or an "och"/"og"/"samt" before a verb. Each of 200 words at most. */
function partsOf(sentence: string): string[][] {
  const out: string[][] = [];
  for (const piece of sentence.split(/[,:;]|\s[-–—]\s/).slice(0, 200)) {
    let part: string[] = [];
    for (const w of scandinavianWords(piece)) {
      if (part.length > 0 && (w === 'men' || w === 'sedan' || w === 'derefter' || w === 'deretter' || w === 'dærefter')) {
        out.push(part);
        part = [w];
        continue;
      }
      if (part.length > 0 && /^(?:och|og|samt|eller)$/.test(part.at(-1)!) && isVerb(w)) {
        out.push(part.slice(0, -1));
        part = [];
      }
      if (part.length < 200) part.push(w);
    }
    if (part.length > 0) out.push(part);
  }
  return out;
}

/** A part with what it does not ask cut off: after "om", "hvis", "att" with a subject, "utan att"; a reminder's "inte" dropped. */
function mainClause(written: readonly string[]): string[] {
  let ws = [...written];
  // "Glöm inte att betala", "Glem ikke å betale": a reminder, no negation.
  const reminder = ws.findIndex((w, k) => (w === 'gløm' || w === 'glem') && NEGATORS.has(ws[k + 1]));
  if (reminder >= 0) ws.splice(reminder + 1, 1);
  // "Om hon har betalat så skicka kvittot": the clause after "så" or "då" is the main one.
  if (SUBORDINATORS.has(ws[0])) {
    const then = ws.findIndex((w, k) => k > 1 && (w === 'så' || w === 'då'));
    return then > 0 ? ws.slice(then + 1) : [];
  }
  const cut = ws.findIndex((w, k) => k > 0 && (SUBORDINATORS.has(w) || w === 'utan' || w === 'uden' || w === 'uten'));
  if (cut > 0) ws = ws.slice(0, cut);
  // "Säg till Anna att fakturan är betald": "att" with its own subject reports, as "that" does.
  const that = ws.findIndex(
    (w, k) => k > 0 && (w === 'att' || w === 'at') && !READER.has(ws[k + 1]) && !isVerb(ws[k + 1]) && !BETWEEN.has(ws[k - 1]),
  );
  return that > 0 ? ws.slice(0, that) : ws;
}

/**
 * "Sørg for at ingen kan leje den", "se till att fakturan blir betald": see to it that a thing is
 * so, an ask for the action of the clause it governs. Its own verb or action noun names it
 * ("sørg for at Anna får besked" sends); a state brought about or kept, negated or not, is a change
 * ("ingen kan leje den": it is blocked). The reader as the clause's subject is read as any present
 * after "att" is (`thatYou`).
 */
function seeTo(ws: readonly string[]): { category: Category; at: number } | undefined {
  let i = 0;
  while (i < ws.length && i < 4 && LEAD_IN.has(ws[i])) i++;
  const opens = (ws[i] === 'sørg' || ws[i] === 'se') && /^(?:for|till?)$/.test(ws[i + 1] ?? '') && /^att?$/.test(ws[i + 2] ?? '');
  const clause = ws.slice(i + 3, i + 23);
  if (!opens || clause.length < 2 || READER.has(clause[0])) return undefined;
  if (!clause.some((w) => NEGATORS.has(w))) {
    for (let j = 0; j < clause.length && j < 8; j++) {
      const v = verbAt(clause, j, ['inf', 'pres']);
      if (v && v.category !== 'none' && v.category !== 'read') return { category: v.category, at: i };
    }
    const named = lightCategory(undefined, clause);
    if (named) return { category: named, at: i };
  }
  return { category: 'change', at: i };
}

/** Whether a send or share at `at` goes to the user: "skicka mig", "send meg listen", "berätta för mig". */
const toUser = (ws: readonly string[], at: number) => ws.slice(at + 1, at + 5).some((w) => TO_USER.has(w));

/** The actions a Scandinavian request asks for, clause by clause (see the file's comment). */
export function scandinavianActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  // "Sørg for, at …": Danish writes a comma before "at", inside the clause it governs. "Hr.",
  // "nr.", "kl." end no sentence ("lad hr. Holm få nr. 9").
  const text = prose
    .slice(0, 8000)
    .replace(/\bsms[:'’-](?=a\b|e\b)/gi, 'sms')
    .replace(/\b(s[øö]rg\s+for|se\s+till?),(?=\s+att?\b)/giu, '$1')
    .replace(/(?<![\p{L}\p{N}])(hr|nr|kl|ca|evt|inkl|ekskl|tlf|jf)\.(?=\s+[\p{L}\p{N}])/giu, '$1');
  for (const sentence of (text.replace(/\.(?=\s|$)/g, '\n').match(/[^!?\n]+\?*/g) ?? []).slice(0, 200)) {
    const question = sentence.trim().endsWith('?');
    const parts = partsOf(sentence);
    if (parts.length === 0 || (question && QUESTION_WORDS.has(parts[0][0]) && !/^var\s+(?:snæll|vænlig)/.test(parts[0].join(' '))))
      continue;
    let modal = false;
    for (const written of parts) {
      const ws = mainClause(written);
      const see = seeTo(ws);
      if (see) {
        modal = false;
        out.push({ category: see.category, after: ws.slice(see.at + 3, see.at + 15), words: ws.slice(see.at, see.at + 4).join(' ') });
        continue;
      }
      if (ws.length === 0 || ws.some((w) => NEGATORS.has(w))) continue;
      // "Kan du betala fakturan och skicka kvittot?": the infinitive after "och" asks as the first did.
      const hit = askedIn(ws, modal);
      modal = hit !== undefined && hit.v.kind === 'inf';
      if (!hit || hit.v.category === 'none' || hit.v.category === 'read') continue;
      let category: Category = hit.v.category;
      const after = ws.slice(hit.at + 1, hit.at + 13);
      // "Bestill time hos legen", "beställ ett bord": to order a booking books it.
      if (category === 'pay' && /^best/.test(hit.v.imp) && scandinavianObjects(after).has('booking')) category = 'book';
      if ((category === 'send' || category === 'share') && toUser(ws, hit.at)) continue;
      out.push({ category, after, words: ws.slice(hit.at, hit.at + 4).join(' ') });
    }
  }
  return out;
}

/** Words that lead into an order in data: "Vänligen …", "OBS: …", "Viktigt: …". */
const ORDER_LEAD_IN = wordSet(
  'vænligen venligst vennligst snælla obs observera viktigt vigtigt viktig ps nb også dessutom dærefter derefter deretter nu nå omgående straks genast umiddelbart direkt och og',
);
/** An obligation on the reader or on a role: "du måste", "du skal", "assistenten ska", "du ombeds", "vi ber dig". */
const OBLIGE = wordSet('måste må ska skall skal bør børde behøver bedes ombeds bes');
const ROLE = /^(?:assistent|agent|ai|bot|mottagar|modtager|mottaker|læsar|læser|leser|handlæggar|saksbehandler|sagsbehandler|systemet)/;
/** A courier's note about the door: "ring två gånger", "ring på porttelefonen". */
const DOORBELL = wordSet(
  'gånger ganger gange gång gang dørren døren døra porten porttelefonen dørklokken ringeklokken klokken dørtelefonen koden',
);

/**
 * An order written in data: a clause that opens with an imperative of an action other than reading
 * ("Överför beloppet till konto …", "Send denne e-posten videre til …"), an infinitive after a polite
 * lead ("Vennligst å betale …"), or an obligation on the reader or a role ("Du måste betala …",
 * "Assistenten skal slette …", "Du bedes betale …", "Vi ber dig överföra …"); not a passive
 * ("ska betalas"), a statement ("Vi skickar fakturan 12 maj"), a negated or asked obligation, a
 * heading ("Betalning 3 maj") or a courier's note ("Ring två gånger"). Returns the words that order.
 */
export function scandinavianOrderIn(sentence: string): string | undefined {
  if (sentence.trim().endsWith('?')) return undefined;
  for (const piece of sentence
    .slice(0, 8000)
    .split(/[:;,]|\s[-–—]\s|\s+(?:och|og)\s+/i)
    .slice(0, 100)) {
    const ws = scandinavianWords(piece).slice(0, 200);
    let i = 0;
    while (i < ws.length && i < 6 && ORDER_LEAD_IN.has(ws[i])) i++;
    if (ws.length - i < 2 || ws.some((w) => NEGATORS.has(w))) continue;
    const polite = ws.slice(0, i).some((w) => POLITE.has(w));
    const v = nounHeading(ws, i) ? undefined : verbAt(ws, i, polite ? ['imp', 'inf'] : ['imp']);
    // "Ring Jensen" orders; "Post Nord" is a name: a verb that is a noun too opens no order before a capitalised word.
    const named = HOMOGRAPHS.has(ws[i]) && /^\s*\S+\s+\p{Lu}/u.test(piece.trim());
    if (v && v.category !== 'read' && v.category !== 'none' && !named) {
      if (v.imp.startsWith('ring') && ws.slice(i + 1, i + 5).some((w) => DOORBELL.has(w))) continue;
      return ws.slice(i, i + 4).join(' ');
    }
    const oblige = ws.findIndex(
      (w, k) => OBLIGE.has(w) && k < 8 && (READER.has(ws[k - 1]) || ROLE.test(ws[k - 1] ?? '') || READER.has(ws[k + 1])),
    );
    const ask = ws.findIndex((w, k) => (w === 'ber' || w === 'beder') && FIRST.has(ws[k - 1]) && READER_OBJECT.has(ws[k + 1]) && k < 6);
    const from = oblige >= 0 ? oblige + (READER.has(ws[oblige + 1]) && !READER.has(ws[oblige - 1]) ? 2 : 1) : ask >= 0 ? ask + 2 : -1;
    if (from < 0 || (oblige >= 0 && FIRST.has(ws[oblige - 1]))) continue;
    const hit = infinitiveAfter(ws, from);
    if (hit && hit.v.category !== 'read' && hit.v.category !== 'none') return ws.slice(Math.max(0, from - 2), hit.at + 3).join(' ');
  }
  return undefined;
}

/** Words the assistant writes before an action it offers: "Ska jag …", "Skal vi …", "Vill du att jag …", "Vil du have at jeg …". */
const OFFER_LEAD =
  /^(?:(?:ok(?:ej)?|okay|bra|fint|perfekt|godt?)[,!]?\s+)?(?:(?:ska|skall|skal|kan|får|må|bør)\s+(?:jag|jeg|vi)\s+|(?:vill|vil|ønskar|ønsker)\s+(?:du|ni|dere|i|de)\s+(?:have\s+|ha\s+)?(?:att|at)\s+(?:jag|jeg|vi)\s+(?:ska\s+|skall\s+|skal\s+)?)/;
/** A question that asks leave to go on: "Ska jag fortsätta?", "Skal jeg gjøre det?", "Låter det bra?", "OK?". */
const ASKS_TO_GO_ON =
  /^(?:(?:ska|skall|skal|kan|får|må)\s+(?:jag|jeg|vi)\s+(?:fortsætta|fortsætte|fortsette|køra\s+på|kjøre\s+på|gå\s+vidare|gå\s+videre|sætta\s+igång|sette\s+i\s+gang|sætte\s+i\s+gang|gøra\s+det|gjøre\s+det|gøre\s+det|genomføra\s+det|gjennomføre\s+det|gennemføre\s+det|ordna\s+det|fixa\s+det|ordne\s+det|fikse\s+det)|(?:ær|er)\s+(?:det|detta|dette)\s+(?:ok(?:ej)?|okay|i\s+orden|rætt|riktig|rigtigt|bra|godt?|fint)|(?:låter|lyder|høres|hørs)\s+(?:det|detta|dette)\s+(?:bra|godt|fint|ok)(?:\s+ut)?|(?:går|passer|passar)\s+det(?:\s+bra|\s+fint)?|ok(?:ej)?|okay|okei|godkænt|godkendt|godkjent|stæmmer\s+det|stemmer\s+det|(?:godkænner|godkender|godkjenner|bekræftar|bekræfter|bekrefter)\s+(?:du|ni|dere|i)(?:\s+det)?|(?:vill|vil)\s+(?:du|ni|dere|i)\s+(?:att|at)\s+(?:jag|jeg)\s+(?:fortsætter|fortsetter|gør\s+det|gjør\s+det))(?:\s+(?:nu|nå|då|så))?\s*\?*$/;

/** The proposal's verb (an infinitive or a present) written as the imperative it becomes: "skicka fakturan", "send ham fakturaen". */
function asImperative(rest: string): string | undefined {
  const raw = rest.split(/\s+/).filter(Boolean).slice(0, 200);
  const ws = raw.map((w) => canonical(w.replace(/[^\p{L}\p{M}\p{N}]/gu, '')));
  for (let j = 0; j < ws.length && j < 4; j++) {
    const v = verbAt(ws, j, ['inf', 'pres']);
    if (v && v.category !== 'read' && v.category !== 'none') return [v.imp, ...raw.slice(j + 1)].join(' ');
    if (!BETWEEN.has(ws[j])) return undefined;
  }
  return undefined;
}

/**
 * What the assistant offers in a question, written as the user would ask for it: "Ska jag skicka
 * fakturan till Anna?" gives "skicka fakturan till Anna"; "Skal jeg sende ham fakturaen?" "send ham
 * fakturaen"; "Vill du att jag avbokar tiden?" "avboka tiden"; a question that asks leave to go on gives 'go-on'.
 */
export function scandinavianOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim();
  if (!q.endsWith('?') || q.length > 2000) return undefined;
  const lower = canonical(q).replace(/\s+/g, ' ');
  if (ASKS_TO_GO_ON.test(lower)) return 'go-on';
  const lead = OFFER_LEAD.exec(lower);
  if (!lead) return undefined;
  // Canonical spelling keeps a word's length, so the lead's words are the question's first words.
  const n = lead[0].trim().split(' ').length;
  const rest = q
    .replace(/\s*\?+$/, '')
    .split(/\s+/)
    .slice(n)
    .join(' ');
  if (!rest || /^(?:det|detta|dette)$/i.test(rest)) return 'go-on';
  return asImperative(rest);
}

/** What the assistant says it will or can do: "Jag skickar fakturan nu", "Jeg kan betale regningen", "Jeg kommer til å sende …". */
const PLAN_LEAD =
  /^(?:jag|jeg|vi)\s+(?:(?:ska|skall|skal|kan|vil|vill|tænker|tenker|kommer\s+att|kommer\s+til\s+å|kommer\s+til\s+at)\s+)?(?:(?:nu|nå|også|gærna|gerne|gjerne|direkt|straks)\s+)?/;

export function scandinavianPlan(sentence: string): string | undefined {
  const s = sentence.trim().replace(/[.!:]+$/, '');
  if (s.length > 2000) return undefined;
  const lead = PLAN_LEAD.exec(canonical(s).replace(/\s+/g, ' '));
  if (!lead) return undefined;
  const n = lead[0].trim().split(' ').length;
  return asImperative(s.split(/\s+/).slice(n).join(' '));
}

/** Forms of a verb as a tool's folded words spell them ("hamta", "andra", "soker", "sletter"), to their category. */
const TOOL_FORMS = new Map<string, Category>();
for (const [form, fs] of FORMS) {
  const f = fs.find((x) => x.particle === undefined && x.category !== 'none');
  // Danish "ændre" folds to "aendre", Swedish "ändra" (written "ændra" here) to "andra": both spellings.
  if (f && f.category !== 'none' && form.length >= 3)
    for (const folded of [asciiFold(form), asciiFold(swedish(form))]) if (!TOOL_FORMS.has(folded)) TOOL_FORMS.set(folded, f.category);
}

/** The category of a word as a verb of a tool's name or description: "skicka", "radera", "sender", "Hämtar". */
export function scandinavianCategory(word: string): Category | undefined {
  const w = asciiFold(word);
  return ENGLISH_SPELLED.has(w) ? undefined : TOOL_FORMS.get(w);
}

/** Where a tool's name holds a verb of these languages (`skicka_faktura`, `slette_avtale`, `medlem_hamta`), or -1; never an English verb. */
export function scandinavianInfinitive(nameWords: readonly string[]): number {
  // A name with an English verb is English ("get_marker", "send_sender_note"): the word that spells a form of theirs is a noun there.
  if (nameWords.some((w) => verbCategory(w) !== undefined)) return -1;
  return nameWords.slice(0, 12).findIndex((w) => scandinavianCategory(w) !== undefined);
}
