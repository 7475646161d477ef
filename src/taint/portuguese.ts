/**
 * Requests and tools written in Portuguese, Brazilian and European. The English parse (intent.ts)
 * finds no verb in "Manda o boleto pra mãe do Pedro" or "Envie-lhe a fatura", and so asks for
 * nothing: every call of a Portuguese-speaking team would be blocked as unasked. This reads
 * Portuguese as spanish.ts reads Spanish: a verb is told by its conjugation (a root and the endings
 * of its class, with the pronouns Portuguese hangs on it: "manda-lhe", "enviá-lo"), by where it
 * stands (the clause's first word, or after "e", "por favor", "pode", "quero que", "dá pra", a
 * pronoun: "me agenda", "lhe envie"), and not when negated ("não manda ainda"), in a question
 * ("Quem está com a mensalidade em aberto?"), in the past or as a participle ("já paguei", "foi
 * enviado"). Light verbs take their noun's action ("faz o pix", "dá acesso"). What a verb asks for
 * is one of the lexicon's action categories (lexicon.ts), so a Portuguese request and an English
 * tool, or the reverse, meet on the same labels.
 */
import { wordsBeforeEach, type Category, type ObjectKind } from './lexicon.js';
import { ENGLISH_FUNCTION, fold, functionWordCounts } from './spanish.js';

/**
 * The words of a text, folded ("não" is "nao", "cobrança" "cobranca"). A pronoun hung on a verb by
 * a hyphen stays with it ("manda-lhe", "envia-lo"), so the verb is read with it; "e-mail" is one word.
 */
export function portugueseWords(text: string): string[] {
  return fold(text)
    .replace(/\be-mails?\b/g, 'email')
    .split(/[^a-z0-9-]+|-(?!(?:me|te|se|lhes?|lh[oa]s?|nos|vos|(?:l|n)?[oa]s?)\b)/)
    .map((w) => w.replace(/^-+|-+$/g, ''))
    .filter(Boolean);
}

