/**
 * Requests and tools written in French. The English parse (intent.ts) finds no verb in "Envoie-lui
 * la facture" or "Merci de régler le loyer de mars", and so asks for nothing: every call of a
 * French-speaking team would be blocked as unasked. This reads French as spanish.ts reads Spanish:
 * a verb is told by its conjugation (a root and the endings of its class: the infinitive, the
 * present and imperative of "tu", "nous" and "vous", the subjunctive), by where it stands (the
 * clause's first word, or after "et", "puis", "merci de", "peux-tu", "il faut", "que tu", a pronoun
 * "lui" or "leur"), and not when negated ("ne lui envoie pas"), in a question ("Qui n'a pas payé
 * ?"), after "si" ("vérifie si elle a payé"), or as a past participle ("la facture envoyée"). What a
 * verb asks for is one of the lexicon's action categories (lexicon.ts), so a French request and an
 * English tool, or the reverse, meet on the same labels.
 */
import { clauseParts, wordSet, type Category, type ObjectKind } from './lexicon.js';
import { fold, functionWordCounts } from './spanish.js';

/** A word as written (lower case, accents kept) and folded ("Réglé" is "réglé" and "regle"). */
interface Word {
  raw: string;
  w: string;
}

/** A currency sign is a word: "200 €" is an amount, as "200 euros" is. */
const CURRENCY: Record<string, string> = { '€': 'eur', $: 'dollars', '£': 'livres' };

function wordsOf(text: string): Word[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+|[€$£]/gu) ?? [])
    .map((raw) => ({ raw, w: CURRENCY[raw] ?? fold(raw.replace(/œ/g, 'oe').replace(/æ/g, 'ae')).replace(/[^a-z0-9]/g, '') }))
    .filter((x) => x.w !== '');
}

/** The folded words of a text, elisions and attached pronouns apart: "l'AG" is "l", "ag"; "envoie-lui" "envoie", "lui". */
export function frenchWords(text: string): string[] {
  return wordsOf(text).map((x) => x.w);
}

/** Function words no other language read here writes (Spanish, Portuguese, German, English). */
const FRENCH_OWN = wordSet(
  'et est une pour dans sur au aux ce cette ces cet sa ses mon ton votre notre leur leurs il ils elle elles je nous vous ne pas avec par très été être sont merci bonjour lui moi toi aussi qui où chez l j qu c',
);
/** Function words French shares with Spanish or Portuguese ("la", "de", "que") or German ("des"). */
const FRENCH_SHARED = wordSet('le la les de des du d que en un se tu a à mes nos vos son ma mais ou');
/** Function words of English, Spanish, Portuguese and German: a text with more of them is not French. */
const OTHER_FUNCTION = wordSet(
  'the of and to in is for on with that this it my an be are at by from please me you your our we was were have has will would can could should ' +
    'el los las y con por para una del al es está muy pero cuando este esta os um uma não com em da do na no é são para ao aos pelo pela ' +
    'der die das und ist nicht ein eine mit für von zu auf bitte ich sie wir den dem',
);

/**
 * Whether a text is written in French: more of its function words are French than English,
 * Spanish, Portuguese or German ones, two at least; and more of them French alone than the others'
 * own, or, with none of the others', a French verb
 * with no Spanish or Portuguese accent about ("Envoie la facture à Mme Dupont" has only "la" and
 * "à", which Spanish and Portuguese write too). Its first 4,000 characters.
 */
export function readsAsFrench(text: string): boolean {
  const own = functionWordCounts(text, FRENCH_OWN, OTHER_FUNCTION);
  const shared = functionWordCounts(text, FRENCH_SHARED, OTHER_FUNCTION).own;
  const n = own.own + shared;
  if (n < 2 || n <= own.english) return false;
  // French alone, more often than the others' own words: "sur" in a name ("Dental Sur") makes no Spanish text French.
  if (own.own > own.english) return true;
  if (own.english > 0) return false;
  const head = text.slice(0, 4000);
  return !/[ñáíóú¿¡ãõ]/i.test(head) && frenchWords(head).some((w) => FORMS.has(w));
}

/**
 * How a verb is conjugated: `er` (envoyer), `ir` (avertir: avertissez), and the irregular classes
 * by their ending: `ttre` (transmettre), `dre` (répondre), `enir` (prévenir), `ire` (inscrire),
 * `uire` (détruire), `vrir` (rouvrir).
 */
type Conjugation = 'er' | 'ir' | 'ttre' | 'dre' | 'enir' | 'ire' | 'uire' | 'vrir';

/**
 * Endings by class: the infinitive first, then the present and imperative of "tu", "nous" and
 * "vous", the third persons and the subjunctive. No participle ("envoyée", "inscrit", "mis": a
 * participle states what was done) and no imperfect or simple past. For `er`, the second list is
 * the endings a stressed root takes ("envoie" and "envoyez", "rappelle" and "rappelez").
 */
