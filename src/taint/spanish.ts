/**
 * Requests and tools written in Spanish (docs/taint-policy.md, "Requests in Spanish"). The English
 * parse (intent.ts) finds no verb in "Envíale la oferta a Marta" and so asks for nothing: every call
 * of a Spanish-speaking team would be blocked as unasked. This reads Spanish as the English parse
 * reads English: a verb is told by its conjugation (a root and the endings of its class, with the
 * pronouns Spanish attaches to it: "envíale", "cítala", "ordénamelos"), by where it stands (the
 * clause's first word, or after "y", "por favor", "puedes", "quiero que", a pronoun), and not when
 * negated ("no le cobres"), in a question ("¿qué entrevistas tengo?") or a past participle. What a
 * verb asks for is one of the lexicon's action categories (lexicon.ts), so a Spanish request and an
 * English tool, or the reverse, meet on the same labels.
 */
import { wordsBeforeEach, type Category, type ObjectKind } from './lexicon.js';

/** Lower case without accents or the tilde: "Envíale" and "enviale", "añadir" and "anadir" are one word. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // Most words are plain ASCII: only the others are decomposed.
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : lower;
}

/** The words of a folded text. */
export function spanishWords(text: string): string[] {
  return fold(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const SPANISH_FUNCTION = new Set(
  'de la el que y en los las un una por para con del al se su sus es lo le les mi no mas más como pero este esta está ese esa ya muy sin sobre tambien también hay son cual cuál cuando donde desde hasta entre porque segun según'.split(
    ' ',
  ),
);
/** English function words, against which every language read here counts its own. */
export const ENGLISH_FUNCTION: ReadonlySet<string> = new Set(
  'the of and to in is for on with that this it my an be are at by from please me you your our we was were have has will would can could should'.split(
    ' ',
  ),
);

/**
 * How many of a text's words (its first 4,000 characters) are function words of a language (`own`)
 * and how many English ones. Words are read as written, accents and all ("más", "für"): no folding.
 */
export function functionWordCounts(text: string, own: ReadonlySet<string>, english: ReadonlySet<string>): { own: number; english: number } {
  const n = { own: 0, english: 0 };
  for (const w of text
    .slice(0, 4000)
    .toLowerCase()
    .split(/[^a-z\u00df-\u00ff]+/)) {
    if (own.has(w)) n.own++;
    else if (english.has(w)) n.english++;
  }
  return n;
}

/** Whether a text is written in Spanish: more of its function words are Spanish than English, two at least. */
export function readsAsSpanish(text: string): boolean {
  const n = functionWordCounts(text, SPANISH_FUNCTION, ENGLISH_FUNCTION);
  return n.own >= 2 && n.own > n.english;
}

type Conjugation = 'ar' | 'er' | 'ir';

/**
 * Verb roots by the action they name, each with its conjugation class, and with the root a
 * stem-changing verb takes where it is stressed ("muev" for mover, "cierr" for cerrar). Written
 * `root/class` or `root|stressed/class`, separated by spaces. A verb whose meaning turns on an
 * attached pronoun is in WITH_PRONOUN.
 */
const ROOTS: Record<Category, string> = {
  read:
    'mir/ar busc/ar consult/ar revis/ar abr/ir obten|obtien/er list/ar comprob|comprueb/ar ' +
    'verific/ar resum/ir orden/ar mostr|muestr/ar analiz/ar compar/ar calcul/ar localiz/ar ' +
    'encontr|encuentr/ar filtr/ar examin/ar averigu/ar devolv|devuelv/er descarg/ar ' +
    'recuper/ar',
  send: 'envi/ar reenvi/ar mand/ar contest/ar respond/er escrib/ir avis/ar notific/ar comunic/ar remit/ir inform/ar traslad/ar record/ar',
  share: 'compart/ir invit/ar autoriz/ar permit/ir conced/er otorg/ar sub/ir',
  publish: 'public/ar anunci/ar difund/ir tuit/ar',
  pay: 'pag/ar transfer|transfier/ir ingres/ar abon/ar reembols/ar cobr/ar consign/ar',
  book: 'reserv/ar agend/ar cit/ar convoc/ar program/ar concert/ar sac/ar apart/ar',
  change:
    'cambi/ar modific/ar actualiz/ar mov|muev/er descart/ar anot/ar registr/ar apunt/ar ' +
    'cre/ar gener/ar marc/ar asign/ar aplic/ar activ/ar desactiv/ar tramit/ar aprob|aprueb/ar ' +
    'rechaz/ar cerr|cierr/ar anad/ir agreg/ar etiquet/ar edit/ar guard/ar configur/ar ' +
    'ajust/ar renov|renuev/ar lanz/ar dispar/ar fusion/ar adelant/ar anticip/ar fraccion/ar ' +
    'domicili/ar restablec/er corrig|correg/ir pas/ar suspend/er reactiv/ar ech/ar regres/ar ' +
    'confirm/ar restaur/ar reprogram/ar aplaz/ar corr/er retras/ar traspas/ar vincul/ar ' +
    'desvincul/ar emit/ir',
  delete: 'borr/ar elimin/ar quit/ar cancel/ar anul/ar suprim/ir retir/ar despublic/ar',
  exec: 'ejecut/ar instal/ar',
};

/**
 * Verbs whose action is another with a pronoun for the person it goes to: "devuélvele el cobro"
 * and "regrésale su dinero" give money back where "devuelve el expediente" returns data; "pásale
 * la guía" hands it over (or, as "pásale la visita al martes", moves it: both are read);
 * "confírmale la cita" tells someone where "confirma la cita" changes its state.
 */
const WITH_PRONOUN: Record<string, Category> = { devolv: 'pay', devuelv: 'pay', regres: 'pay', pas: 'share', confirm: 'send' };
/** What a verb with a pronoun asks for besides (WITH_PRONOUN). */
const ALSO_WITH_PRONOUN: Record<string, Category> = { pas: 'change' };

/** Present, imperative, subjunctive, infinitive and gerund endings; no past forms or participles ("la oferta enviada" states what was done), no first person ("el envío" is a noun). */
const ENDINGS: Record<Conjugation, string[]> = {
  ar: ['ar', 'a', 'as', 'an', 'e', 'es', 'en', 'ad', 'ando', 'emos', 'amos'],
  er: ['er', 'e', 'es', 'en', 'a', 'as', 'an', 'ed', 'iendo', 'emos', 'amos'],
  ir: ['ir', 'e', 'es', 'en', 'a', 'as', 'an', 'id', 'iendo', 'imos', 'amos'],
};

/** A root's spelling before an ending: "busc" + "e" is "busque", "pag" + "e" "pague", "actualiz" + "e" "actualice". */
function spelled(root: string, conj: Conjugation, ending: string): string {
  if (conj !== 'ar' || !ending.startsWith('e')) return root + ending;
  const last = root.at(-1);
  if (last === 'c') return `${root.slice(0, -1)}qu${ending}`;
  if (last === 'g') return `${root.slice(0, -1)}gu${ending}`;
  if (last === 'z') return `${root.slice(0, -1)}c${ending}`;
  return root + ending;
}

interface Form {
  category: Category;
  root: string;
  infinitive: boolean;
}

/** Every form of every root, folded, to the category it names. */
const FORMS: Map<string, Form> = (() => {
  const out = new Map<string, Form>();
  for (const [category, entries] of Object.entries(ROOTS) as [Category, string][])
    for (const entry of entries.split(' ')) {
      const [roots, conj] = entry.split('/') as [string, Conjugation];
      for (const root of roots.split('|'))
        for (const ending of ENDINGS[conj]) {
          const form = spelled(root, conj, ending);
          if (!out.has(form)) out.set(form, { category, root, infinitive: ending === conj });
        }
    }
  // Irregular: ver (to see) and leer (to read), dar (to give) and hacer's "haz" left out (it asks for what follows).
  for (const f of ['ver', 've', 'vea', 'veas', 'vean', 'ved', 'viendo', 'leer', 'lee', 'lea', 'leas', 'lean', 'leed', 'leyendo'])
    out.set(f, { category: 'read', root: f.startsWith('l') ? 'le' : 'v', infinitive: f === 'ver' || f === 'leer' });
  for (const f of ['dar', 'da', 'dad', 'dando']) out.set(f, { category: 'share', root: 'd', infinitive: f === 'dar' });
  return out;
})();

/** Pronouns Spanish attaches to a verb, two at most ("envíaselo", "ordénamelos"), longest first. */
const CLITICS = [
  'selos',
  'selas',
  'selo',
  'sela',
  'melos',
  'melas',
  'melo',
  'mela',
  'telo',
  'tela',
  'noslo',
  'nosla',
  'les',
  'los',
  'las',
  'nos',
  'le',
  'lo',
  'la',
  'me',
  'te',
  'se',
];

export interface SpanishVerb {
  category: Category;
  /** A second reading of an ambiguous verb ("pásale …"): a request asks for both. */
  also?: Category;
  /** The pronoun attached to it, if any ("le" in "envíale"). */
  clitic?: string;
  infinitive: boolean;
}

/** The verb a folded word is, with the pronoun attached to it: "enviale" is enviar with "le"; "dale" dar with "le" (bare "de" is a preposition). */
export function spanishVerb(word: string): SpanishVerb | undefined {
  const w = fold(word);
  const bare = FORMS.get(w);
  if (bare) return { category: bare.category, infinitive: bare.infinitive };
  for (const c of CLITICS) {
    if (!w.endsWith(c) || w.length - c.length < 2) continue;
    const base = w.slice(0, -c.length);
    const form = FORMS.get(base) ?? (base === 'de' ? { category: 'share' as const, root: 'd', infinitive: false } : undefined);
    if (form) {
      const also = ALSO_WITH_PRONOUN[form.root];
      return { category: WITH_PRONOUN[form.root] ?? form.category, ...(also ? { also } : {}), clitic: c, infinitive: form.infinitive };
    }
  }
  return undefined;
}

/** The category of a word as a Spanish verb (for a tool's name and description). */
export function spanishCategory(word: string): Category | undefined {
  return spanishVerb(word)?.category;
}

/** Where a tool's name holds a Spanish infinitive (`enviar_oferta`, `obtenerFactura`, `turnos_agendar`), or -1: such a name is Spanish. */
export function spanishInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => spanishVerb(w)?.infinitive === true);
}