const PORTUGUESE_FUNCTION = new Set(
  'de a o que e é do da dos das em no na nos nas um uma para pra pro com não nao por mais se ao aos à às os as isso esse essa este esta ele ela eles elas você voce vocês vc também tambem já muito sem sobre até quando onde porque mas seu sua seus suas meu minha lhe pelo pela então'.split(
    ' ',
  ),
);
/** Words Portuguese has and Spanish, French and German do not, as written (accents or none). */
const NASAL_VOWEL = /[ãõÃÕ]/;
const ONLY_PORTUGUESE = new Set(
  'os não nao você voce vocês voces vc do da dos das em um uma com pra pro pros pras ele ela eles elas isso isto também tambem é e ao aos às na nas pelo pela pelos pelas num numa dele dela deles delas então entao já muito muita seu sua seus suas meu minha lhe lhes são estão obrigado obrigada até essa esse ou'.split(
    ' ',
  ),
);
/** Words of Spanish, French or German that Portuguese does not have: a text with more of them is not Portuguese. */
const ONLY_OTHER = new Set(
  [
    'el del los las y con una usted ustedes también es muy pero hay le les lo yo su sus hasta ella ellos ese esa qué cómo ya puedes gracias nosotros al la',
    'les des du et est une pour vous nous avec sur dans pas ce cette qui il sont au aux je votre vos merci leur',
    'der die und ist nicht ein eine mit für von zu auf bitte sie ich den dem ihr ihm uns wir',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Whether a text is written in Portuguese: more of its function words are Portuguese than English,
 * two at least, and more of its words are only Portuguese than only Spanish, French or German
 * ("com", "não", "você" against "con", "y", "usted"), so Spanish, which shares most function words,
 * stays with spanish.ts. Its first 4,000 characters.
 */
export function readsAsPortuguese(text: string): boolean {
  const n = functionWordCounts(text, PORTUGUESE_FUNCTION, ENGLISH_FUNCTION);
  if (n.own < 2 || n.own <= n.english) return false;
  const only = functionWordCounts(text, ONLY_PORTUGUESE, ONLY_OTHER);
  // "ã" and "õ" are written in Portuguese alone ("marcações de amanhã"): a word with one counts as Portuguese's own.
  return only.own + (NASAL_VOWEL.test(text.slice(0, 4_000)) ? 1 : 0) > only.english;
}

type Conjugation = 'ar' | 'er' | 'ir';

/**
 * Verb roots by the action they name, each with its conjugation class, and with the root the
 * subjunctive or a stressed syllable takes ("transfir" for transferir, "bloquei" for bloquear), as
 * `root/class` or `root|other/class`. A root with "ç" keeps it before "e" ("lance"), where a "c"
 * turns "qu" ("marque") and a "g" "gu" ("pague"). Verbs whose action turns on their noun are in
 * BY_NOUN; light verbs ("faz o pix") in LIGHT.
 */
const ROOTS: Record<Category, string> = {
  read:
    'olh/ar consult/ar busc/ar pux/ar verific/ar chec/ar list/ar confer|confir/ir procur/ar pesquis/ar ' +
    'mostr/ar abr/ir analis/ar compar/ar calcul/ar resum/ir baix/ar ach/ar encontr/ar revis/ar ' +
    'filtr/ar levant/ar localiz/ar peg/ar acompanh/ar rastre|rastrei/ar',
  send:
    'envi/ar reenvi/ar mand/ar respond/er avis/ar notific/ar comunic/ar inform/ar encaminh/ar ' +
    'lembr/ar escrev/er fal/ar contat/ar contact/ar solicit/ar ped|pec/ir pergunt/ar dispar/ar ' +
    'telefon/ar lig/ar devolv/er',
  share: 'compartilh/ar partilh/ar convid/ar liber/ar conced/er autoriz/ar permit/ir',
  publish: 'public/ar post/ar divulg/ar anunci/ar tuit/ar republic/ar',
  pay: 'pag/ar transfer|transfir/ir reembols/ar estorn/ar deposit/ar quit/ar cobr/ar fatur/ar ressarc/ir compr/ar',
  book: 'agend/ar marc/ar reserv/ar alug/ar contrat/ar',
  change:
    'alter/ar mud/ar atualiz/ar cadastr/ar registr/ar anot/ar cri/ar ger/ar emit/ir lanç/ar ' +
    'matricul/ar troc/ar pass/ar aplic/ar aprov/ar reprov/ar inclu/ir adicion/ar corrig/ir ' +
    'edit/ar salv/ar guard/ar configur/ar ajust/ar renov/ar ativ/ar desativ/ar reativ/ar ' +
    'bloque|bloquei/ar desbloque|desbloquei/ar recus/ar rejeit/ar fech/ar finaliz/ar conclu/ir ' +
    'arquiv/ar mov/er adi/ar antecip/ar prorrog/ar parcel/ar remarc/ar reagend/ar inscrev/er ' +
    'preench/er assin/ar inser|insir/ir confirm/ar acert/ar bot/ar coloc/ar tranc/ar suspend/er perdo/ar ' +
    'met/er acrescent/ar',
  delete: 'cancel/ar exclu/ir apag/ar remov/er delet/ar tir/ar descart/ar anul/ar desmarc/ar desmatricul/ar limp/ar',
  exec: 'execut/ar rod/ar instal/ar',
};

/**
 * Present (third person, the imperative Brazil speaks), subjunctive (the formal imperative: "pague",
 * "envie"), infinitive, personal infinitive and gerund endings. No past forms or participles ("a
 * fatura enviada" states what was done), no first person singular ("o envio", "o pagamento", "o
 * registro" are nouns), and no "-amos" of -ar verbs ("já enviamos" is past as often as present).
 */
const ENDINGS: Record<Conjugation, string[]> = {
  ar: ['ar', 'a', 'as', 'am', 'e', 'es', 'em', 'emos', 'ando', 'armos', 'arem'],
  er: ['er', 'e', 'es', 'em', 'a', 'as', 'am', 'amos', 'endo', 'ermos', 'erem'],
  ir: ['ir', 'e', 'es', 'em', 'a', 'as', 'am', 'amos', 'indo', 'irmos', 'irem'],
};

/** A root's spelling before an ending, folded: "pag" + "e" is "pague", "marc" + "e" "marque", "corrig" + "a" "corrija", "exclu" + "e" "exclui". */
function spelled(root: string, conj: Conjugation, ending: string): string {
  const plain = fold(root);
  if (root.endsWith('ç')) return plain + ending;
  const last = plain.at(-1);
  if (conj === 'ar' && ending.startsWith('e')) {
    if (last === 'c') return `${plain.slice(0, -1)}qu${ending}`;
    if (last === 'g') return `${plain.slice(0, -1)}gu${ending}`;
  }
  if (conj !== 'ar' && last === 'g' && ending.startsWith('a')) return `${plain.slice(0, -1)}j${ending}`;
  if (conj === 'ir' && last === 'u' && (ending === 'e' || ending === 'es')) return plain + ending.replace('e', 'i');
  return plain + ending;
}

interface Form {
  category: Category;
  root: string;
  infinitive: boolean;
}

/** Every form of every root, folded, to the category it names; and every root to its verb's infinitive. */
const FORMS = new Map<string, Form>();
const INFINITIVE_OF_ROOT = new Map<string, string>();
for (const [category, entries] of Object.entries(ROOTS) as [Category, string][])
  for (const entry of entries.split(' ')) {
    const [roots, conj] = entry.split('/') as [string, Conjugation];
    const first = fold(roots.split('|')[0]);
    for (const root of roots.split('|')) {
      INFINITIVE_OF_ROOT.set(fold(root), first + conj);
      for (const ending of ENDINGS[conj]) {
        const form = spelled(root, conj, ending);
        if (!FORMS.has(form)) FORMS.set(form, { category, root: first, infinitive: ending === conj });
      }
    }
  }
// Irregular: ver and ler (to see, to read), dizer (to tell), pôr (to put; its infinitive is the preposition "por").
for (const [category, root, forms] of [
  ['read', 'v', 'ver ve veja vejam vendo'],
  ['read', 'l', 'ler le leia leiam lendo'],
  ['send', 'diz', 'dizer diz diga digam dizendo'],
  ['change', 'po', 'poe ponha ponham pondo'],
] as [Category, string, string][])
  for (const f of forms.split(' ')) FORMS.set(f, { category, root, infinitive: f === forms.split(' ')[0] && f.endsWith('r') });

/** Pronouns Portuguese hangs on a verb, after a hyphen ("manda-lhe", "envia-lo") or, where no word ends so, written on it ("mandalhe"). */
const HYPHEN_CLITICS = new Set('me te se lhe lhes nos vos o a os as lo la los las no na lho lha lhos lhas'.split(' '));
const JOINED_CLITICS = ['lhes', 'lhe', 'los', 'las', 'lo', 'la', 'me', 'nos'];

export interface PortugueseVerb {
  category: Category;
  /** A second reading of an ambiguous verb ("passa-lhe …" hands over and moves): a request asks for both. */
  also?: Category;
  infinitive: boolean;
}

/** Verbs whose action is another with a pronoun for the person it goes to: "passa-lhe o contato" hands it over; "confirma-lhe a hora" tells. */
const WITH_PRONOUN: Record<string, Category> = { pass: 'share', confirm: 'send' };
const ALSO_WITH_PRONOUN: Record<string, Category> = { pass: 'change' };

interface Found extends Form {
  clitic?: string;
}

/** A folded word as a verb form, with the pronoun hung on it. "-lo", "-la" drop an infinitive's "r" ("enviá-lo", "pagá-la"). */
function formOf(w: string): Found | undefined {
  const bare = FORMS.get(w);
  if (bare) return bare;
  const hyphen = w.indexOf('-');
  const tries: [string, string][] =
    hyphen > 0
      ? HYPHEN_CLITICS.has(w.slice(hyphen + 1))
        ? [[w.slice(0, hyphen), w.slice(hyphen + 1)]]
        : []
      : JOINED_CLITICS.filter((c) => w.endsWith(c) && w.length - c.length >= 3).map((c) => [w.slice(0, -c.length), c]);
  for (const [base, clitic] of tries) {
    const inf = /^l[oa]s?$/.test(clitic) ? FORMS.get(`${base}r`) : undefined;
    if (inf?.infinitive) return { ...inf, clitic };
    const form = FORMS.get(base) ?? (hyphen > 0 ? lightForm(base) : undefined);
    if (form) return { ...form, clitic };
  }
  return undefined;
}

/** The verb a word is: "Manda-lhe" is mandar with "lhe", "pague" pagar, "enviá-lo" enviar (an infinitive). */
export function portugueseVerb(word: string): PortugueseVerb | undefined {
  const f = formOf(fold(word));
  if (!f || f.root === LIGHT_ROOT) return undefined;
  const pronoun = f.clitic !== undefined && /^lh/.test(f.clitic);
  const also = pronoun ? ALSO_WITH_PRONOUN[f.root] : undefined;
  return { category: (pronoun ? WITH_PRONOUN[f.root] : undefined) ?? f.category, ...(also ? { also } : {}), infinitive: f.infinitive };
}

/** The category of a word as a Portuguese verb (for a tool's name and description). */
export function portugueseCategory(word: string): Category | undefined {
  return portugueseVerb(word)?.category;
}

/** Where a tool's name holds a Portuguese infinitive (`enviar_email`, `gerarCobrancaPix`, `aluno_matricular`), or -1: such a name is Portuguese. */
export function portugueseInfinitive(nameWords: readonly string[]): number {
  return nameWords.findIndex((w) => portugueseVerb(w)?.infinitive === true);
}

/** Nouns that say what an action acts on, by the lexicon's object kinds. A "nota fiscal" is money, a "nota" alone a message. */
const OBJECTS: Partial<Record<ObjectKind, string[]>> = {
  money: (
    'dinheiro grana valor valores pagamento pagamentos pix boleto boletos cobranca cobrancas mensalidade mensalidades ' +
    'reembolso estorno fatura faturas fiscal nf nfe reais transferencia transferencias deposito ted salario parcela ' +
    'parcelas taxa aluguel multa recibo sinal adiantamento comissao honorarios euros euro dolares renda propina'
  ).split(' '),
  message:
    'email emails mail mensagem mensagens msg whatsapp zap wpp sms aviso avisos recado comunicado carta resposta lembrete circular notificacao nota bilhete'.split(
      ' ',
    ),
  access: 'acesso acessos permissao permissoes usuario administrador admin editor leitor perfil convite'.split(' '),
  booking:
    'consulta agendamento horario reserva aula visita reuniao sessao vaga exame retorno hora entrevista passagem hospedagem matricula mesa quarto'.split(
      ' ',
    ),
  publication: 'post postagem publicacao comentario avaliacao story stories anuncio artigo materia'.split(' '),
  credential: 'senha senhas login token pin'.split(' '),
};

export function portugueseObjects(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const [k, nouns] of Object.entries(OBJECTS) as [ObjectKind, string[]][]) if (ws.some((w) => nouns.includes(w))) out.add(k);
  return out;
}

/** Light verbs: fazer, efetuar, realizar, providenciar and dar carry no action of their own; the noun after them says it. */
const LIGHT_ROOT = 'light';
function lightForm(w: string): Form | undefined {
  return /^(?:faz|fazer|fazendo|fazem|faca|facam|efetu(?:a|e|ar|em|am)|realiz(?:a|e|ar|em|am)|providenci(?:a|e|ar|em|am)|da|dar|dando|deem|dao|deixa|deixe|deixar)$/.test(
    w,
  )
    ? { category: 'change', root: LIGHT_ROOT, infinitive: /r$/.test(w) }
    : undefined;
}
/** Nouns of an action, by its category ("faz o pix" pays, "faz o cancelamento" deletes, "faz o boleto" makes one). */
const ACTION_NOUNS: Record<string, Category> = {
  pix: 'pay',
  transferencia: 'pay',
  ted: 'pay',
  deposito: 'pay',
  pagamento: 'pay',
  estorno: 'pay',
  reembolso: 'pay',
  credito: 'pay',
  devolucao: 'pay',
  ressarcimento: 'pay',
  cobranca: 'pay',
  agendamento: 'book',
  reserva: 'book',
  marcacao: 'book',
  matricula: 'change',
  inscricao: 'change',
  cadastro: 'change',
  lancamento: 'change',
  alteracao: 'change',
  mudanca: 'change',
  troca: 'change',
  correcao: 'change',
  atualizacao: 'change',
  emissao: 'change',
  boleto: 'change',
  nota: 'change',
  baixa: 'change',
  cancelamento: 'delete',
  exclusao: 'delete',
  envio: 'send',
  publicacao: 'publish',
  postagem: 'publish',
  post: 'publish',
  divulgacao: 'publish',
};
/**
 * What dar asks for by its noun: "dá acesso" shares, "dá um retorno" tells, "dá baixa no boleto"
 * records it as settled (a change: the record stays, its state moves; "dar baixa" is no deletion as
 * Spanish "dar de baja" is), "dá uma olhada" reads. Without such a noun dar asks for nothing.
 */
const DAR_NOUNS: Record<string, Category> = {
  acesso: 'share',
  permissao: 'share',
  retorno: 'send',
  resposta: 'send',
  satisfacao: 'send',
  toque: 'send',
  aviso: 'send',
  desconto: 'change',
  entrada: 'change',
  baixa: 'change',
  olhada: 'read',
  olhadinha: 'read',
};

/** The action a light verb at `i` takes from a noun within four words after it. Bare "de" is dar ("dê") only where a verb stands first. */
function lightVerb(ws: readonly string[], i: number, first: boolean): Category | undefined {
  const w = ws[i].replace(/-.*/, '');
  if (!lightForm(w) && !(w === 'de' && first)) return undefined;
  const dar = /^d/.test(w);
  for (const n of ws.slice(i + 1, i + 5)) {
    const c = (dar ? DAR_NOUNS[n] : undefined) ?? ACTION_NOUNS[n];
    if (c) return c;
  }
  return undefined;
}

/** Nouns of money moving: a send verb with one of them pays too ("manda um pix pro João"). */
const PAY_NOUNS = new Set('pix dinheiro grana ted transferencia deposito'.split(' '));

/**
 * A verb whose action turns on its noun: "devolve o valor" pays back where "devolve o contrato"
 * sends it; "libera o pagamento" pays where "libera o acesso" shares; "acerta com o pintor" or
 * "acerta a conta" pays where "acerta a data" changes it; "marca como pago" changes, where "marca
 * a consulta" books; "confirma com a escola" tells.
 */
function byNoun(root: string, category: Category, after: readonly string[]): Category[] {
  const near = after.slice(0, 4);
  const money = near.some((w) => OBJECTS.money!.includes(w) || ACTION_NOUNS[w] === 'pay');
  if (root === 'devolv' || root === 'liber') return [money ? 'pay' : category];
  if (root === 'acert') return [money || after[0] === 'com' ? 'pay' : 'change'];
  if (root === 'marc' && after[0] === 'como') return ['change'];
  if (root === 'lembr' && (after[0] === 'de' || after[0] === 'que')) return ['read'];
  if (root === 'confirm' && after[0] === 'com') return ['send'];
  if (category === 'send' && near.some((w) => PAY_NOUNS.has(w))) return ['send', 'pay'];
  return [category];
}

/**
 * Forms that are as often nouns ("a agenda", "reserva confirmada", "informe de rendimentos", "troca
 * de turma"): read as verbs only before what a verb takes (an article, a pronoun, "pra"), not
 * before "de", "e", a participle or the clause's end.
 */
const NOUN_HOMOGRAPHS = new Set(
  'agenda reserva reservas marca troca consulta lista busca informe ajuste lance passe poste cobre cobra matricula registra roda tira guarda compra compras peca pecas fatura faturas parcela parcelas publica publicas'.split(
    ' ',
  ),
);
function readsAsNoun(form: string, next: string | undefined): boolean {
  return NOUN_HOMOGRAPHS.has(form) && (next === undefined || /^(?:de|do|da|dos|das|e|ou|em)$/.test(next) || /(?:ad|id)[oa]s?$/.test(next));
}

/** Words a verb may stand after and still be one: pronouns, "você", adverbs, "por favor". */
const SKIPPABLE = new Set(
  'me te lhe lhes nos vos voce vc tu ce ja so tambem logo agora entao ai dai depois primeiro antes hoje amanha favor gentileza pfv pf porfa sim ok'.split(
    ' ',
  ),
);
/** Words after which a verb form is a verb: a conjunction, a modal or a verb of wanting. */
const TRIGGERS = new Set(
  'e mas ou pode podes poderia podia consegue consegues conseguiria quero queria preciso precisamos precisa vamos bora tenta tente'.split(
    ' ',
  ),
);
/** "quero que você mande", "preciso que pague": "que" after these. */
const WANT = new Set('quero queria preciso precisamos precisava gostaria peco tem temos tenho'.split(' '));
/** "não esquece de mandar", "gostaria de enviar": "de" after these. */
const BEFORE_DE = new Set(
  'gostaria lembra lembre esquece esqueca esquecam deixa deixe deixem preciso precisamos precisa precisava'.split(' '),
);

/** Whether the word at `i` stands where a verb does: first in its part, or after a trigger, with pronouns and adverbs between. */
function standsAsVerb(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  let j = i - 1;
  while (j >= 0 && !parts.has(j + 1) && (SKIPPABLE.has(ws[j]) || (ws[j] === 'por' && /^(?:favor|gentileza)$/.test(ws[j + 1])))) j--;
  if (j < 0 || parts.has(j + 1)) return true;
  const w = ws[j];
  const before = ws[j - 1];
  return (
    TRIGGERS.has(w) ||
    (w === 'que' && WANT.has(before)) ||
    (w === 'de' && BEFORE_DE.has(before)) ||
    (/^(?:pra|para)$/.test(w) && /^(?:da|de)$/.test(before)) ||
    (w === 'como' && before === 'tem') ||
    (w === 'tal' && before === 'que')
  );
}

const NEGATORS = new Set(['nao', 'nem', 'nunca', 'sem', 'jamais', 'tampouco']);
const QUESTION_WORDS = new Set(
  'que quem quanto quanta quantos quantas quando onde aonde como qual quais porque pq por tem ha existe existem cade'.split(' '),
);

export interface PortugueseAction {
  category: Category;
  /** The words of the clause after the verb, for its objects. */
  after: string[];
  /** The words that asked, for the evidence. */
  words: string;
}

/**
 * The actions a Portuguese request asks for, clause by clause. A question that opens with an
 * interrogative asks about things ("Quanto a gente deve?", "Tem vaga?"), where "Pode mandar …?"
 * asks for the action; a send to the user ("me fala", "me manda um resumo", "manda pra mim") is a
 * reply.
 */
export function portugueseActions(prose: string): PortugueseAction[] {
  const out: PortugueseAction[] = [];
  // A full stop ends a clause only before a space or the end: not inside an address or a number.
  const text = prose.replace(/\.(?=\s|$)/g, '\n');
  for (const clause of text.match(/[^;!?\n]+\?*/g) ?? []) {
    const ws = portugueseWords(clause);
    const lead = ws.findIndex((w) => !/^(?:e|mas|entao|ai)$/.test(w));
    const opener = ws[lead] === 'o' && ws[lead + 1] === 'que' ? 'que' : ws[lead];
    // "Tem como mandar …?" and "Que tal mandar …?" ask for it.
    const asks = ws[lead + 1] === 'como' || ws[lead + 1] === 'tal';
    if (ws.length === 0 || (clause.trim().endsWith('?') && QUESTION_WORDS.has(opener) && !asks)) continue;
    const parts = partStarts(clause);
    for (let i = 0; i < ws.length; i++) {
      if (!(i === 0 || parts.has(i) || standsAsVerb(ws, i, parts))) continue;
      const light = lightVerb(ws, i, i === 0 || parts.has(i) || /^(?:lhe|lhes|favor)$/.test(ws[i - 1]));
      const f = light ? undefined : formOf(ws[i]);
      if (!light && (!f || f.root === LIGHT_ROOT || readsAsNoun(ws[i], ws[i + 1]))) continue;
      if (negated(ws, i, parts) || inIndirectQuestion(ws, i, parts)) continue;
      const after = ws.slice(i + 1, i + 13);
      const pronoun = f?.clitic !== undefined && /^lh/.test(f.clitic);
      const category = light ?? (pronoun ? WITH_PRONOUN[f!.root] : undefined) ?? f!.category;
      if (category === 'read') continue;
      const categories = (f && !pronoun ? byNoun(f.root, category, after) : [category]).filter((c) => c !== 'read');
      if (categories.length === 0) continue;
      if (categories[0] === 'send' && toUser(ws, i, f?.clitic)) continue;
      const also = pronoun ? ALSO_WITH_PRONOUN[f!.root] : undefined;
      for (const c of also ? [...categories, also] : categories) out.push({ category: c, after, words: ws.slice(i, i + 4).join(' ') });
    }
  }
  return out;
}

/** A send to the user: "me" or "nos" before or on the verb, or "pra mim" after it ("me avisa", "manda-me", "manda pra mim"). */
function toUser(ws: readonly string[], i: number, clitic: string | undefined): boolean {
  if (clitic === 'me' || clitic === 'nos' || ws[i - 1] === 'me' || ws[i - 1] === 'nos') return true;
  const after = ws.slice(i + 1, i + 5).join(' ');
  return /\b(?:pra|para) (?:mim|gente|nos)\b/.test(after);
}

/** The word indices where a comma starts a new part of a clause. */
function partStarts(clause: string): Set<number> {
  return new Set(wordsBeforeEach(clause, /,/g, (t) => portugueseWords(t).length).map((x) => x.at));
}

/**
 * A negator up to three words before in the same part, with no "e" or other verb between ("não
 * manda ainda", "sem avisar"), or "não" closing the clause ("manda não"). "Não esquece de mandar"
 * and "não deixa de pagar" ask for it.
 */
function negated(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  if (ws[i + 1] === 'nao' && i + 2 === ws.length) return true;
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    if (parts.has(j + 1)) return false;
    if (BEFORE_DE.has(ws[j])) return false;
    if (NEGATORS.has(ws[j])) return true;
    if (ws[j] === 'e' || ws[j] === 'mas' || formOf(ws[j]) !== undefined) return false;
  }
  return false;
}