const ENDINGS: Record<Conjugation, [string[], string[]]> = {
  er: [
    ['er', 'ons', 'ez', 'ions', 'iez'],
    ['e', 'es', 'ent'],
  ],
  ir: [['ir', 'is', 'it', 'issons', 'issez', 'issent', 'isse', 'isses'], []],
  ttre: [['tre', 's', '', 'tons', 'tez', 'tent', 'te', 'tes'], []],
  dre: [['re', 's', '', 'ons', 'ez', 'ent', 'e', 'es'], []],
  enir: [['enir', 'iens', 'ient', 'enons', 'enez', 'iennent', 'ienne', 'iennes'], []],
  ire: [['re', 's', 'vons', 'vez', 'vent', 've', 'ves'], []],
  uire: [['re', 's', 'sons', 'sez', 'sent', 'se', 'ses'], []],
  vrir: [['ir', 'e', 'es', 'ons', 'ez', 'ent'], []],
};

/**
 * Verb roots (folded) by the action they name, `root/class`, or `root|stressed/class` for a verb
 * whose root changes where it is stressed ("envoy|envoi": envoyez, envoie; "pay|pai,pay": payez,
 * paie, paye). "Rappeler" sends (a call back, a reminder: "rappelle-lui l'échéance"); "convoquer"
 * books; "commander" and "passer commande" pay, as "order" and "purchase" do in English;
 * "transférer" changes a record and sends a message (OBJECT_LED); "afficher" and "renvoie" read
 * unless a venue or a recipient says otherwise (frenchActions).
 */
const ROOTS: Record<Category, string> = {
  read:
    'regard/er verifi/er consult/er cherch/er recherch/er trouv/er retrouv/er list/er affich/er examin/er ' +
    'analys/er compar/er calcul/er resum/er recuper/er telecharg/er control/er identifi/er tradui/uire ' +
    'retourn/er obt/enir estim/er compt/er surveill/er montr/er expliqu/er indiqu/er ouvr/vrir tri/er',
  send:
    'envoy|envoi/er transmet/ttre repond/dre ecri/ire prev/enir avert/ir inform/er notifi/er relanc/er ' +
    'diffus/er rappel|rappell/er appel|appell/er contact/er signal/er remet/ttre soumet/ttre expedi/er ' +
    'communiqu/er demand/er export/er alert/er remerci/er mail/er livr/er accus/er',
  share: 'partag/er invit/er autoris/er accord/er permet/ttre deleg/er televers/er distribu/er',
  publish: 'publi/er post/er annonc/er tweet/er comment/er',
  pay:
    'pay|pai,pay/er regl/er vir/er rembours/er vers/er sold/er encaiss/er factur/er debit/er credit/er ' +
    'prelev/er acquitt/er command/er achet/er vend/dre',
  book: 'reserv/er planifi/er programm/er convoqu/er cal/er fix/er organis/er lou/er',
  change:
    'modifi/er chang/er enregistr/er not/er cre/er ajout/er valid/er clotur/er affect/er transfer/er ' +
    'emet/ttre gener/er sais/ir corrig/er deplac/er report/er decal/er avanc/er actualis/er renseign/er ' +
    'rempl/ir complet/er marqu/er attribu/er assign/er activ/er reactiv/er bloqu/er debloqu/er ' +
    'suspend/dre ferm/er rouvr/vrir accept/er refus/er rejet|rejett/er approuv/er sign/er confirm/er ' +
    'inscri/ire etabl/ir redig/er renouvel|renouvell/er prolong/er augment/er baiss/er remplac/er ' +
    'renomm/er class/er attach/er copi/er dupliqu/er import/er associ/er rattach/er coch/er ' +
    'reinitialis/er trait/er declar/er imput/er comptabilis/er lettr/er repart/ir regularis/er ' +
    'verrouill/er deverrouill/er revoqu/er fusionn/er reprogramm/er replanifi/er',
  delete:
    'supprim/er annul/er effac/er retir/er resili/er desactiv/er archiv/er enlev/er vid/er purg/er ' +
    'detrui/uire desinscri/ire desabonn/er decommand/er radi/er',
  exec: 'execut/er install/er deploy|deploi/er compil/er',
};

/**
 * Verbs that carry no action of their own, with the one they name alone: "fais le virement" pays,
 * "passe commande" pays, "mets-le sur l'extranet" publishes, "donne-lui accès" shares (LIGHT_NOUNS);
 * "passe le dossier à …" changes, "lance le script" runs, "fais …" with no action noun asks nothing.
 */