/** Nouns that say what an action acts on, by the lexicon's object kinds. */
const OBJECTS: Partial<Record<ObjectKind, string[]>> = {
  money: [
    'dinero',
    'importe',
    'nomina',
    'sueldo',
    'salario',
    'pago',
    'pagos',
    'anticipo',
    'reembolso',
    'transferencia',
    'euros',
    'euro',
    'dolares',
    'pesos',
    'cuota',
    'cuotas',
    'plazos',
    'factura',
    'recibo',
  ],
  message: [
    'correo',
    'correos',
    'mensaje',
    'mensajes',
    'nota',
    'sms',
    'aviso',
    'carta',
    'respuesta',
    'convocatoria',
    'invitacion',
    'email',
    'mail',
    'whatsapp',
  ],
  access: ['acceso', 'permiso', 'permisos', 'rol', 'alta', 'usuario', 'administrador', 'editor', 'lector'],
  booking: ['cita', 'entrevista', 'reserva', 'visita', 'reunion', 'hora', 'turno'],
  publication: ['publicacion', 'anuncio', 'comentario', 'resena', 'entrada'],
};

export function spanishObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const [k, nouns] of Object.entries(OBJECTS) as [ObjectKind, string[]][]) if (ws.some((w) => nouns.includes(w))) out.add(k);
  return out;
}

