/**
 * The languages the validator reads besides English (docs/taint-policy.md, "Requests in other
 * languages"): a request, an order in data, an assistant's proposal and a tool written in one of
 * them are read by its own grammar into the lexicon's categories and objects, so a request in one
 * language and a tool in another meet on the same labels. A new language is one file with these
 * readers and one line in LANGUAGES.
 */
import { words, type Category, type ObjectKind } from './lexicon.js';
import {
  readsAsSpanish,
  spanishActions,
  spanishCategory,
  spanishInfinitive,
  spanishObjects,
  spanishOffer,
  spanishOrderIn,
  spanishPlan,
} from './spanish.js';
import {
  germanActions,
  germanCategory,
  germanInfinitive,
  germanObjects,
  germanOffer,
  germanOrderIn,
  germanPlan,
  readsAsGerman,
} from './german.js';
import {
  portugueseActions,
  portugueseCategory,
  portugueseInfinitive,
  portugueseObjects,
  portugueseOffer,
  portugueseOrderIn,
  portuguesePlan,
  readsAsPortuguese,
} from './portuguese.js';
import {
  frenchActions,
  frenchCategory,
  frenchInfinitive,
  frenchObjects,
  frenchOffer,
  frenchOrderIn,
  frenchPlan,
  readsAsFrench,
} from './french.js';
import {
  italianActions,
  italianCategory,
  italianInfinitive,
  italianObjects,
  italianOffer,
  italianOrderIn,
  italianPlan,
  readsAsItalian,
} from './italian.js';
import { dutchActions, dutchCategory, dutchInfinitive, dutchObjects, dutchOffer, dutchOrderIn, dutchPlan, readsAsDutch } from './dutch.js';
import {
  polishActions,
  polishCategory,
  polishInfinitive,
  polishObjects,
  polishOffer,
  polishOrderIn,
  polishPlan,
  readsAsPolish,
} from './polish.js';
import {
  scandinavianActions,
  scandinavianCategory,
  scandinavianInfinitive,
  scandinavianObjects,
  scandinavianOffer,
  scandinavianOrderIn,
  scandinavianPlan,
  readsAsScandinavian,
} from './scandinavian.js';
import { czechActions, czechCategory, czechInfinitive, czechObjects, czechOffer, czechOrderIn, czechPlan, readsAsCzech } from './czech.js';
import {
  turkishActions,
  turkishCategory,
  turkishInfinitive,
  turkishObjects,
  turkishOffer,
  turkishOrderIn,
  turkishPlan,
  readsAsTurkish,
} from './turkish.js';
import {
  finnishActions,
  finnishCategory,
  finnishInfinitive,
  finnishObjects,
  finnishOffer,
  finnishOrderIn,
  finnishPlan,
  readsAsFinnish,
} from './finnish.js';
import {
  croatianActions,
  croatianCategory,
  croatianInfinitive,
  croatianObjects,
  croatianOffer,
  croatianOrderIn,
  croatianPlan,
  readsAsCroatian,
} from './croatian.js';
import {
  hungarianActions,
  hungarianCategory,
  hungarianInfinitive,
  hungarianObjects,
  hungarianOffer,
  hungarianOrderIn,
  hungarianPlan,
  readsAsHungarian,
} from './hungarian.js';
import {
  romanianActions,
  romanianCategory,
  romanianInfinitive,
  romanianObjects,
  romanianOffer,
  romanianOrderIn,
  romanianPlan,
  readsAsRomanian,
} from './romanian.js';

export interface LanguageAction {
  category: Category;
  /** The words of the clause after the verb (or besides it), for its objects. */
  after: string[];
  /** The words that asked, for the evidence. */
  words: string;
}