const LIGHT: Record<string, { forms: string; alone?: Category }> = {
  faire: { forms: 'faire fais faites faisons fasse fasses fassent' },
  mettre: { forms: 'mettre mets mettons mettez mette mettes', alone: 'change' },
  passer: { forms: 'passer passe passes passons passez passent', alone: 'change' },
  donner: { forms: 'donner donne donnes donnons donnez donnent', alone: 'share' },
  lancer: { forms: 'lancer lance lances lancons lancez lancent', alone: 'exec' },
  prendre: { forms: 'prendre prends prenons prenez prenne' },
  tenir: { forms: 'tenir tiens tenons tenez tienne' },
  effectuer: { forms: 'effectuer effectue effectuons effectuez' },
  proceder: { forms: 'proceder procede procedons procedez' },
};

interface Form {
  category: Category;
  /** The verb's infinitive ("envoyer" for "envoie"). */
  verb: string;
  infinitive: boolean;
  /** The class its form came from: a participle of an `er` verb is spelled like a form once folded ("réglé", "règle"). */
  er: boolean;
}

/** Every form of every root, folded, to the verb it is. */
const FORMS: Map<string, Form> = (() => {
  const out = new Map<string, Form>();
  const add = (form: string, f: Form) => {
    if (!out.has(form)) out.set(form, f);
  };
  for (const [category, entries] of Object.entries(ROOTS) as [Category, string][])
    for (const entry of entries.split(' ')) {
      const [roots, conj] = entry.split('/') as [string, Conjugation];
      const [plain, stressed = plain] = roots.split('|');
      const [endings, stressedEndings] = ENDINGS[conj];
      const verb = plain + endings[0];
      // "partageons", "rédigeons": a "g" keeps its sound before "o".
      for (const e of endings)
        add(plain + (plain.endsWith('g') && e.startsWith('o') ? 'e' : '') + e, {
          category,
          verb,
          infinitive: e === endings[0],
          er: conj === 'er',
        });
      for (const root of stressed.split(','))
        for (const e of stressedEndings) add(root + e, { category, verb, infinitive: false, er: true });
    }
  // Irregular: lire and voir read; dire sends ("dis à Paul que …").
  for (const f of 'lire lis lisons lisez lise voir vois voyons voyez voie'.split(' '))
    add(f, { category: 'read', verb: f.startsWith('l') ? 'lire' : 'voir', infinitive: f === 'lire' || f === 'voir', er: false });
  for (const f of 'dire dis disons dites dise'.split(' ')) add(f, { category: 'send', verb: 'dire', infinitive: f === 'dire', er: false });
  // In a tool's description "Renvoie la liste …" returns data; in a request with a recipient it resends (frenchActions).
  for (const f of ['renvoyer', 'renvoyons', 'renvoyez', 'renvoyions', 'renvoyiez', 'renvoies'])
    out.set(f, { category: 'send', verb: 'renvoyer', infinitive: f === 'renvoyer', er: true });
  for (const f of ['renvoie', 'renvoient']) out.set(f, { category: 'read', verb: 'renvoyer', infinitive: false, er: true });
  return out;
})();

/** Light verbs' forms to their infinitive. */
const LIGHT_FORMS: Map<string, string> = new Map(Object.entries(LIGHT).flatMap(([verb, l]) => l.forms.split(' ').map((f) => [f, verb])));

export interface FrenchVerb {
  category: Category;
  /** A second reading of an ambiguous verb: a request asks for both. */
  also?: Category;
  infinitive: boolean;
}

/** The verb a word is, by its conjugation: "envoie", "réglez", "transmettre"; not "envoyée", "envoi" or "règlement". */
export function frenchVerb(word: string): FrenchVerb | undefined {
  const w = fold(word);
  const f = FORMS.get(w);
  if (f) return { category: f.category, ...(f.verb === 'transferer' ? { also: 'send' as const } : {}), infinitive: f.infinitive };
  const light = LIGHT_FORMS.get(w);
  const alone = light ? LIGHT[light].alone : undefined;
  return alone ? { category: alone, infinitive: w === light } : undefined;
}

/** The category of a word as a French verb (for a tool's name and description). */
export function frenchCategory(word: string): Category | undefined {
  return frenchVerb(word)?.category;
}

/** Infinitives that are English words too: `package_installer` is no French name. */
const ENGLISH_SPELLED = wordSet('installer programmer reporter poster commenter organiser exporter importer compiler');

/** Where a tool's name holds a French infinitive (`envoyer_courriel`, `emettreVirement`, `creer_ordre_de_service`), or -1: such a name is French. */
export function frenchInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => !ENGLISH_SPELLED.has(fold(w)) && frenchVerb(w)?.infinitive === true);
}