/** Words after which a verb form is a verb: a conjunction, "por favor", a modal or a verb of wanting, "que", an unattached pronoun. */
const VERB_CONTEXT = new Set(
  'y e luego despues tambien favor ya yes puedes podrias puede podria podeis pueden quiero quisiera queria necesito necesitamos hay que me te le les se nos ahora solo mejor porfa entonces pero o antes primero inmediatamente directamente simplemente ademas asimismo'.split(
    ' ',
  ),
);
const NEGATORS = new Set(['no', 'nunca', 'ni', 'sin', 'jamas', 'tampoco']);
const QUESTION_WORDS = new Set([
  'que',
  'como',
  'cuando',
  'donde',
  'quien',
  'quienes',
  'cual',
  'cuales',
  'cuanto',
  'cuanta',
  'cuantos',
  'cuantas',
  'por',
]);
/** Verbs that, with "me" or "nos", answer the user: "dime", "avísame si …", "mándame un resumen" are replies, as "tell me" is. */
const TO_USER = new Set(['me', 'nos']);

export interface SpanishAction {
  category: Category;
  /** The words of the clause after the verb, for its objects. */
  after: string[];
  /** The words that asked, for the evidence. */
  words: string;
}

/**
 * The actions a Spanish request asks for, clause by clause. "Dar de baja" cancels; a question
 * that opens with an interrogative asks about things ("¿Cómo va la candidatura?"), where "¿Puedes
 * enviarle …?" asks for the action.
 */