/** A verb after a "se" (whether) that does not open its part: "vê se ela pagou" asks about it; "se não, cobra ela" is a condition. */
function inIndirectQuestion(ws: readonly string[], i: number, parts: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0 && !parts.has(j + 1); j--) {
    if (ws[j] === 'e' || ws[j] === 'mas') return false;
    if (ws[j] === 'se' && j > 0 && !parts.has(j)) return true;
  }
  return false;
}

/** Words that lead into an order without changing it: "Por favor, …", "Obs: …", "Agora …". */
const ORDER_LEAD_IN = new Set(
  'por favor gentileza agora tambem depois alem disso nota obs importante urgente atencao primeiro finalmente ja entao assim'.split(' '),
);
/** An obligation put on the reader: "deve ser enviado para …", "é necessário pagar …", "solicitamos que transfira …". */
const OBLIGATION =
  /\b(?:deve|devem|devera|deverao|deveria|deveriam|tem que|tem de|e necessario|e preciso|e obrigatorio|e imprescindivel|solicitamos que|solicito que|pedimos que|peco que|favor|por gentileza)(?:-se)?\s+(?:que\s+)?(ser\s+)?(?:(?:se|lhe|lhes|me|nos)\s+)?([a-z]+)/;

/** The verb of a participle after "ser" ("enviado", "paga", "transferidos"). */
function participleVerb(word: string): Form | undefined {
  if (/^pag[oa]s?$/.test(word)) return FORMS.get('pagar');
  const m = /^(.+)(?:ad|id)[oa]s?$/.exec(word);
  if (!m) return undefined;
  for (const end of ['ar', 'er', 'ir']) {
    const f = FORMS.get(m[1] + end);
    if (f?.infinitive) return f;
  }
  return undefined;
}

