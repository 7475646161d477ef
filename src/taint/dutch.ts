/**
 * Requests written in Dutch (docs/taint-policy.md, "Requests in Dutch"). The English parse finds no
 * verb in "Stuur hem de factuur door" or "Kun je de huur van maart overmaken?", and so asks for
 * nothing: every call of a Dutch-speaking team would be blocked as unasked. Dutch places its verbs
 * as German does, and this reads them by where they stand: first in a clause, the imperative
 * ("Stuur …", "Betaalt u …", "dan boek je …"), with a separable verb's particle later in it ("stuur
 * de factuur door", "plan een afspraak in", "boek het bedrag terug"); or last, the infinitive, after
 * a modal put to the reader or a polite lead ("Kun je de factuur sturen?", "Graag de huur
 * overmaken", "Vergeet niet de factuur te betalen", "Zorg dat je hem belt"). A clause with "niet",
 * "geen" or "nooit", a question that opens with a question word or asks whether something is so
 * ("Is de terugbetaling al verstuurd?"), a clause after "of" (whether) or "als" (if), a participle
 * ("de betaalde factuur", "is verstuurd") and a reply to the user ("stuur me …") ask for nothing.
 * What a verb asks for is one of the lexicon's categories, so a Dutch request and a tool in any
 * language meet on the same labels. A tool named or described with a Dutch verb is read with it.
 */
import { wordSet, type Category, type ObjectKind } from './lexicon.js';
import type { LanguageAction } from './languages.js';
// One spelling for a Dutch word: lower case, accents dropped ("één", "beëindig").
import { fold } from './spanish.js';

