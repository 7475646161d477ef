/**
 * Whether the validator can read a sentence at all. Its detector and its intent parse read
 * English; a sentence of prose in another language could be an order it cannot see (docs/
 * taint-policy.md, "Text the validator cannot read"). Language is told by function words alone
 * (articles, pronouns, prepositions, auxiliaries): every English sentence of some length has them,
 * whatever its subject, and what they are is the same in any domain. Names, lists, codes and
 * tables are not prose and are never unreadable.
 */

/** English function words: the words a sentence of English cannot go long without. */
const FUNCTION_WORDS = new Set(
  (
    'the a and or but nor of to in on at for with from by as into onto about over under after before than then ' +
    'is are was were be been being am do does did done have has had having will would can could shall should may might must ' +
    'i me my we us our you your he him his she her it its they them their this that these those there here what which who ' +
    'whom whose when where why how not no yes all any some each every if so up out just also only very more most please ' +
    "let's don't can't won't isn't it's i'm you're we're " +
    // The short content words English uses most: they are not another language's function words.
    'get got let set put see saw say use way day new old one two six ten now too off far yet own few etc ago end try ' +
    'run big top low ask buy pay add fix job key lot man men sit win won age air art bad bed box boy car cut eye fun guy ' +
    'hot kid law lay leg lie log map mix net oil pop red row sea sky son sun tax tea web back like'
  ).split(' '),
);

/** Whether a word, in any case and with either apostrophe, is one of the English words above. */
const isEnglish = (w: string) => FUNCTION_WORDS.has(w.toLowerCase().replace(/’/g, "'"));