export function spanishActions(prose: string): SpanishAction[] {
  const out: SpanishAction[] = [];
  // "sí" (yes) and "si" (if, whether) are one word once folded.
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  const text = prose.replace(/(?<!\p{L})s[íÍ](?!\p{L})/gu, 'yes').replace(/\.(?=\s|$)/g, '\n');
  for (const clause of text.match(/¿[^?¿\n]*\?*|[^;!?\n¡¿]+\?*/g) ?? []) {
    const ws = spanishWords(clause);
    if (ws.length === 0 || (clause.trim().endsWith('?') && QUESTION_WORDS.has(ws[0]))) continue;
    const parts = partStarts(clause);
    for (let i = 0; i < ws.length; i++) {
      const v = lightVerb(ws, i) ?? spanishVerb(ws[i]);
      if (!v || v.category === 'read') continue;
      // A gerund is a verb wherever it stands ("me colabora sacándole el tiquete"), as is an
      // imperative with its pronoun attached ("a los que pidan visita, dales cita").
      const gerund = /(?:ando|iendo)(?:[a-z]{2,5})?$/.test(ws[i]) && !v.infinitive;
      const imperative = v.clitic !== undefined && !v.infinitive;
      if (!(i === 0 || parts.has(i) || VERB_CONTEXT.has(ws[i - 1]) || pronounPair(ws, i) || gerund || imperative)) continue;
      if (negated(ws, i, parts) || inIndirectQuestion(ws, i, parts)) continue;
      if (v.category === 'send' && v.clitic !== undefined && TO_USER.has(v.clitic)) continue;
      const category = v.category === 'share' && ws[i + 1] === 'de' && ws[i + 2] === 'baja' ? 'delete' : v.category;
      const asked = { after: ws.slice(i + 1, i + 13), words: ws.slice(i, i + 4).join(' ') };
      out.push({ category, ...asked });
      if (v.also) out.push({ category: v.also, ...asked });
    }
  }
  return out;
}

/** "se lo mande", "te la envío": after another pronoun, "lo" or "la" is one too, not an article. */
function pronounPair(ws: readonly string[], i: number): boolean {
  return ['lo', 'la', 'los', 'las'].includes(ws[i - 1]) && ['se', 'me', 'te', 'nos', 'le', 'les'].includes(ws[i - 2]);
}

/** Verbs that carry no action of their own: the noun after them says it ("regálame el cambio del vuelo", "hágame la devolución", "me colabora con la reserva", "dales cita"). */
const LIGHT =
  /^(?:(?:regal[ae]s?|colabor[ae]s?|ayud[ae]s?|haz|hag[ae]s?|hac[ae]s?|hacer)(?:me|nos|le|les|lo|la|selo|sela)?|da(?:me|nos|le|les)?|dar(?:le|les)?|den(?:le|les)?|de(?:me|nos|le|les)|dej[ae](?:me|nos|lo|la)?|dejar(?:me|lo|la)?)$/;