/**
 * An order written in Portuguese data: a clause that opens with a verb of an action other than
 * reading (after a lead-in such as "por favor" or "obs:"): "Transfira o valor para …", "encaminhe
 * este e-mail a …"; an infinitive after "favor" ("favor enviar …"); or an obligation on the reader
 * ("deve ser enviado para …", "é necessário pagar …"). A noun heading ("Envio de documentos",
 * "Reserva confirmada") orders nothing. Returns the words that order.
 */
export function portugueseOrderIn(sentence: string): string | undefined {
  for (const part of sentence.split(/[:;,]\s+|\s+e\s+(?:depois\s+|em seguida\s+)?/i)) {
    const ws = portugueseWords(part);
    let i = 0;
    while (i < ws.length && ORDER_LEAD_IN.has(ws[i])) i++;
    const f = i < ws.length ? formOf(ws[i]) : undefined;
    const polite = i > 0 && /^(?:favor|gentileza)$/.test(ws[i - 1]);
    if (!f || f.root === LIGHT_ROOT || f.category === 'read' || (f.infinitive && !polite) || ws.length - i < 3) continue;
    if (readsAsNoun(ws[i], ws[i + 1]) || /^(?:de|do|da|dos|das)$/.test(ws[i + 1]) || /(?:ad|id)[oa]s?$/.test(ws[i + 1])) continue;
    return ws.slice(i, i + 4).join(' ');
  }
  const m = OBLIGATION.exec(fold(sentence));
  const v = m ? (FORMS.get(m[2]) ?? (m[1] ? participleVerb(m[2]) : undefined)) : undefined;
  return v && v.category !== 'read' ? m![0] : undefined;
}