export interface Language {
  name: string;
  /** Whether a text is written in it (its function words). */
  readsAs(text: string): boolean;
  /** The actions a request in it asks for. */
  actions(prose: string): LanguageAction[];
  /** The lexicon's object kinds its nouns name. */
  objects(ws: readonly string[]): Set<ObjectKind>;
  /** An order written in it in data, or undefined. */
  orderIn(sentence: string): string | undefined;
  /** What an assistant's question in it offers to do ('go-on': leave to do what it said before). */
  offer(question: string): string | 'go-on' | undefined;
  /** What an assistant says in it that it will or can do. */
  plan(sentence: string): string | undefined;
  /** How a tool named or described in it is read: its verbs' categories, and where its name holds an infinitive (-1: none). Absent: by its structure only. */
  tools?: { category(word: string): Category | undefined; infinitive(nameWords: readonly string[]): number };
}

export const SPANISH: Language = {
  name: 'Spanish',
  readsAs: readsAsSpanish,
  actions: spanishActions,
  objects: spanishObjects,
  orderIn: spanishOrderIn,
  offer: spanishOffer,
  plan: spanishPlan,
  tools: { category: spanishCategory, infinitive: spanishInfinitive },
};

const PORTUGUESE: Language = {
  name: 'Portuguese',
  readsAs: readsAsPortuguese,
  actions: portugueseActions,
  objects: portugueseObjects,
  orderIn: portugueseOrderIn,
  offer: portugueseOffer,
  plan: portuguesePlan,
  tools: { category: portugueseCategory, infinitive: portugueseInfinitive },
};

const FRENCH: Language = {
  name: 'French',
  readsAs: readsAsFrench,
  actions: frenchActions,
  objects: frenchObjects,
  orderIn: frenchOrderIn,
  offer: frenchOffer,
  plan: frenchPlan,
  tools: { category: frenchCategory, infinitive: frenchInfinitive },
};

const ITALIAN: Language = {
  name: 'Italian',
  readsAs: readsAsItalian,
  actions: italianActions,
  objects: italianObjects,
  orderIn: italianOrderIn,
  offer: italianOffer,
  plan: italianPlan,
  tools: { category: italianCategory, infinitive: italianInfinitive },
};

const POLISH: Language = {
  name: 'Polish',
  readsAs: readsAsPolish,
  actions: polishActions,
  objects: polishObjects,
  orderIn: polishOrderIn,
  offer: polishOffer,
  plan: polishPlan,
  tools: { category: polishCategory, infinitive: polishInfinitive },
};

const DUTCH: Language = {
  name: 'Dutch',
  readsAs: readsAsDutch,
  actions: dutchActions,
  objects: dutchObjects,
  orderIn: dutchOrderIn,
  offer: dutchOffer,
  plan: dutchPlan,
  tools: { category: dutchCategory, infinitive: dutchInfinitive },
};

const GERMAN: Language = {
  name: 'German',
  readsAs: readsAsGerman,
  actions: germanActions,
  objects: germanObjects,
  orderIn: germanOrderIn,
  offer: germanOffer,
  plan: germanPlan,
  tools: { category: germanCategory, infinitive: germanInfinitive },
};

// Norwegian (bokmål), Danish and Swedish, read as one: they share their grammar and most of their verbs.
const SCANDINAVIAN: Language = {
  name: 'Scandinavian',
  readsAs: readsAsScandinavian,
  actions: scandinavianActions,
  objects: scandinavianObjects,
  orderIn: scandinavianOrderIn,
  offer: scandinavianOffer,
  plan: scandinavianPlan,
  tools: { category: scandinavianCategory, infinitive: scandinavianInfinitive },
};

const CZECH: Language = {
  name: 'Czech',
  readsAs: readsAsCzech,
  actions: czechActions,
  objects: czechObjects,
  orderIn: czechOrderIn,
  offer: czechOffer,
  plan: czechPlan,
  tools: { category: czechCategory, infinitive: czechInfinitive },
};

const TURKISH: Language = {
  name: 'Turkish',
  readsAs: readsAsTurkish,
  actions: turkishActions,
  objects: turkishObjects,
  orderIn: turkishOrderIn,
  offer: turkishOffer,
  plan: turkishPlan,
  tools: { category: turkishCategory, infinitive: turkishInfinitive },
};

const FINNISH: Language = {
  name: 'Finnish',
  readsAs: readsAsFinnish,
  actions: finnishActions,
  objects: finnishObjects,
  orderIn: finnishOrderIn,
  offer: finnishOffer,
  plan: finnishPlan,
  tools: { category: finnishCategory, infinitive: finnishInfinitive },
};