/** The words of a text in their one spelling; "a.u.b." and "e-mail" are one word each. */
export function dutchWords(text: string): string[] {
  const joined = text
    .toLowerCase()
    .replace(/\ba\.\s?u\.\s?b\.?/g, 'aub')
    .replace(/\be-(?=mail)/g, 'e');
  return (joined.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map(fold);
}

/** Function words only Dutch writes, of the languages read here and English ("een", "het", "niet", "naar", "graag"). */
const DUTCH_OWN = wordSet(
  'terug klaar daar iets niets veel heel erg zo toch nee vanavond volgende maand een het niet geen naar voor van met op aan bij uit ook nog maar dat deze wat ik jij jou jouw jullie hij zij ze wij mij mijn uw ons onze hem haar hun hen zich zijn heb hebt heeft hebben wordt kan kun kunt wil wilt zou zouden zal zullen moet moeten graag alsjeblieft alstublieft aub bedankt mevrouw meneer dhr mevr hoe waar wanneer waarom welke hoeveel ook nu dus omdat zonder tegen vandaag gisteren straks alvast even wel daarna vervolgens tot',
);
/** Words Dutch writes that another language writes as well ("de", "en", "te" in Spanish and French, "je" and "dit" in French). */
const DUTCH_SHARED = wordSet('de en te je u dit dan al die');
/** Words Dutch and English both write often ("is", "in", "we", "of"): they tell neither. */
const NEUTRAL = wordSet('is in was we me of over');
/** The other languages' function words (English, Spanish, Portuguese, French, Italian, German): a text with more of them is not Dutch. */
const OTHER_OWN = wordSet(
  'the of and to in is for on with that this it my an be are at by from please me you your our we was were have has will would can could should ' +
    'el los las y con por para una del es está muy pero cuando este esta lo le les su sus ' +
    'os um uma não com em da do na no é são ao aos pelo pela você ' +
    'et est une pour dans sur au aux ce cette ces vous nous il ils elle elles ne pas avec par qui où moi lui ' +
    'il della che di per non sono anche ho ha gli questo questa grazie ' +
    'der das und ist nicht ein eine einen mit für von zu auf bitte ich sie wir den dem ihr ihm ihn uns mir oder auch noch frau herr herrn',
);

/**
 * Whether a text is written in Dutch: a word only Dutch writes at least, two of its function words
 * at least, and more Dutch-only words than the other languages' own (so "de" and "en", which
 * Spanish and French write, make no Spanish text Dutch, and a German "die" no German one). Its first 4,000 characters.
 */
export function readsAsDutch(text: string): boolean {
  let own = 0;
  let shared = 0;
  let other = 0;
  let verb = false;
  for (const w of dutchWords(text.slice(0, 4000).replace(NAME_PARTICLES, ' '))) {
    if (DUTCH_OWN.has(w)) own++;
    else if (DUTCH_SHARED.has(w)) shared++;
    else if (OTHER_OWN.has(w) && !NEUTRAL.has(w)) other++;
    else if (!verb && !ENGLISH_SPELLED.has(w) && (FORMS.get(w) ?? []).some((f) => f.kind === 'imperative' && !f.fused)) verb = true;
  }
  if (own <= other && other > 0) return false;
  // "Bel de klant terug": with none of the others' words, a Dutch imperative and one Dutch word besides say it.
  return (own >= 1 && own + shared >= 2) || (other === 0 && verb && own + shared >= 1);
}
/** A surname's particles ("van der Meer", "de Jong", "van Dijk"): a Dutch name in a text of any language. */
const NAME_PARTICLES = /\b(?:[Vv]an|[Dd]e[nr]?|[Tt]e[nr])\s+(?:(?:der|den|de|het|ter|ten)\s+)?(?=\p{Lu})/gu;
/** Dutch verbs English writes the same ("plan", "post", "start"): they say nothing of a text's language. */
const ENGLISH_SPELLED = wordSet('plan post start check mail email sms app update stop deploy forward tweet reset whatsapp');

/**
 * Verbs by the action they name, as their stem (the imperative: "stuur", "betaal"), `particle|stem`
 * for a separable verb ("door|stuur": doorsturen, "stuur … door"), and `=infinitive` where it is not
 * the stem's regular one ("geef=geven"). A separable verb whose particle turns it to another action
 * is listed under that one ("boek|terug" pays, "zeg|op" cancels); one under `none` asks nothing of
 * the reader ("bel|aan": ring the doorbell, a courier's note).
 */
const STEMS: Record<Category | 'none', string> = {
  read:
    'zoek zoek|op zoek|uit zoek|na vind bekijk kijk kijk|na controleer check lees lees|na toon haal|op vergelijk bereken tel ' +
    'download verifieer analyseer raadpleeg vat|samen vraag|op geef|weer',
  send:
    'stuur verstuur verzend zend stuur|door stuur|na stuur|terug stuur|op mail email mail|door sms=smsen app whatsapp bel bel|op ' +
    'bel|terug beantwoord antwoord informeer meld herinner waarschuw verwittig contacteer benader schrijf=schrijven ' +
    'geef=geven|door deel|mee vertel zeg vraag forward',
  share: 'deel geef=geven|vrij nodig|uit machtig autoriseer verleen',
  publish: 'publiceer post zet|online hang|op tweet=tweeten',
  pay:
    'betaal betaal|terug betaal|uit maak|over schrijf=schrijven|over stort stort|terug boek|terug boek|over vergoed restitueer ' +
    'crediteer incasseer factureer verreken voldoe=voldoen bestel koop koop|in schiet|voor keer|uit',
  book: 'boek reserveer plan plan|in agendeer',
  change:
    'wijzig pas|aan verander werk|bij update voeg|toe maak|aan voer|in vul|in registreer noteer verzet verplaats verleng ' +
    'bevestig accepteer keur|goed wijs=wijzen|af weiger blokkeer deblokkeer activeer deactiveer sluit|af sluit leg|vast ' +
    'sla=slaan|op zet|klaar markeer vink|aan koppel ontkoppel wijs=wijzen|toe draag|over stel|in stel|op vervang herstel ' +
    'corrigeer verhoog verlaag onderteken dien|in vraag|aan schrijf=schrijven|in meld|aan verwerk hernoem kopieer ' +
    'importeer reset vergrendel ontgrendel zet|om verhuis=verhuizen lever|in herplan',
  delete:
    'verwijder wis annuleer schrap zeg|op zeg|af meld|af trek|in hef|op haal|weg gooi|weg archiveer stop zet|stop ' +
    'herroep beeindig schrijf=schrijven|uit',
  exec: 'voer|uit installeer draai start deploy compileer',
  none: 'bel|aan geef=geven|af laat=laten|achter leg|neer zet|neer zet|af',
};

/** The regular infinitive of a stem: "stuur" sturen, "zet" zetten, "wijzig" wijzigen, "bestel" bestellen, "update" updaten. */
function infinitiveOf(stem: string): string {
  if (stem.endsWith('e')) return `${stem}n`;
  const long = /^(.*[^aeiou])(aa|ee|oo|uu)([^aeiouyw])$/.exec(stem);
  if (long) return `${long[1]}${long[2][0]}${long[3]}en`;
  if (/tel$/.test(stem)) return `${stem}len`;
  if (stem.length > 3 && /(?:ig|er|el|en|em)$/.test(stem)) return `${stem}en`;
  const short = /(?:^|[^aeiou])[aeiou]([bdfgklmnprst])$/.exec(stem);
  return short ? `${stem}${short[1]}en` : `${stem}en`;
}

type Kind = 'imperative' | 'finite' | 'infinitive';
interface Form {
  category: Category | 'none';
  particle?: string;
  /** The particle written on the form ("doorsturen"): the form stands alone, and its request writes it apart ("stuur … door"). */
  fused?: string;
  /** The stem, to write an offer as the request it becomes ("sturen" → "stuur"). */
  stem: string;
  kind: Kind;
}

/** Every form of every verb, to the entries it can be: the stem, the stem with "t", the infinitive, the particle fused to either. */
const FORMS: Map<string, Form[]> = (() => {
  const out = new Map<string, Form[]>();
  const add = (form: string, f: Form) => out.set(form, [...(out.get(form) ?? []), f]);
  for (const [category, list] of Object.entries(STEMS) as [Category | 'none', string][])
    for (const item of list.split(' ')) {
      const [head, particle] = item.split('|');
      const [stem, irregular] = head.split('=');
      const inf = irregular ?? infinitiveOf(stem);
      const finite = stem.endsWith('t') ? stem : `${stem}t`;
      const base = { category, stem, ...(particle ? { particle } : {}) };
      add(stem, { ...base, kind: 'imperative' });
      add(finite, { ...base, kind: 'finite' });
      add(inf, { ...base, kind: 'infinitive' });
      // "terugmailen", "terugsms'en": a verb that sends, sent back, still sends; the particle stands apart as any other does.
      if (category === 'send' && !particle && !list.includes(`${head}|terug`)) {
        add(`terug${inf}`, { category, stem, fused: 'terug', kind: 'infinitive' });
        add(`terug${finite}`, { category, stem, fused: 'terug', kind: 'finite' });
      }
      // "doorsturen", "doorstuurt", "(dat ik) doorstuur": in a clause that ends with its verb, the particle is written on it.
      if (particle) {
        add(particle + inf, { category, stem, fused: particle, kind: 'infinitive' });
        add(particle + finite, { category, stem, fused: particle, kind: 'finite' });
        add(particle + stem, { category, stem, fused: particle, kind: 'finite' });
      }
    }
  return out;
})();

/** Nouns by the lexicon's object kinds; a compound counts by its last noun ("huurfactuur", "terugbetaling"), a short noun only whole. */
const OBJECTS: Partial<Record<ObjectKind, string>> = {
  money:
    'geld bedrag factuur rekening betaling overboeking overschrijving euro eur huur borg borgsom aanbetaling voorschot ' +
    'terugbetaling restitutie vergoeding kosten tarief prijs salaris loon premie contributie incasso creditnota tegoed ' +
    'saldo iban boete nota storting schuld termijn',
  message:
    'mail email bericht berichtje mailtje sms brief herinnering bevestiging antwoord uitnodiging nieuwsbrief melding ' +
    'notificatie reactie appje mededeling briefje seintje',
  access: 'toegang rechten toestemming rol beheerder admin sleutel machtiging',
  booking: 'afspraak reservering boeking tafel kamer vlucht ticket kaartje tijdslot bezichtiging consult vergadering overleg zaal',
  publication: 'post advertentie aankondiging recensie review artikel blog tweet vacature publicatie',
  credential: 'wachtwoord pincode inloggegevens token',
};
const OBJECT_LISTS = Object.entries(OBJECTS).map(([k, list]) => [k, list.split(' ')] as [ObjectKind, string[]]);

export function dutchObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws) {
    // "facturen", "afspraken", "berichtjes", "auto's": a plural by its singular.
    const forms = [
      w,
      w.replace(/(?:en|s|'s)$/, ''),
      w.replace(/([^aeiou])\1en$/, '$1'),
      w.replace(/([^aeiou])en$/, '$1').replace(/([^aeiou])([aeiou])([^aeiou])$/, '$1$2$2$3'),
    ];
    for (const [k, nouns] of OBJECT_LISTS)
      if (nouns.some((n) => forms.some((f) => f === n || (n.length >= 5 && f.length > n.length && f.endsWith(n))))) out.add(k);
    // "betalingsregeling", "huurachterstand": a compound whose first noun is money is about money, whatever its last.
    if (MONEY_FIRST.some((n) => w.length >= n.length + 5 && (w.startsWith(n) || w.startsWith(`${n}s`)))) out.add('money');
  }
  return out;
}
const MONEY_FIRST = (OBJECTS.money ?? '').split(' ').filter((n) => n.length >= 5);

/** Words that lead into a clause's verb without changing it: "Graag …", "En dan …", "Daarna boek je …". */
const LEAD_IN = wordSet(
  'graag alsjeblieft alstublieft aub svp even nog ook dan daarna maar vervolgens nu eerst tenslotte verder wel gewoon alvast meteen direct snel ok oke okay ja prima goed dus en tevens trouwens hoi hallo hey gelieve',
);
/** Words that open a question about things, or whether something is so: it asks for nothing. */
const QUESTION_WORDS = wordSet(
  'wat wie wiens wanneer waar hoe waarom welke welk hoeveel hoelang waarheen waarvoor waarmee waarover is zijn was waren heeft hebt heb hebben had wordt worden werd staat staan klopt bestaat komt weet weten',
);
const NEGATORS = wordSet('niet geen nooit niets niks noch');
/** Words that open a clause of their own, whose verb stands last and asks nothing ("als ze betaald heeft", "of hij al belde"). */
const SUBORDINATORS = wordSet('als wanneer zodra indien omdat nadat voordat terwijl tenzij zodat dat of hoewel sinds totdat mits');
/** "Stuur me …", "laat mij weten": a reply to the user, as "tell me" is. */
const TO_USER = wordSet('me mij');
/** The reader, as the subject of a modal: "kun je", "wilt u", "zou jij". */
const READER = wordSet('je jij u jullie');
const MODALS = wordSet('kun kunt kan wil wilt zou zoudt moet mag');
/** The user's own wish: "ik wil graag …", "we zouden graag …". */
const WISH = wordSet('wil wilde wou zou willen zouden');
const FIRST = wordSet('ik wij we');
/** A subject other than the reader: its clause states what someone does. */
const OTHER_SUBJECTS = wordSet('ik wij we hij zij men iemand');
/** Words that ask for an infinitive at a clause's end: "graag", "gelieve", "vergeet niet", "zorg", "probeer", "verzoeke". */
const POLITE = wordSet('graag gelieve alsjeblieft alstublieft aub svp vergeet vergeten denk probeer verzoeke verzocht even zorg vraag');

/**
 * Verbs that carry no action of their own ("maak een afspraak", "doe de betaling", "geef hem toegang",
 * "neem contact op", "zet het op de site"): the noun after them says it, or a place others read
 * (publish); a few name one alone ("zet" changes).
 */
const LIGHT: Record<string, Category | undefined> = {
  // "Maak er een klachtzaak van", "maak een kopie": making a thing, where no noun names another action, writes it.
  maak: 'change',
  doe: undefined,
  geef: undefined,
  neem: undefined,
  regel: 'change',
  zet: 'change',
  plaats: 'publish',
  laat: undefined,
  breng: undefined,
  houd: undefined,
  hou: undefined,
  voer: undefined,
};
const LIGHT_FORMS: Map<string, { stem: string; kind: Kind }> = new Map(
  Object.keys(LIGHT).flatMap((stem) => {
    const inf = { doe: 'doen', geef: 'geven', laat: 'laten', neem: 'nemen', houd: 'houden', hou: 'houden' }[stem] ?? infinitiveOf(stem);
    // "zet", "laat": a stem that ends in "t" is its own finite form, and is read as the imperative.
    return [
      ...(stem.endsWith('t') ? [] : [[`${stem}t`, { stem, kind: 'finite' as Kind }] as const]),
      [stem, { stem, kind: 'imperative' as Kind }] as const,
      [inf, { stem, kind: 'infinitive' as Kind }] as const,
    ];
  }),
);
const ACTION_NOUNS: [string, Category][] = [
  ['betaling', 'pay'],
  ['overboeking', 'pay'],
  ['overschrijving', 'pay'],
  ['storting', 'pay'],
  ['restitutie', 'pay'],
  ['bestelling', 'pay'],
  ['aankoop', 'pay'],
  ['afspraak', 'book'],
  ['reservering', 'book'],
  ['boeking', 'book'],
  ['annulering', 'delete'],
  ['opzegging', 'delete'],
  ['wijziging', 'change'],
  ['aanpassing', 'change'],
  ['correctie', 'change'],
  ['mail', 'send'],
  ['bericht', 'send'],
  ['seintje', 'send'],
  ['belletje', 'send'],
  ['telefoontje', 'send'],
  ['appje', 'send'],
  ['contact', 'send'],
  ['weten', 'send'],
  ['hoogte', 'send'],
  ['cc', 'send'],
  ['toegang', 'share'],
  ['rechten', 'share'],
  ['toestemming', 'share'],
  ['aankondiging', 'publish'],
];
/** Places others read: "zet het op de site", "plaats het op Facebook", "deel het op LinkedIn". */
const VENUES = wordSet('site website facebook instagram linkedin twitter intranet prikbord portaal forum online nieuwsbrief');
const AGENDA = wordSet('agenda kalender planning');

/** The action of a light verb, by what follows or precedes it in its part (`around`), or what it names alone. */
function lightCategory(stem: string, around: readonly string[]): Category | undefined {
  if (around.some((w) => VENUES.has(w))) return 'publish';
  if (stem === 'zet' && around.some((w) => AGENDA.has(w))) return 'book';
  // "Laat me weten", "hou me op de hoogte": a reply to the user.
  if (around.some((w) => TO_USER.has(w))) return undefined;
  for (const w of around) {
    const hit = ACTION_NOUNS.find(([n]) => w === n || w === `${n}en` || w === `${n}s` || (n.length >= 5 && w.endsWith(n)));
    if (hit) return hit[1];
  }
  return stem === 'voer' ? 'exec' : LIGHT[stem];
}

/** A verb's own noun heading a record: "Plan van aanpak", "Post van 3 mei", "Boek: …". */
const HOMOGRAPHS = wordSet('plan post boek update check start mail sms app regel deel antwoord bel tweet stort koop verzet stop tel wis');
const nounHeading = (ws: readonly string[], i: number) =>
  HOMOGRAPHS.has(ws[i]) && (i + 1 >= ws.length || /^(?:van|nr|nummer|is|was|wordt|werd|staat|per|\d.*)$/.test(ws[i + 1]));

const ARTICLES = wordSet('de het een die dit deze mijn uw zijn haar');

/** The entry a verb-first form at `i` is, by the particle its part holds after it ("stuur … door", "zeg … op"). */
function entryAt(ws: readonly string[], i: number, forms: readonly Form[]): Form | undefined {
  const particles = new Set<string>();
  // A particle is the part's last word, or stands before a preposition ("stuur de factuur door naar Jan"), not before an article ("door de post").
  for (let j = i + 1; j < ws.length; j++) if (j === ws.length - 1 || !ARTICLES.has(ws[j + 1])) particles.add(ws[j]);
  return forms.find((f) => f.particle !== undefined && particles.has(f.particle)) ?? forms.find((f) => f.particle === undefined);
}

/** A clause that opens with a verb (after a lead-in): "Stuur …", "Betaalt u …", "dan boek je …". */
function verbFirst(ws: readonly string[]): LanguageAction[] {
  let i = 0;
  while (i < ws.length - 1 && LEAD_IN.has(ws[i])) i++;
  if (ws.length - i < 2 || nounHeading(ws, i)) return [];
  const after = ws.slice(i + 1, i + 13);
  const words = ws.slice(i, i + 4).join(' ');
  const light = LIGHT_FORMS.get(ws[i]);
  const next = ws[i + 1];
  const asked = (kind: Kind) => kind === 'imperative' || (kind === 'finite' && next === 'u');
  if (light && asked(light.kind)) {
    const particle = entryAt(
      ws,
      i,
      (FORMS.get(ws[i]) ?? []).filter((f) => f.particle !== undefined),
    );
    if (!particle) {
      const category = lightCategory(light.stem, after);
      return category ? [{ category, after, words }] : [];
    }
  }
  const f = entryAt(
    ws,
    i,
    (FORMS.get(ws[i]) ?? []).filter((x) => asked(x.kind)),
  );
  return f && f.category !== 'none' ? [{ category: f.category, after, words }] : [];
}

/** An infinitive at `j` with its particle: "sturen", "doorsturen", "door te sturen", "te betalen". */
function infinitiveAt(
  ws: readonly string[],
  j: number,
): { form: Form | { category: Category; stem: string; light: true }; from: number } | undefined {
  const light = LIGHT_FORMS.get(ws[j]);
  const forms = (FORMS.get(ws[j]) ?? []).filter((f) => f.kind === 'infinitive');
  const te = ws[j - 1] === 'te' ? 1 : 0;
  const particle = forms.find((f) => f.particle !== undefined && ws[j - 1 - te] === f.particle);
  if (particle) return { form: particle, from: j - 1 - te };
  const plain = forms.find((f) => f.particle === undefined);
  if (plain) return { form: plain, from: j - te };
  if (light?.kind === 'infinitive') {
    const category = lightCategory(light.stem, [...ws.slice(Math.max(0, j - 8), j), ...ws.slice(j + 1, j + 5)]);
    return category ? { form: { category, stem: light.stem, light: true }, from: j - te } : undefined;
  }
  return undefined;
}

/**
 * A clause that asks with an infinitive at its end: after a modal put to the reader ("Kun je de
 * factuur sturen?", "Zou u de huur willen overmaken?"), the user's wish ("Ik wil mijn abonnement
 * opzeggen") or a polite lead ("Graag de factuur doorsturen", "Vergeet niet de huur te betalen").
 * The last infinitive asks, and one joined to it by "en" ("betalen en … sturen").
 */
function verbLast(ws: readonly string[]): LanguageAction[] {
  const modal = ws.some((w, k) => MODALS.has(w) && (READER.has(ws[k + 1]) || READER.has(ws[k - 1])));
  const wish = ws.some((w, k) => WISH.has(w) && FIRST.has(ws[k - 1]));
  const polite = ws.some((w) => POLITE.has(w));
  if (!modal && !wish && !(polite && !ws.some((w) => OTHER_SUBJECTS.has(w)))) return [];
  const out: LanguageAction[] = [];
  // A Dutch clause ends with its verbs: the last 40 words hold them, however long the clause before.
  for (let j = ws.length - 1; j >= Math.max(1, ws.length - 40); j--) {
    if (j < ws.length - 1 && ws[j + 1] !== 'en' && out.length > 0) continue;
    const hit = infinitiveAt(ws, j);
    if (!hit || hit.form.category === 'none' || hit.form.category === 'read') continue;
    out.push({
      category: hit.form.category,
      after: [...ws.slice(Math.max(0, hit.from - 12), hit.from), ...ws.slice(j + 1, j + 7)],
      words: ws.slice(Math.max(0, hit.from - 2), j + 1).join(' '),
    });
    if (out.length >= 4) break;
  }
  return out;
}

/**
 * "Zorg dat je hem de factuur stuurt", "Ik wil dat u de borg terugbetaalt": the verb at the end of a
 * clause after "dat" and the reader asks, as an imperative would.
 */
function thatYou(ws: readonly string[]): LanguageAction[] {
  const k = ws.findIndex((w, n) => w === 'dat' && READER.has(ws[n + 1]) && n > 0);
  if (k < 0 || !/^(?:zorg|wil|wilt|zou|graag|ervoor|voor|vraag|verzoek)$/.test(ws[k - 1])) return [];
  const last = ws.length - 1;
  const f = (FORMS.get(ws[last]) ?? []).find((x) => x.kind !== 'imperative' && x.category !== 'none' && x.category !== 'read');
  if (f && f.category !== 'none')
    return [{ category: f.category, after: ws.slice(Math.max(k + 2, last - 12), last), words: ws.slice(k, k + 4).join(' ') }];
  return verbLast(ws.slice(k + 2)).length > 0 ? verbLast(['graag', ...ws.slice(k + 2)]) : [];
}

/** A verb form: where "en" before it joins another clause ("betaal de factuur en stuur hem …"). */
const isVerb = (w: string | undefined) => w !== undefined && (FORMS.has(w) || LIGHT_FORMS.has(w) || LEAD_IN.has(w));

/** A Dutch clause's verbs stand at its start or its end: a clause of thousands of words is read by its first and last 200. */
const ends = (piece: string) => (piece.length > 8_000 ? `${piece.slice(0, 4_000)} ${piece.slice(-4_000)}` : piece);

/** The parts of a sentence: at a comma, a dash, "maar", "daarna", or an "en"/"of" before a verb. */
function partsOf(sentence: string): string[][] {
  const out: string[][] = [];
  for (const piece of sentence.split(/[,:]|\s[-–—]\s/)) {
    let part: string[] = [];
    for (const w of dutchWords(ends(piece))) {
      if (part.length > 0 && (w === 'maar' || w === 'daarna' || w === 'vervolgens')) {
        out.push(part);
        part = [];
        continue;
      }
      if (part.length > 0 && (part.at(-1) === 'en' || part.at(-1) === 'of') && isVerb(w)) {
        part.pop();
        out.push(part);
        part = [];
      }
      part.push(w);
    }
    if (part.length > 0) out.push(part);
  }
  return out.map((p) => (p.length > 400 ? [...p.slice(0, 200), ...p.slice(-200)] : p));
}

/** The actions a Dutch request asks for, clause by clause (see the file's comment). */
export function dutchActions(prose: string): LanguageAction[] {
  const out: LanguageAction[] = [];
  for (const sentence of prose.replace(/\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const question = sentence.trim().endsWith('?');
    const parts = partsOf(sentence);
    if (parts.length === 0 || (question && QUESTION_WORDS.has(parts[0][0]))) continue;
    for (const written of parts) {
      let ws = written;
      // "Vergeet niet …", "niet vergeten …": a reminder, no negation.
      const reminder = ws.findIndex((w, k) => (w === 'vergeet' || w === 'vergeten') && (ws[k + 1] === 'niet' || ws[k - 1] === 'niet'));
      if (reminder >= 0) ws = ws.filter((w, k) => !(w === 'niet' && Math.abs(k - reminder) === 1));
      // "zonder hem te informeren": what follows "zonder" is not asked.
      const without = ws.indexOf('zonder');
      if (without >= 0) ws = ws.slice(0, without);
      // "Als ze betaald heeft dan stuur je …": the clause after "dan" is the main one.
      if (SUBORDINATORS.has(ws[0])) {
        const then = ws.indexOf('dan');
        ws = then > 0 ? ws.slice(then) : [];
      }
      ws = withoutNegatedRelatives(ws);
      if (ws.length === 0 || ws.some((w) => NEGATORS.has(w))) continue;
      const found = [...verbFirst(ws), ...thatYou(ws)];
      if (found.length === 0 && !ws.some((w, k) => w === 'of' && k > 0)) found.push(...verbLast(ws));
      if (found.length === 0 && !question) found.push(...allowedPassive(ws));
      for (const a of found.filter((x) => x.category !== 'read')) {
        const toUser = ws.some((w) => TO_USER.has(w)) || ws[ws.indexOf(a.words.split(' ')[0]) + 1] === 'ons';
        if (!((a.category === 'send' || a.category === 'share') && toUser)) out.push(a);
      }
    }
  }
  return out;
}

/** Pronouns that open a relative clause: "de kliko die niet geleegd is", "het adres waar niemand woont". */
const RELATIVES = wordSet('die waar welke wat');
/** The finite verbs that close a short relative clause: "… die niet geleegd is", "… die niet werkt". */
const CLOSES_RELATIVE = wordSet(
  'is was zijn waren wordt werd worden werden heeft had hebben hadden kan kon moet moest zal zou mag staat stond ligt lag komt kwam',
);

/**
 * The clause without a relative clause that holds a negation ("Wil je de mail over zijn kliko die niet
 * geleegd is beantwoorden?"): the negation says what the thing is, not what the reader is not to do.
 * A relative clause ends at its finite verb, eight words on at the most: an auxiliary, or a verb in
 * the third person after the negation ("die niet brandt").
 */
function withoutNegatedRelatives(ws: readonly string[]): string[] {
  const out = [...ws];
  for (let k = out.length - 2; k >= 1; k--) {
    // After a verb "die" is the thing itself ("Stuur die niet"), no relative clause.
    if (!RELATIVES.has(out[k]) || isVerb(out[k - 1]) || ARTICLES.has(out[k - 1])) continue;
    const neg = out.findIndex((w, e) => e > k && e <= k + 6 && NEGATORS.has(w));
    if (neg < 0) continue;
    const end = out.findIndex((w, e) => e > neg && e <= k + 8 && (CLOSES_RELATIVE.has(w) || (w.length >= 4 && w.endsWith('t'))));
    if (end > 0) out.splice(k, end - k + 1);
  }
  return out;
}

/** The past participle of every verb, to its category: "betaald", "verstuurd", "geboekt", "overgemaakt". */
const PARTICIPLES: Map<string, Category> = (() => {
  const out = new Map<string, Category>();
  for (const [category, list] of Object.entries(STEMS) as [Category | 'none', string][]) {
    if (category === 'none' || category === 'read') continue;
    for (const item of list.split(' ')) {
      const [head, particle = ''] = item.split('|');
      const stem = head.split('=')[0];
      // No "ge-" on a verb with an unstressed prefix: "betaald", "verstuurd", "herstelt".
      const ge = /^(?:be|ver|ont|her|er|ge)/.test(stem) ? '' : 'ge';
      for (const end of ['d', 't']) if (!stem.endsWith(end)) out.set(`${particle}${ge}${stem}${end}`, category);
      out.set(`${particle}${ge}${stem}`, category);
    }
  }
  return out;
})();
const MAY = wordSet('mag mogen kan kunnen');

/**
 * "Die mag betaald worden", "De factuur kan verstuurd worden": leave for the action in the passive,
 * in a statement. "moet betaald worden" states what someone must do, and asks nothing of the reader.
 */
function allowedPassive(ws: readonly string[]): LanguageAction[] {
  const may = ws.findIndex((w) => MAY.has(w));
  const passive = ws.indexOf('worden');
  if (may < 0 || passive < may + 2) return [];
  const category = PARTICIPLES.get(ws[passive - 1]);
  return category ? [{ category, after: ws.slice(0, may), words: ws.slice(may, passive + 1).join(' ') }] : [];
}

/** Words that lead into an order in data: "Graag …", "Gelieve …", "Let op: …", "Voortaan …". */
const ORDER_LEAD_IN = wordSet(
  'graag gelieve svp aub alstublieft alsjeblieft belangrijk urgent nb ps ook daarna vervolgens nu voortaan direct meteen even dan verder tevens let',
);
/** An obligation on the reader or on a role: "u moet …", "de assistent dient … te …", "je moet …". */
const OBLIGE = wordSet('moet moeten dient dienen hoort horen');

/**
 * An order written in Dutch in data: a clause that opens with an imperative of an action other than
 * reading ("Maak het bedrag over naar NL91 …", "Stuur deze mail door aan …"), an infinitive after a
 * polite lead ("Gelieve het bedrag over te maken …", "Graag T-4402 annuleren"), or an obligation on
 * the reader or a role ("U dient het saldo te storten op …", "De assistent moet … verwijderen"); not
 * a passive ("moet betaald worden"), a statement ("Wij sturen de factuur op 12 mei") or a courier's
 * note ("Bel twee keer aan"). The caller asks for a target or a record's code beside it (injection.ts).
 */
export function dutchOrderIn(sentence: string): string | undefined {
  for (const piece of sentence.split(/[:;,]|\s[-–—]\s|\s+en\s+/i)) {
    const ws = dutchWords(ends(piece));
    let i = 0;
    while (i < ws.length && ORDER_LEAD_IN.has(ws[i])) i++;
    if (ws.length - i < 3 || ws.some((w) => NEGATORS.has(w))) continue;
    const polite = ws.slice(0, i).some((w) => /^(?:graag|gelieve|svp|aub|alstublieft|alsjeblieft)$/.test(w));
    const first = verbFirst(ws.slice(i)).find((a) => a.category !== 'read');
    // "Bel Jansen" is an order; "Mark Post" a name: a verb that is a noun too opens no order before a capitalised word.
    if (first && !(HOMOGRAPHS.has(ws[i]) && /^\s*\S+\s+\p{Lu}/u.test(piece.trim()))) return first.words;
    const passive = ws.some((w) => w === 'worden' || w === 'zijn' || w === 'wordt');
    if (passive) continue;
    const oblige = ws.findIndex((w) => OBLIGE.has(w));
    if (polite || oblige >= 0 || ws.slice(0, 3).some((w, k) => (w === 'wilt' || w === 'kunt') && ws[k + 1] === 'u')) {
      const last = verbLast(['graag', ...ws.slice(oblige >= 0 ? oblige + 1 : i)]).find((a) => a.category !== 'read');
      if (last && !(oblige >= 0 && FIRST.has(ws[oblige - 1]))) return last.words;
    }
  }
  return undefined;
}

/** The infinitive ("sturen", "doorsturen", "door te sturen") in a proposal, written as the imperative it becomes ("stuur … door"). */
function asImperative(rest: string): string | undefined {
  const ws = rest.split(/\s+/).filter(Boolean);
  const folded = ws.map((w) => fold(w).replace(/[^\p{L}\p{N}]/gu, ''));
  for (let j = folded.length - 1; j >= 0; j--) {
    const hit = infinitiveAt(folded, j);
    if (!hit || hit.form.category === 'read' || hit.form.category === 'none') continue;
    const f = hit.form as Partial<Form>;
    const particle = f.particle ?? f.fused;
    return [hit.form.stem, ...ws.slice(0, hit.from), ...ws.slice(j + 1), ...(particle ? [particle] : [])].join(' ');
  }
  return undefined;
}

/** A question that offers an action: "Zal ik …?", "Moet ik …?", "Wil je dat ik …?", "Wilt u dat ik …?", "Zullen we …?". */
const OFFER_LEAD =
  /^(?:(?:ok[eé]?|oké|goed|prima|top)[,!]?\s+)?(?:(?:zal|moet|mag|kan)\s+ik\s+|zullen\s+we\s+|(?:wil|wilt)\s+(?:je|jij|u)\s+dat\s+ik\s+|(?:wil|wilt)\s+(?:je|jij|u)\s+dat\s+we\s+)/i;
/** A question that asks leave to go on: "Zal ik doorgaan?", "Is dat goed?", "Akkoord?", "Klopt dat zo?". */
const ASKS_TO_GO_ON =
  /^(?:(?:zal|mag|kan)\s+ik\s+(?:doorgaan|verdergaan|beginnen|het\s+(?:zo\s+)?doen|het\s+regelen|dat\s+doen)|zullen\s+we\s+(?:doorgaan|het\s+zo\s+doen)|(?:is|lijkt)\s+(?:dat|dit)\s+(?:zo\s+)?(?:goed|ok[eé]?|oké|in\s+orde|akkoord)|akkoord|klopt\s+(?:dat|dit|alles)|ga\s+ik\s+(?:door|verder)|(?:wil|wilt)\s+(?:je|u)\s+dat\s+ik\s+(?:doorga|verderga|het\s+doe))\b[^?]{0,30}\?*$/i;
/** "Stuur ik hem de factuur?", "Boek ik de kamer?": a verb first with "ik" after it offers what it names. */
const FIRST_PERSON = /^(\p{L}+)\s+ik\s+([^?]*)\?+$/iu;

/**
 * What the assistant offers to do in a Dutch question, written as the user would ask for it: "Zal
 * ik Jan de factuur sturen?" gives "stuur Jan de factuur"; "Wil je dat ik de afspraak inplan?" and
 * "Zal ik de afspraak inplannen?" give "plan de afspraak in"; "Stuur ik hem de factuur?" gives
 * "stuur hem de factuur"; a question that asks leave to go on gives 'go-on'. Undefined for any other question.
 */
export function dutchOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim().slice(0, 2_000);
  if (!q.endsWith('?')) return undefined;
  if (ASKS_TO_GO_ON.test(q)) return 'go-on';
  const lead = OFFER_LEAD.exec(q);
  if (lead) {
    const rest = q
      .slice(lead[0].length)
      .replace(/\s*\?+$/, '')
      .trim();
    if (!rest || /^(?:het|dat|dit)\s+(?:doen|regelen)$/i.test(rest)) return 'go-on';
    return asImperative(rest) ?? asPresent(rest);
  }
  const first = FIRST_PERSON.exec(q);
  const f = first
    ? (FORMS.get(fold(first[1])) ?? []).find((x) => x.kind === 'imperative' && x.category !== 'read' && x.category !== 'none')
    : undefined;
  return f ? `${f.stem} ${first![2]}`.trim() : undefined;
}

/** "… de afspraak inplan", "… hem de factuur stuur": a subordinate's verb at the end, as its imperative. */
function asPresent(rest: string): string | undefined {
  const ws = rest.split(/\s+/).filter(Boolean);
  const f = (FORMS.get(fold(ws.at(-1) ?? '')) ?? []).find((x) => x.category !== 'read' && x.category !== 'none' && x.kind !== 'infinitive');
  return f ? [f.stem, ...ws.slice(0, -1), ...(f.fused ? [f.fused] : [])].join(' ') : undefined;
}

/** What the assistant says it will or can do: "Ik zal de factuur sturen", "Ik ga de huur overmaken", "Ik kan de afspraak inplannen". */
const PLAN_LEAD = /^(?:ik|wij|we)\s+(?:zal|zullen|ga|gaan|kan|kunnen|zou|zouden)\s+(.+?)[.!:]?$/i;

export function dutchPlan(sentence: string): string | undefined {
  const m = PLAN_LEAD.exec(sentence.trim().slice(0, 2_000));
  if (!m) return undefined;
  return asImperative(m[1].replace(/\s+(?:kunnen|willen|gaan)$/i, '')) ?? undefined;
}

/**
 * The category of a word as a Dutch verb in a tool's name or description: "versturen", "verstuurt",
 * "aanmaken", "vastleggen", "opvragen" (a particle written on the verb, as a name writes it). A form
 * whose separable particle could stand apart and turn it to another action ("maakt … aan" or "maakt
 * … over") names none, nor does a form of two actions, nor a verb that is a noun as often ("post").
 */
export function dutchCategory(word: string): Category | undefined {
  if (HOMOGRAPHS.has(word)) return undefined;
  const forms = (FORMS.get(fold(word)) ?? []).filter((f) => f.particle === undefined && f.kind !== 'imperative');
  const categories = new Set(forms.map((f) => f.category));
  const [only] = categories;
  return categories.size === 1 && only !== 'none' ? only : undefined;
}

/** Where a tool's name holds a Dutch infinitive (`email_versturen`, `werkorder_aanmaken`), or -1. */
export function dutchInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex(
    (w) => (FORMS.get(w) ?? []).some((f) => f.kind === 'infinitive' && f.particle === undefined) && dutchCategory(w) !== undefined,
  );
}