/** A text folded character by character, so its offsets are the original's. */
function foldInPlace(text: string): string {
  return [...text]
    .map((ch) => (fold(ch).length === ch.length ? fold(ch) : ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch))
    .join('');
}

const PRONOUNS = '(?:(?:me|te|lhe|lhes|nos|vos)\\s+)*';
const OFFER_LEAD = new RegExp(
  `^\\s*(?:e\\s+)?(?:(?:voce|vc|o senhor|a senhora|tu)\\s+)?(?:quer|queres|gostaria|deseja|desejas|prefere|preferes)\\s+que\\s+(?:eu\\s+)?|^\\s*(?:e\\s+)?(?:posso|podemos|devo|devemos|quer\\s+que\\s+eu)\\s+(?:ja\\s+)?`,
);
const ASKS_TO_GO_ON =
  /^\s*(?:e\s+)?(?:(?:posso|podemos|devo)(?:\s+(?:seguir|prosseguir|continuar|fazer\s+isso|ir\s+em\s+frente|seguir\s+em\s+frente|fechar|confirmar))?|sigo|prossigo|continuo|(?:voce\s+)?confirma|confirmado|tudo\s+(?:certo|bem|ok)|pode\s+ser|(?:esta|ta)\s+(?:bom|bem|certo|correto|ok)|correto|certo|ok|fechado|combinado|de\s+acordo|faco\s+isso|posso\s+fazer)(?:\s+assim)?\s*[?!.]*\s*$/;