/** Markup (tags, entities), or else a run of non-space: the pieces `notWords` takes a sentence apart into. */
const PIECES = /(<[^<>]{0,300}>|&#?\w+;)|\S+/gu;
/** Inside a token: an `@`, a slash, an underscore, a digit or code's punctuation, or a dot between letters. */
const NOT_WORD_INSIDE = /[@/_\d$={}()<>;\\|#*]|\w\.\w/u;

/**
 * The sentence with markup and every token that is no word blanked: addresses, links, file names,
 * identifiers, code, and options (a token that opens with a dash after a space). One pass that
 * tests each token once, so a long token (a pasted blob) costs its length, not its square.
 */
function notWords(sentence: string): string {
  return sentence.replace(PIECES, (piece: string, markup: string | undefined, at: number) => {
    if (markup !== undefined || NOT_WORD_INSIDE.test(piece)) return ' ';
    const option = piece.length > 1 && piece.startsWith('-') && (at === 0 || /\s/.test(sentence[at - 1]));
    return option ? ' ' : piece;
  });
}

/** A `Label: value` field's label: a name, not a word of the value's language. */
const LABEL = /^\s*[\w"' .()-]{1,40}:\s+/;

/** A quotation (a subject line, a title, a message to pass on): cited words, in whatever language, not the sentence's own. */
const QUOTED = /(?<!\p{L})(?:'[^'\n]{1,80}'|"[^"\n]{1,80}"|‘[^’\n]{1,80}’|“[^”\n]{1,80}”|„[^“”\n]{1,80}[“”])(?!\p{L})/gu;

/** The words of a sentence: addresses, links, file names, identifiers, codes, quotations and a field's label are no words of its language. */
function wordsOf(sentence: string): RegExpMatchArray | null {
  return wordsIn(ownText(sentence));
}

/** The sentence less what is no word of its language (see wordsOf). */
const ownText = (sentence: string) => notWords(sentence.replace(LABEL, ' ').replace(QUOTED, ' '));
// A word keeps its combining marks (Thai and Devanagari vowels, Arabic vowel signs): they are no word breaks.
const wordsIn = (text: string) => text.match(/\p{L}[\p{L}\p{M}'’]*/gu);

/** A word that opens with no capital: a lower-case letter, or a letter of a script without case. */
const UNCAPITALISED = /^[\p{Ll}\p{Lo}]/u;

/** Letters of scripts written without spaces between words: Han, Hiragana, Katakana. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/**
 * What such prose builds its sentences with, as English does with function words: Japanese with
 * its particles and endings (Hiragana), Chinese with these characters ("the", "of", "please", "put",
 * "to", "and", "is", "will", pronouns, question endings).
 */
const UNSPACED_GRAMMAR = /[\p{Script=Hiragana}的了是在把请和与就也都要会将从到给让被这那我你他她它们吗呢吧着过]/gu;
/** Prose without spaces: at least this many of its letters, this many of them its grammar. */
const MIN_UNSPACED = 12;
const MIN_UNSPACED_GRAMMAR = 3;

/**
 * Whether a sentence's own text (ownText) is prose in a script without spaces: enough Han or Kana letters, with the
 * characters its grammar is made of among them. A name, an address or a company ("北京市朝阳区建国路",
 * "株式会社山田商事") is letters without that grammar.
 */
function unspacedProse(text: string): boolean {
  const letters = text.match(UNSPACED)?.length ?? 0;
  return letters >= MIN_UNSPACED && (text.match(UNSPACED_GRAMMAR)?.length ?? 0) >= MIN_UNSPACED_GRAMMAR;
}

/** Prose: at least this many words of letters, most of them lower-case. */
const MIN_WORDS = 8;
/** What separates the pieces of an address, a list or a title, and the fewest words a clause of prose has between them. */
const PIECE_BREAK = /[,;|·•–—،、，]|\s-\s/u;
const MIN_CLAUSE = 5;
/** At most this share of English function words: English prose runs at 30–50%. */
const MAX_SHARE = 0.15;

/**
 * Whether `sentence` is prose the validator cannot read: enough words, most of them lower-case,
 * few English function words, and in their place the short words every language builds its
 * sentences with (at least three of two or three letters, twice as many as the English ones, of four
 * kinds or of three beside longer lower-case words: "ist", "von", "den", "que", "les", "het"). A
 * keyword list ("travel plan vacation budget") has none of either, and is not prose; nor are names
 * with their particles.
 */
export function unreadableProse(sentence: string): boolean {
  const own = ownText(sentence);
  if (unspacedProse(own)) return true;
  // Prose has a clause of a few words between its commas, dashes and bars; an address, a list of
  // names or a title is short pieces ("דרך האדמו"ר 63, שבלי - אום אל-גנם, 04366"). Asked last: it
  // reads the sentence again, piece by piece.
  return spacedProse(own) && sentence.split(PIECE_BREAK).some((piece) => (wordsOf(piece)?.length ?? 0) >= MIN_CLAUSE);
}

/** The test of unreadableProse for scripts written with spaces, on the sentence's own text. */
function spacedProse(own: string): boolean {
  const ws = wordsIn(own);
  if (!ws || ws.length < MIN_WORDS) return false;
  // Scripts without case (Arabic, Hebrew, Hangul) count as lower case: only a capital marks a name.
  const lower = ws.filter((w) => UNCAPITALISED.test(w));
  if (lower.length < ws.length / 2) return false;
  const english = ws.filter(isEnglish).length;
  // The first word counts in lower case ("Per favore …"); other capitalised short words are names.
  // One-letter words count ("o", "e", "w", "y"): Portuguese, Polish and Spanish build with them.
  const short = [ws[0].toLowerCase(), ...ws.slice(1).filter((w) => UNCAPITALISED.test(w))].filter(
    (w) => w.length <= 3 && !FUNCTION_WORDS.has(w),
  );
  if (english / ws.length > MAX_SHARE || short.length < 2 * english) return false;
  const long = lower.filter((w) => w.length >= 4).length;
  // No English function word, or one ("a" is Polish and Portuguese too), in eight words of prose:
  // two short words of another language will do beside longer lower-case words.
  if (english <= 1 && short.length >= 2 && long >= 3 + 2 * english) return true;
  if (short.length < 3) return false;
  // Names keep their particles in lower case ("Huisman, van der Meer and van de Berg"): a few
  // particles over and over, and no longer lower-case word. Prose has longer ones beside them.
  const kinds = new Set(short).size;
  return (kinds >= 4 && long >= 1) || (kinds >= 3 && long >= 2);
}

/**
 * Whether a short sentence leans the same way: three words or more, no English function word, and
 * a short word that is none; not a `Label: value` field. Asked only beside unreadable prose (injection.ts), never alone.
 */
export function leansUnreadable(sentence: string): boolean {
  // A record's `Label: value` field names things; it is told alone or not at all.
  if (LABEL.test(sentence)) return false;
  const ws = wordsOf(sentence);
  if (!ws || ws.length < 3) return false;
  if (ws.some(isEnglish)) return false;
  return ws.some((w) => /^\p{Ll}{2,3}$/u.test(w));
}

/** Whether most of a text's prose is unreadable: then the request itself is in another language, and so, likely, is all the data. */
export function mostlyUnreadable(text: string): boolean {
  const sentences = text.split(/[.!?\n]+/).filter((s) => (s.match(/\p{L}+/gu)?.length ?? 0) >= MIN_WORDS);
  return sentences.length > 0 && sentences.filter(unreadableProse).length * 2 >= sentences.length;
}