/** Nouns that say what an action acts on, by the lexicon's object kinds (a plural by its singular). */
const OBJECTS: Partial<Record<ObjectKind, string[]>> = {
  money:
    'argent montant somme facture paiement virement reglement remboursement acompte caution depot loyer salaire paie euro euros eur dollar prelevement versement frais cotisation mensualite echeance solde iban rib cheque tarif prix abonnement don avance'.split(
      ' ',
    ),
  message:
    'courriel mail email message sms relance convocation lettre courrier reponse rappel notification mot circulaire newsletter invitation note'.split(
      ' ',
    ),
  access: 'acces droit permission role admin administrateur editeur lecteur habilitation'.split(' '),
  booking: 'rendez rdv reservation creneau seance consultation visite reunion chambre table vol billet place sejour salle entretien'.split(
    ' ',
  ),
  publication: 'annonce publication post avis commentaire article tweet story'.split(' '),
};

export function frenchObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  const singular = ws.map((w) => w.replace(/(?<=..)[sx]$/, ''));
  for (const [k, nouns] of Object.entries(OBJECTS) as [ObjectKind, string[]][])
    if (ws.some((w, i) => nouns.includes(w) || nouns.includes(singular[i]))) out.add(k);
  return out;
}

/** Pronouns that stand before a verb ("lui envoyer", "je te la transmets"); "le", "la", "les", "l'" and "en" are articles and a preposition too. */
const OBJECT_PRONOUNS = wordSet('me m te t se s lui leur nous vous le la les l y en');
const ARTICLE_LIKE = wordSet('le la les l en');
/** A subject other than the reader: "je lui envoie" states, "qui la règle" relates. */
const SUBJECTS = wordSet('je j il elle on ils elles ce c ca cela qui');
/** Words after which a verb is a verb: a conjunction, an adverb, "s'il te plaît", the subject "tu". */
const VERB_CONTEXT = wordSet(
  'et puis ensuite alors aussi egalement mais sinon donc enfin maintenant stp svp plait oui ok okay bien directement vite surtout abord tu bon apres deja',
);
/** Verbs of wanting before an infinitive: "je voudrais réserver", "il faut payer" (a third person's wish asks nothing of the reader). */
const WANT = wordSet(
  'veux voudrais voulons voulez vouloir aimerais aimerions souhaite souhaiterais souhaitons souhaitez faut faudrait faudra veuillez prefere preferez',
);
/** Verbs of being able or obliged before an infinitive: "peux-tu envoyer", "vous devez régler"; "je peux envoyer" states. */
const CAN = wordSet('peux pouvez pourrais pourriez pourras pourrez dois devez devrais devriez devras devrez vas allez va');
const THIRD = wordSet('il elle ils elles on ca cela qui ce c');
/** Words after which "de" or "à" leads into an order: "merci de", "n'oublie pas de", "pense à". */
const DE_LEAD = wordSet('merci priere oublie oubliez essaie essaye essayez tache tachez besoin charge demande pense pensez veille veillez');
const QUESTION_WORDS = wordSet(
  'qui quoi que qu quel quelle quels quelles combien comment quand ou pourquoi lequel laquelle lesquels lesquelles',
);
/** A verb's own noun, where a clause may open with it as a heading: "Relance de Mme Roy", "Note : …", "Facture n° 12". */
const HOMOGRAPHS = wordSet(
  'relance note paie regle affiche annonce solde commande poste reserve programme partage copie signe cloture valide demande facture classe marque change rappel passe',
);
/** A verb whose answer to the user is no message: "dis-moi", "envoie-moi un résumé", "préviens-moi". */
const TO_USER = wordSet('moi nous');

export interface FrenchAction {
  category: Category;
  /** The words of the clause after the verb, for its objects. */
  after: string[];
  /** The words that asked, for the evidence. */
  words: string;
}

/**
 * The actions a French request asks for, clause by clause. A question that opens with an
 * interrogative asks about things ("Combien reste-t-il ?"), where "Peux-tu envoyer … ?" asks for
 * the action; "Dois-je payer … ?" and "Faut-il relancer … ?" ask advice (their verb follows a
 * subject other than the reader).
 */
export function frenchActions(prose: string): FrenchAction[] {
  const out: FrenchAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  for (const clause of prose.replace(/\.(?=\s|$)/g, '\n').match(/[^;!?\n]+\?*/g) ?? []) {
    const cw = wordsOf(clause);
    const ws = cw.map((x) => x.w);
    if (ws.length === 0 || (clause.trim().endsWith('?') && QUESTION_WORDS.has(ws[0]))) continue;
    const { parts, labels } = partsOf(clause);
    for (let i = 0; i < ws.length; i++) {
      const v = verbAt(cw, i, labels, ws);
      if (!v || v.category === 'read') continue;
      const run = pronounsBefore(ws, i, parts);
      if (!stands(ws, i, run, parts, v.infinitive) || inIndirectQuestion(ws, i, parts)) continue;
      if ((v.category === 'send' || v.category === 'share') && toUser(ws, i, run)) continue;
      const after = ws.slice(i + 1, i + 13);
      const asked = { after, words: ws.slice(i, i + 4).join(' ') };
      out.push({ ...asked, category: v.verb === 'transferer' && frenchObjects(after).has('message') ? 'send' : v.category });
    }
  }
  return out;
}