const CROATIAN: Language = {
  name: 'Croatian',
  readsAs: readsAsCroatian,
  actions: croatianActions,
  objects: croatianObjects,
  orderIn: croatianOrderIn,
  offer: croatianOffer,
  plan: croatianPlan,
  tools: { category: croatianCategory, infinitive: croatianInfinitive },
};

const HUNGARIAN: Language = {
  name: 'Hungarian',
  readsAs: readsAsHungarian,
  actions: hungarianActions,
  objects: hungarianObjects,
  orderIn: hungarianOrderIn,
  offer: hungarianOffer,
  plan: hungarianPlan,
  tools: { category: hungarianCategory, infinitive: hungarianInfinitive },
};

const ROMANIAN: Language = {
  name: 'Romanian',
  readsAs: readsAsRomanian,
  actions: romanianActions,
  objects: romanianObjects,
  orderIn: romanianOrderIn,
  offer: romanianOffer,
  plan: romanianPlan,
  tools: { category: romanianCategory, infinitive: romanianInfinitive },
};

/**
 * In the order a text is tried: Finnish, Hungarian, Turkish, Croatian, Czech, Scandinavian and
 * Romanian first, each saying yes only where its own words outnumber the others' (Croatian before
 * Czech, whose letters "č", "š", "ž" it writes; Romanian before Polish and Dutch, which would take a
 * Romanian "mail" or "nu" for their own); then Polish, Dutch and Italian, whose readers say yes only
 * where their own words outnumber every other language's (a Polish "nie" or "do", a Dutch "je" or
 * "de", an Italian "il" or "lui", reads as another language to readers that do not weigh them);
 * Portuguese before Spanish, whose function words it shares (a Portuguese text can read as Spanish;
 * readsAsPortuguese weighs the words only Portuguese has).
 */
export const LANGUAGES: readonly Language[] = [
  FINNISH,
  HUNGARIAN,
  TURKISH,
  CROATIAN,
  CZECH,
  SCANDINAVIAN,
  ROMANIAN,
  POLISH,
  DUTCH,
  ITALIAN,
  PORTUGUESE,
  FRENCH,
  SPANISH,
  GERMAN,
];

/**
 * The language a text is written in, of those read here; undefined for English or any other.
 * Addresses and links say nothing of it ("gmail.com" holds Portuguese "com"): they are left out.
 */
export function languageOf(text: string): Language | undefined {
  const prose = text.slice(0, 8_000).replace(ADDRESSES, ' ');
  return LANGUAGES.find((l) => l.readsAs(prose));
}
const ADDRESSES = /\S+@\S+|\b(?:https?:\/\/|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:\/\S*)?/gi;

/**
 * The language a tool is written in: its description's, else the first whose infinitive its name
 * holds (`enviar_oferta`, `envoyer_courriel`, `gerarCobrancaPix`). A name alone is tried Spanish
 * first: the infinitives Spanish and Portuguese share ("enviar", "pagar") read the same in both.
 */
export function toolLanguage(name: readonly string[], description: string): Language | undefined {
  const described = languageOf(description);
  // A description is read in its language where it or the name holds one of that language's
  // verbs; one that holds none is read as English ("op = credit|…" is no Dutch).
  if (described?.tools) {
    const verbs = words(description.slice(0, 2_000)).some((w) => described.tools!.category(w) !== undefined);
    return verbs || described.tools.infinitive(name) >= 0 ? described : undefined;
  }
  const byName = [SPANISH, FRENCH, PORTUGUESE, ITALIAN, POLISH, ROMANIAN].find((l) => l.tools!.infinitive(name) >= 0);
  // Languages whose verbs English writes as names of things ("mailer", "post", "over") are tried
  // by the name alone only where there is no description to read.
  if (byName || description.trim() !== '') return byName;
  return [CZECH, CROATIAN, SCANDINAVIAN, TURKISH, FINNISH, HUNGARIAN, DUTCH, GERMAN].find((l) => l.tools!.infinitive(name) >= 0);
}