const FIRST_PERSON = new RegExp(`^\\s*(?:e\\s+)?(?:eu\\s+)?(?:ja\\s+)?(${PRONOUNS})([a-z]+)o\\b`);
const WILL = new RegExp(
  `^\\s*(?:(?:eu|nos|a gente)\\s+)?(?:ja\\s+|tambem\\s+|entao\\s+|agora\\s+)*(${PRONOUNS})(?:vou|vamos|irei|iremos|posso|podemos|pretendo|consigo)\\s+(?:ja\\s+|tambem\\s+|agora\\s+)?`,
);
const WOULD = new RegExp(`^\\s*(?:(?:eu|nos)\\s+)?(${PRONOUNS})([a-z]+r)(?:ia|iamos|ei|emos)\\b`);

/** The infinitive of a first-person form ("gero" → "gerar", "transfiro" → "transferir"), if it is a verb of an action. */
function infinitiveOf(stem: string): string | undefined {
  if (stem === 'fac') return 'fazer';
  const inf = INFINITIVE_OF_ROOT.get(stem);
  const f = inf ? FORMS.get(inf) : undefined;
  return f && f.category !== 'read' ? inf : undefined;
}

/**
 * What the assistant offers to do in a Portuguese question, written as the user would ask for it:
 * "Quer que eu envie o boleto?" gives "envie o boleto"; "Posso mandar pra ela?" "mandar pra ela";
 * "Gero o Pix?" "gerar o Pix"; a question that asks leave to go on ("Posso seguir?", "Confirma?",
 * "Tudo certo?") gives 'go-on'. Undefined for any other question.
 */