/** The verb at `i`, with what its clause says of it: a light verb by its noun, "affiche" on a venue, "renvoie" to a recipient. */
function verbAt(
  cw: readonly Word[],
  i: number,
  labels: ReadonlySet<number>,
  ws: readonly string[] = cw.map((x) => x.w),
): { category: Category; verb: string; infinitive: boolean } | undefined {
  const w = ws[i];
  if (labels.has(i)) return undefined;
  const light = LIGHT_FORMS.get(w);
  if (light) {
    if (/é$/.test(cw[i].raw)) return undefined;
    const category = lightCategory(light, ws.slice(i + 1, i + 7));
    return category ? { category, verb: light, infinitive: w === light } : undefined;
  }
  const f = FORMS.get(w);
  if (!f) return undefined;
  // "réglé", "relancé": a participle, folded like "règle", "relance".
  if (f.er && !f.infinitive && /é$/.test(cw[i].raw)) return undefined;
  if (HOMOGRAPHS.has(w) && nounHeading(cw, i)) return undefined;
  const after = ws.slice(i + 1, i + 13);
  if (f.verb === 'afficher' && onVenue(after)) return { category: 'publish', verb: f.verb, infinitive: f.infinitive };
  if (f.verb === 'renvoyer' && after.some((x) => /^(?:a|au|aux|lui|leur)$/.test(x) || x.includes('@')))
    return { category: 'send', verb: f.verb, infinitive: f.infinitive };
  // "Retire 200 € du compte" withdraws money; "retire-la de la liste" removes.
  if (f.verb === 'retirer' && frenchObjects(after).has('money')) return { category: 'pay', verb: f.verb, infinitive: f.infinitive };
  // "qu'il récupère ses 14 000 €": money got back is money paid back.
  if (f.verb === 'recuperer' && frenchObjects(after.slice(0, 5)).has('money'))
    return { category: 'pay', verb: f.verb, infinitive: f.infinitive };
  return f;
}

/** A verb's own noun heading a record: followed by "de", a number, a participle, or nothing. */
function nounHeading(cw: readonly Word[], i: number): boolean {
  const next = cw[i + 1];
  if (!next) return true;
  return /^(?:de|d|du|des|n|no|numero)$/.test(next.w) || /^\d/.test(next.w) || /(?:é|ée|és|ées)$/.test(next.raw);
}

/** Where something put up is read by others: "sur le site", "en ligne", "à l'affichage", "dans le hall". */
const VENUES = wordSet(
  'site extranet intranet portail blog page facebook instagram linkedin twitter panneau tableau vitrine reseaux forum hall affichage web',
);
function onVenue(after: readonly string[]): boolean {
  return after.some((w, k) => VENUES.has(w) || (w === 'ligne' && after[k - 1] === 'en'));
}

/** Nouns of an action, by its category, for a light verb. */
const LIGHT_NOUNS: Record<string, Category> = {
  virement: 'pay',
  paiement: 'pay',
  reglement: 'pay',
  remboursement: 'pay',
  avoir: 'pay',
  versement: 'pay',
  acompte: 'pay',
  avance: 'pay',
  distribution: 'pay',
  geste: 'pay',
  achat: 'pay',
  commande: 'pay',
  modification: 'change',
  changement: 'change',
  correction: 'change',
  saisie: 'change',
  avenant: 'change',
  devis: 'change',
  facture: 'change',
  inscription: 'change',
  declaration: 'change',
  ecriture: 'change',
  transfert: 'change',
  jour: 'change',
  annulation: 'delete',
  suppression: 'delete',
  resiliation: 'delete',
  reservation: 'book',
  rendez: 'book',
  rdv: 'book',
  billet: 'book',
  envoi: 'send',
  relance: 'send',
  rappel: 'send',
  courrier: 'send',
  courriel: 'send',
  mail: 'send',
  message: 'send',
  reponse: 'send',
  sms: 'send',
  appel: 'send',
  coup: 'send',
  copie: 'send',
  suivre: 'send',
  parvenir: 'send',
  savoir: 'send',
  courant: 'send',
  annonce: 'publish',
  publication: 'publish',
  affichage: 'publish',
  acces: 'share',
  droit: 'share',
  droits: 'share',
  partage: 'share',
  invitation: 'share',
  script: 'exec',
};

/** A light verb's action: its venue ("mets-le en ligne"), the first action noun after it, or what it names alone. */
function lightCategory(verb: string, after: readonly string[]): Category | undefined {
  if ((verb === 'mettre' || verb === 'passer') && onVenue(after)) return 'publish';
  // "Mets Mme Roy en copie" copies her in; "fais une copie" is a copy.
  const noun = after.find((w, k) => LIGHT_NOUNS[w] !== undefined && (w !== 'copie' || after[k - 1] === 'en'));
  if (noun) return LIGHT_NOUNS[noun];
  return after.includes('copie') ? 'change' : LIGHT[verb].alone;
}