/** Nouns of an action, by its category. */
const ACTION_NOUNS: Record<string, Category> = {
  cambio: 'change',
  modificacion: 'change',
  traslado: 'change',
  devolucion: 'pay',
  reembolso: 'pay',
  pago: 'pay',
  transferencia: 'pay',
  consignacion: 'pay',
  reserva: 'book',
  // "dales cita", "dale hora": an appointment given is booked.
  cita: 'book',
  hora: 'book',
  turno: 'book',
  cancelacion: 'delete',
  anulacion: 'delete',
  envio: 'send',
  // "hazlo llegar a Hacienda", "hazle llegar la factura": what is made to reach someone is sent (French "faire parvenir").
  llegar: 'send',
  // "déjame en borrador un correo": a draft is written, not sent.
  borrador: 'change',
};

/** A light verb at `i` with an action noun within three words after it, read as that action. */
function lightVerb(ws: readonly string[], i: number): SpanishVerb | undefined {
  if (!LIGHT.test(ws[i])) return undefined;
  const noun = ws.slice(i + 1, i + 4).find((w) => ACTION_NOUNS[w] !== undefined);
  if (!noun) return undefined;
  const clitic = /(?:selo|sela|me|nos|les|le|lo|la)$/.exec(ws[i])?.[0];
  return {
    category: ACTION_NOUNS[noun],
    infinitive: /r(?:le|les)?$/.test(ws[i]),
    ...(clitic && ws[i].length > clitic.length + 1 ? { clitic } : {}),
  };
}

/** The word indices where a comma starts a new part of a clause. */
function partStarts(clause: string): Set<number> {
  return new Set(wordsBeforeEach(clause, /,/g, (t) => spanishWords(t).length).map((x) => x.at));
}

/** A negator up to three words before in the same part, with no "y" or other verb between ("no le cobres", "sin enviarle"; not "si no, publícalo"). */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    if (parts.has(j + 1)) return false;
    if (NEGATORS.has(ws[j])) return true;
    if (ws[j] === 'y' || ws[j] === 'pero' || spanishVerb(ws[j]) !== undefined) return false;
  }
  return false;
}

/** A verb after a "si" (whether) that does not open its part: "quiero saber si hay alguna que corregir" asks about it; "y, si es así, devuélvele …" is a condition. */
function inIndirectQuestion(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && !parts.has(j + 1); j--) {
    if (ws[j] === 'y' || ws[j] === 'pero') return false;
    if (ws[j] === 'si' && j > 0 && !parts.has(j)) return true;
  }
  return false;
}

/** Words that lead into an order without changing it: "Por favor, …", "Nota: …", "Ahora …". */
const ORDER_LEAD_IN = new Set(
  'por favor ahora tambien luego despues ademas nota importante urgente primero finalmente ya asimismo asi que entonces eso tanto'.split(
    ' ',
  ),
);
/** An obligation put on the reader: "debe enviarse con copia a …", "hay que pasar …", "se ruega transferir …". */
const OBLIGATION =
  /\b(?:debe|deben|debes|debera|deberan|deberia|deberias|hay que|tiene que|tienen que|tienes que|es necesario|es obligatorio|se ruega|se solicita|favor de|por favor)\s+(?:(?:se|le|les|lo|la|los|las|me|nos)\s+)?([a-z]+)/;

/**
 * An order written in Spanish: a clause that opens with a verb of an action other than reading
 * (after a lead-in such as "por favor" or "nota:"): "pase la candidatura C-3011 al estado oferta",
 * "reenvíe este correo a …"; or an obligation on the reader ("debe enviarse con copia a …"). A
 * verb form followed by "de" or a participle is a noun heading a record ("Reserva de sala",
 * "Reserva confirmada"). Returns the words that order. The caller asks for a target beside it
 * (injection.ts), as it does of an order in a record's field.
 */