export function portugueseOffer(question: string): string | 'go-on' | undefined {
  const folded = foldInPlace(question);
  if (ASKS_TO_GO_ON.test(folded)) return 'go-on';
  const lead = OFFER_LEAD.exec(folded);
  if (lead)
    return (
      question
        .slice(lead[0].length)
        .replace(/\?+\s*$/, '')
        .trim() || 'go-on'
    );
  const first = FIRST_PERSON.exec(folded);
  const inf = first ? infinitiveOf(first[2]) : undefined;
  return inf ? `${first![1]}${inf}${question.slice(first![0].length)}`.replace(/\?+\s*$/, '').trim() : undefined;
}

/** What the assistant says it will or would do: "Vou enviar o boleto", "Posso gerar a cobrança", "Eu mandaria o recibo" (as "mandar o recibo"). */
export function portuguesePlan(sentence: string): string | undefined {
  const folded = foldInPlace(sentence);
  const will = WILL.exec(folded);
  if (will) return `${will[1]}${sentence.slice(will[0].length)}`.replace(/[.!]+\s*$/, '').trim() || undefined;
  const would = WOULD.exec(folded);
  const inf = would && FORMS.get(would[2])?.infinitive ? would[2] : undefined;
  return inf ? `${would![1]}${inf}${sentence.slice(would![0].length)}`.replace(/[.!]+\s*$/, '').trim() : undefined;
}