/** Where a new part of a clause starts, by this reader's words (lexicon.ts, clauseParts). */
const partsOf = (clause: string) => clauseParts(clause, (t) => wordsOf(t).length);

/** The pronouns just before `i`, in its part: "lui" in "merci de lui envoyer", "te la" in "je te la transmets". */
function pronounsBefore(ws: readonly string[], i: number, parts: ReadonlySet<number>): string[] {
  const run: string[] = [];
  for (let j = i - 1; j >= 0 && !parts.has(j + 1) && OBJECT_PRONOUNS.has(ws[j]); j--) run.unshift(ws[j]);
  return run;
}

/**
 * Whether the verb at `i` stands as a verb the reader is asked to carry out: first in its part, or
 * after a word that leads into one, with the pronouns before it (`run`). A negation ("ne lui envoie
 * pas", "sans le prévenir", "ne pas relancer") or a subject ("je lui envoie", "qui la règle") leads
 * into none. "La", "le", "les" alone before a finite form are articles ("et la relance à Mme Roy")
 * unless "tu" says otherwise ("tu la règles").
 */
function stands(ws: readonly string[], i: number, run: readonly string[], parts: ReadonlySet<number>, infinitive: boolean): boolean {
  const j = i - 1 - run.length;
  const strong = run.some((p) => !ARTICLE_LIKE.has(p));
  if (run.length > 0 && !strong && !infinitive) return j >= 0 && !parts.has(j + 1) && ws[j] === 'tu';
  // "Nous lui envoyons" states; "Vous lui envoyez la facture" asks, as "Envoyez-lui" does.
  if (j < 0 || parts.has(j + 1)) return !(run[0] === 'nous' && !infinitive);
  const before = ws[j];
  if (SUBJECTS.has(before)) return false;
  if (VERB_CONTEXT.has(before) || ((before === 'que' || before === 'qu') && run[0] === 'vous')) return true;
  if (!infinitive) return false;
  if (WANT.has(before)) return before.startsWith('fa') || !THIRD.has(ws[j - 1]);
  if (CAN.has(before)) return !THIRD.has(ws[j - 1]) && !['je', 'j', 'nous'].includes(ws[j - 1]);
  if (before === 'de' || before === 'd' || before === 'a')
    return DE_LEAD.has(ws[j - 1]) || (ws[j - 1] === 'pas' && /^oubli/.test(ws[j - 2] ?? ''));
  return false;
}

/** A message to the user: "envoie-moi", "transmets-le-moi", "tu me préviens", "peux-tu nous écrire". */
function toUser(ws: readonly string[], i: number, run: readonly string[]): boolean {
  const next = ARTICLE_LIKE.has(ws[i + 1]) ? ws[i + 2] : ws[i + 1];
  return TO_USER.has(next) || run.includes('me') || run.includes('m') || (run.includes('nous') && run[0] !== 'nous');
}

/** A verb after a "si" (whether) that does not open its part: "vérifie s'il faut payer" asks about it; "si elle n'a pas payé, relance-la" is a condition. */
function inIndirectQuestion(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && !parts.has(j + 1); j--) {
    if (['et', 'mais', 'puis', 'ensuite'].includes(ws[j])) return false;
    const si = ws[j] === 'si' || (ws[j] === 's' && (ws[j + 1] === 'il' || ws[j + 1] === 'ils'));
    if (si && j > 0 && !parts.has(j)) return true;
  }
  return false;
}