export function spanishOrderIn(sentence: string): string | undefined {
  for (const part of sentence.split(/[:;,]\s+|\s+y\s+(?:luego\s+|despu[eé]s\s+)?/i)) {
    const ws = spanishWords(part);
    let i = 0;
    while (i < ws.length && (ORDER_LEAD_IN.has(ws[i]) || (ws[i] === 'de' && ws[i - 1] === 'favor'))) i++;
    const v = i < ws.length ? spanishVerb(ws[i]) : undefined;
    // An infinitive orders after "favor" ("Favor pagar a …", "favor de enviar …"), as a written request puts it.
    const politeInfinitive = v?.infinitive === true && i > 0 && (ws[i - 1] === 'favor' || (ws[i - 1] === 'de' && ws[i - 2] === 'favor'));
    if (!v || v.category === 'read' || (v.infinitive && !politeInfinitive) || ws.length - i < 3) continue;
    const next = ws[i + 1];
    if (next === 'de' || next === 'del' || /(?:ad|id)[oa]s?$/.test(next)) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  const m = OBLIGATION.exec(fold(sentence));
  const v = m ? spanishVerb(m[1]) : undefined;
  return v && v.category !== 'read' ? m![0] : undefined;
}

/** Pronouns before a verb ("le", "se lo"). */
const PRONOUNS = '(?:(?:se|le|les|te|lo|la|los|las|me|nos)\\s+)*';
const OFFER_LEAD =
  /^¿\s*(?:y\s+)?(?:(?:quiere|quieres|quer[eé]s|quer[eé]is|quieren|desea|deseas|desean)\s+que\s+|(?:te|le|les)\s+parece\s+(?:bien\s+)?(?:que|si)\s+|puedo\s+|procedo\s+a\s+)/i;
const ASKS_TO_GO_ON =
  /^¿\s*(?:procedo|contin[uú]o|sigo(?:\s+adelante)?|lo\s+hago|lo\s+confirmo|(?:me\s+)?confirm[aá]s?|es\s+correcto|est[aá]\s+bien|(?:te|le)\s+parece(?:\s+bien)?|de\s+acuerdo|seguimos|lo\s+tramito)\b/i;
const FIRST_PERSON = new RegExp(`^¿\\s*(${PRONOUNS})([a-záéíóú]+)o\\b([^?]*)\\??$`, 'i');
const WILL = new RegExp(`^(${PRONOUNS})(?:voy\\s+a|vamos\\s+a|puedo|podr[ií]a|podemos)\\s+(.+?)[.!]?$`, 'i');
const WOULD = new RegExp(`^(${PRONOUNS})([a-záéíóú]+r)[ií]a\\b(.*?)[.!]?$`, 'i');

/** The infinitive of a first-person form ("cambio" → "cambiar"), if it is a verb of an action. */
function infinitiveOf(stem: string): string | undefined {
  for (const inf of ['ar', 'er', 'ir'].map((e) => fold(stem) + e)) {
    const v = FORMS.get(inf);
    if (v?.infinitive && v.category !== 'read') return inf;
  }
  return undefined;
}

/**
 * What the assistant offers to do in a Spanish question, written as the user would ask for it:
 * "¿Quieres que le envíe la oferta?" gives "le envíe la oferta"; "¿Le cambio la tarifa?" gives
 * "le cambiar la tarifa" (read as a verb of changing); a question that asks leave to go on
 * ("¿Procedo?", "¿Es correcto?") gives 'go-on'. Undefined for any other question.
 */
export function spanishOffer(question: string): string | 'go-on' | undefined {
  const lead = OFFER_LEAD.exec(question);
  if (lead) return question.slice(lead[0].length).replace(/\?+$/, '').trim() || 'go-on';
  if (ASKS_TO_GO_ON.test(question)) return 'go-on';
  const first = FIRST_PERSON.exec(question);
  const inf = first ? infinitiveOf(first[2]) : undefined;
  // Its pronouns go after the infinitive, as a request writes them ("¿Lo aparto?" is "apartarlo").
  return inf ? `${inf}${first![1].replace(/\s+/g, '').toLowerCase()}${first![3]}`.trim() : undefined;
}

/** What the assistant says it will or would do: "Le voy a cambiar la tarifa", "Se lo ingresaría en su cuenta" (as "ingresar en su cuenta"). */
export function spanishPlan(sentence: string): string | undefined {
  const will = WILL.exec(sentence);
  if (will) return `${will[1]}${will[2]}`.trim();
  const would = WOULD.exec(sentence);
  const inf = would && FORMS.get(fold(would[2]))?.infinitive ? fold(would[2]) : undefined;
  return inf ? `${would![1]}${inf}${would![3]}`.trim() : undefined;
}