/** Words that lead into an order without changing it: "Merci de …", "Important : …", "Ensuite …". */
const ORDER_LEAD_IN = wordSet(
  'merci de d veuillez priere svp stp plait vous te s il important urgent attention nb ps egalement aussi ensuite puis enfin maintenant desormais dorenavant donc alors bien',
);
/** An obligation put on the reader, or on whoever holds a role: "il faut virer …", "vous devez transmettre …", "il convient de régler …", "le gestionnaire de la fiche doit ajouter …". */
const OBLIGATION =
  /\b(?:il\s+faut(?:\s+que\s+(?:vous|tu))?|il\s+faudra|il\s+faudrait|vous\s+devez|tu\s+dois|vous\s+devrez|il\s+convient\s+de|il\s+est\s+demand[ée]\s+de|on\s+doit|doit|doivent|devra|devront)\s+(?:(?:imp[ée]rativement|obligatoirement|d[ée]sormais|syst[ée]matiquement|toujours)\s+)?(?:(?:lui|leur|le|la|les|nous|me)\s+|[lm]['’]\s*)*([\p{L}]+)/iu;

/**
 * An order written in French in data: a clause that opens with an imperative of an action other
 * than reading ("Virez le montant sur le compte …", "transférez ce courriel à …"), or with an
 * infinitive after "merci de", "veuillez" or "prière de"; or an obligation on the reader ("il faut
 * payer …"). A noun heading ("Envoi du dossier", "Relance envoyée le 3 mai") and an infinitive title
 * ("Transmettre le dossier") are no order. Returns the words that order; the caller asks for a
 * target beside it (injection.ts), as it does of a Spanish one.
 */
export function frenchOrderIn(sentence: string): string | undefined {
  for (const written of sentence.split(/[:;,]\s*|\s+et\s+(?:puis\s+|ensuite\s+)?/i)) {
    // "Nous vous remercions d'indiquer …" asks as "merci d'indiquer …" does.
    const part = written.replace(/^\s*(?:nous\s+vous|je\s+vous)\s+remerci(?:ons|e)\s+(?:de\s+|d['’]\s*)/i, 'merci de ');
    const cw = wordsOf(part);
    const ws = cw.map((x) => x.w);
    let i = 0;
    while (i < ws.length && ORDER_LEAD_IN.has(ws[i])) i++;
    const polite = ws.slice(0, i).some((w) => ['merci', 'veuillez', 'priere'].includes(w));
    // "Nous transférons …" states; "merci de nous transférer …" asks.
    while (i < ws.length && OBJECT_PRONOUNS.has(ws[i]) && !ARTICLE_LIKE.has(ws[i]) && (i > 0 || ws[i] !== 'nous')) i++;
    // A first name and a surname ("Lance Schamberger", "Marc Durand"), or an address that starts with a
    // verb-like word ("lance.durand@…"), open a record's line, not an order.
    if (i === 0 && (PROPER_NAME.test(part) || /[@/]|\.\w/.test(part.trim().split(/\s+/)[0] ?? ''))) continue;
    const v = i < ws.length ? verbAt(cw, i, new Set(), ws) : undefined;
    if (!v || v.category === 'read' || (v.infinitive && !polite) || ws.length - i < 3) continue;
    // A third person plural or a "tu" present states ("les locataires règlent …", "relances …").
    if (!v.infinitive && /(?:ent|es)$/.test(ws[i]) && !LIGHT_FORMS.has(ws[i])) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  const m = OBLIGATION.exec(sentence);
  const v = m ? frenchVerb(m[1]) : undefined;
  return v && v.category !== 'read' ? fold(m![0]).split(/\s+/).slice(0, 6).join(' ') : undefined;
}

/** Two capitalised words, the second no function word: a name. */
const PROPER_NAME = /^\s*\p{Lu}\p{Ll}+\s+(?!(?:Le|La|Les|Un|Une|Des|Du|De|Au|Aux|Ce|Cette)\b)\p{Lu}\p{Ll}+/u;

/** A question that offers an action: "Voulez-vous que j'envoie …", "Tu veux que je …", "Dois-je …", "Puis-je …". */
const OFFER_LEAD =
  /^(?:et\s+|alors\s+|(?:est-ce\s+que|est-ce\s+qu['’]))?\s*(?:(?:voulez|veux|souhaitez|souhaites|d[ée]sirez|aimeriez|aimerais|pr[ée]f[ée]rez|pr[ée]f[èe]res)-(?:t-)?(?:vous|tu)|(?:vous|tu)\s+(?:voulez|veux|souhaitez|souhaites|d[ée]sirez|aimeriez|aimerais|pr[ée]f[ée]rez|pr[ée]f[èe]res))\s+que\s+(?:je\s+|j['’])|^(?:(?:dois|puis|devrais|pourrais)-je|(?:est-ce\s+que\s+)?(?:je|j['’])\s*(?:dois|peux|devrais|pourrais))\s+/i;
/** A question that asks leave to go on: "Je procède ?", "C'est bon pour vous ?", "Vous confirmez ?". */
const ASKS_TO_GO_ON =
  /^(?:(?:et\s+)?(?:je|on)\s+(?:proc[èe]de|continue|poursui[st]|lance|valide|confirme|y\s+vais|le\s+fais|fais\s+[çc]a|m['’]en\s+occupe)|on\s+y\s+va|c['’]est\s+(?:bon|ok|d['’]accord)|(?:vous\s+)?confirmez|(?:tu\s+)?confirmes|confirmez-vous|tu\s+confirmes|[çc]a\s+(?:vous|te)\s+va|[çc]a\s+marche|(?:vous\s+)?[êe]tes\s+d['’]accord|[êe]tes-vous\s+d['’]accord|es-tu\s+d['’]accord|d['’]accord|ok(?:ay)?|(?:(?:dois|puis)-je|je\s+peux)\s+(?:proc[ée]der|continuer|poursuivre|y\s+aller|lancer)|(?:voulez|veux|souhaitez)-(?:vous|tu)\s+que\s+je\s+(?:proc[èe]de|continue|poursuive|le\s+fasse|m['’]en\s+occupe))(?:\s+(?:pour\s+(?:vous|toi)|alors|maintenant|donc|[çc]a|comme\s+[çc]a|ainsi))?\s*\?*$/i;
/** "Je vous envoie la convocation ?", "J'envoie les relances ?", "On règle la facture ?". */
const FIRST_PERSON = /^(?:je\s+|j['’]|on\s+)((?:(?:vous|te|lui|leur|le|la|les)\s+|l['’])*)([\p{L}]+)([^?]*)\?*$/iu;
/** A plan in the first person: "Je vais …", "Je peux …", "Je vous propose de …", "Je m'occupe de …". */
const PLAN_LEAD =
  /^(?:je\s+|j['’]|nous\s+|on\s+)(?:vais|allons|va|peux|pouvons|peut|pourrais|pourrions|pourrai|pourrons|compte|comptons|(?:vous|te)\s+propose\s+(?:de\s+|d['’])|propose\s+(?:de\s+|d['’])|m['’]appr[êe]te\s+[àa]|suis\s+en\s+train\s+de|m['’]occupe\s+de|m['’]occupe\s+d['’])\s*(.+?)[.!:]?$/i;
/** A future or conditional in the first person: "J'enverrai …", "Je vous réglerais …". */
const FUTURE = /^(?:je\s+|j['’])((?:(?:vous|te|lui|leur|le|la|les)\s+|l['’])*)([\p{L}]+?)(?:ai|ais)\b(.*?)[.!:]?$/iu;

/** The infinitive of a first-person present ("envoie" → "envoyer") of a verb of an action. */
function infinitiveOf(word: string): string | undefined {
  const f = FORMS.get(fold(word));
  if (f && f.category !== 'read') return f.verb;
  const light = LIGHT_FORMS.get(fold(word));
  return light && LIGHT[light].alone ? light : undefined;
}

/** Future stems ("enverr", "réglerai" → "regler", "transmettrai" → "transmettr") to their infinitive. */
const FUTURE_STEMS: Map<string, string> = (() => {
  const out = new Map<string, string>([
    ['enverr', 'envoyer'],
    ['renverr', 'renvoyer'],
    ['previendr', 'prevenir'],
    ['fer', 'faire'],
  ]);
  for (const [form, f] of FORMS) {
    if (f.category === 'read') continue;
    if (f.infinitive) out.set(f.verb.endsWith('re') ? f.verb.slice(0, -1) : f.verb, f.verb);
    // "paierai", "rappellerai": a stressed root before the future's ending.
    else if (f.er && form.endsWith('e') && !out.has(`${form}r`)) out.set(`${form}r`, f.verb);
  }
  for (const verb of Object.keys(LIGHT)) if (LIGHT[verb].alone) out.set(verb.endsWith('re') ? verb.slice(0, -1) : verb, verb);
  return out;
})();

/**
 * What the assistant offers to do in a French question, written as the user would ask for it:
 * "Voulez-vous que j'envoie les relances ?" gives "envoie les relances"; "Je vous envoie la
 * convocation ?" gives "vous envoyer la convocation"; "Dois-je payer la facture ?" gives "payer la
 * facture"; a question that asks leave to go on ("Je procède ?", "C'est bon pour vous ?") gives
 * 'go-on'. Undefined for any other question.
 */
export function frenchOffer(question: string): string | 'go-on' | undefined {
  const q = question.trim();
  if (!q.endsWith('?')) return undefined;
  if (ASKS_TO_GO_ON.test(q)) return 'go-on';
  const lead = OFFER_LEAD.exec(q);
  if (lead) {
    const rest = q
      .slice(lead[0].length)
      .replace(/\s*\?+$/, '')
      .trim();
    return !rest || /^(?:(?:le|la|l['’])\s*)?(?:fasse|fais|faire)$/i.test(rest) ? 'go-on' : rest;
  }
  const first = FIRST_PERSON.exec(q);
  const inf = first ? infinitiveOf(first[2]) : undefined;
  return inf ? `${first![1]}${inf}${first![3]}`.replace(/\s+/g, ' ').trim() : undefined;
}

/** What the assistant says it will or can do: "Je vais envoyer les relances", "Je peux régler la facture", "J'enverrai la convocation" (as "envoyer la convocation"). */
export function frenchPlan(sentence: string): string | undefined {
  const s = sentence.trim();
  const will = PLAN_LEAD.exec(s);
  if (will) return will[1];
  const future = FUTURE.exec(s);
  const inf = future ? FUTURE_STEMS.get(fold(future[2])) : undefined;
  return inf ? `${future![1]}${inf}${future![3]}`.replace(/\s+/g, ' ').trim() : undefined;
}
