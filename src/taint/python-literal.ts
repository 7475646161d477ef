/**
 * A tool result printed by Python: `str()` or `repr()` of a dict, a list, a tuple, a dataclass or
 * a pydantic model (`Email(id_='3', sender='a@b.example', …)`, or its `str()`, `id_='3' sender=…`),
 * as a pipeline that hands its tools' return values to the model unformatted shows them. Parsed
 * into the same JSON-like value a JSON result gives, so a record reads the same however it was
 * printed (docs/validator.md, "Records, whatever their format"). Anything that is not such a
 * literal as a whole is no record: `undefined`, and the text is read as text.
 */

/** Nesting deeper than this is no record (and would cost a deep recursion). */
const MAX_DEPTH = 64;

class NotALiteral extends Error {}

// Sticky patterns, tried at the parser's place without copying the rest of the text.
const STRING_START = /[rRbBuUfF]{0,2}(['"])/y;
const NUMBER = /-?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?j?/y;
const NAME = /[A-Za-z_][\w.]*/y;
const KEYWORD = /([A-Za-z_]\w*)\s*=(?!=)/y;
const ENUM_MEMBER = /<[\w.]+:\s*/y;
const NEXT_STRING = /\s*[rRbBuUfF]{0,2}['"]/y;
const PREFIX = /[rRbBuUfF]{0,2}/y;

/** The value `text` prints, or undefined when it is not one Python literal (or keyword list) in full. */
export function parsePythonLiteral(text: string): unknown {
  const p = new Parser(text);
  try {
    p.space();
    const head = text.slice(p.at, p.at + 200);
    // Only a record as a whole: a container, a constructor call or keyword pairs (a bare word or number is text).
    if (!/^(?:[{[(<]|[A-Za-z_][\w.]*\(|[A-Za-z_]\w*=)/.test(head)) return undefined;
    const value = /^[A-Za-z_]\w*=/.test(head) ? p.keywords() : p.value(0);
    p.space();
    return p.at === text.length ? value : undefined;
  } catch (e) {
    if (e instanceof NotALiteral) return undefined;
    throw e;
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\n': '',
};

class Parser {
  at = 0;
  constructor(private readonly s: string) {}

  private fail(): never {
    throw new NotALiteral();
  }

  private match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.at;
    return re.exec(this.s);
  }

  space(): void {
    for (let c = this.s.charCodeAt(this.at); c === 32 || (c >= 9 && c <= 13); c = this.s.charCodeAt(this.at)) this.at++;
  }

  private eat(c: string): boolean {
    this.space();
    if (this.s.startsWith(c, this.at)) {
      this.at += c.length;
      return true;
    }
    return false;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail();
    this.space();
    const c = this.s[this.at];
    if (c === '{') return this.braces(depth);
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') return this.sequence(')', depth);
    if (c === '<') return this.enumMember(depth);
    const str = this.match(STRING_START);
    if (str) return this.strings();
    const num = this.match(NUMBER);
    if (num) {
      this.at += num[0].length;
      const n = Number(num[0].replace(/_/g, ''));
      return Number.isNaN(n) ? num[0] : n;
    }
    const name = this.match(NAME);
    if (!name) this.fail();
    this.at += name[0].length;
    if (this.eat('(')) {
      // A record prints as its class (`Email(…)`, `uuid.UUID(…)`) or a date; `send_money(…)` is code, not a record.
      if (!/^(?:[A-Z]\w*|datetime|date|time)$/.test(name[0].split('.').pop()!)) this.fail();
      return this.call(name[0], depth);
    }
    if (name[0] === 'True' || name[0] === 'False') return name[0] === 'True';
    if (name[0] === 'None') return null;
    return name[0];
  }

  /** A dict (`{'a': 1}`), a set (`{1, 2}`, a list here) or `{}`. */
  private braces(depth: number): unknown {
    this.at++;
    if (this.eat('}')) return {};
    const first = this.value(depth + 1);
    if (!this.eat(':')) return this.rest([first], '}', depth);
    const out: Record<string, unknown> = {};
    this.set(out, keyOf(first), this.value(depth + 1));
    while (this.eat(',')) {
      if (this.eat('}')) return out;
      const k = this.value(depth + 1);
      if (!this.eat(':')) this.fail();
      this.set(out, keyOf(k), this.value(depth + 1));
    }
    if (!this.eat('}')) this.fail();
    return out;
  }

  /** A repeated key would drop what the first one holds, which the model still reads: no record then. */
  private set(out: Record<string, unknown>, key: string, value: unknown): void {
    if (Object.hasOwn(out, key)) this.fail();
    // Defined, not assigned: a key such as `__proto__` is a field like any other.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }

  sequence(close: string, depth: number): unknown[] {
    this.at++;
    if (this.eat(close)) return [];
    return this.rest([this.value(depth + 1)], close, depth);
  }

  private rest(out: unknown[], close: string, depth: number): unknown[] {
    while (this.eat(',')) {
      if (this.eat(close)) return out;
      out.push(this.value(depth + 1));
    }
    if (!this.eat(close)) this.fail();
    return out;
  }

  /** `Name(a, b, k=v)`: keyword arguments are a record's fields; a date is its ISO text; one positional argument is itself. */
  private call(name: string, depth: number): unknown {
    const args: unknown[] = [];
    const kw: Record<string, unknown> = {};
    let keyed = false;
    for (let n = 0; !this.eat(')'); n++) {
      if (n > 0 && !this.eat(',')) this.fail();
      if (this.eat(')')) break;
      this.space();
      const key = this.match(KEYWORD);
      if (key) {
        this.at += key[0].length;
        this.set(kw, key[1], this.value(depth + 1));
        keyed = true;
      } else args.push(this.value(depth + 1));
    }
    const base = name.split('.').pop()!;
    if (/^(?:datetime|date|time)$/.test(base) && args.every((a) => typeof a === 'number')) return dateText(base, args as number[]);
    if (keyed) return args.length ? { ...kw, args } : kw;
    return args.length === 1 ? args[0] : args;
  }

  /** An enum member's repr, `<Status.sent: 'sent'>`: its value. */
  private enumMember(depth: number): unknown {
    const m = this.match(ENUM_MEMBER);
    if (!m) this.fail();
    this.at += m[0].length;
    const v = this.value(depth + 1);
    if (!this.eat('>')) this.fail();
    return v;
  }

  /** The pydantic `str()` of a model: `k=v` pairs separated by spaces. */
  keywords(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.at >= this.s.length) return out;
      const key = this.match(KEYWORD);
      if (!key) this.fail();
      this.at += key[0].length;
      this.set(out, key[1], this.value(1));
    }
  }

  /** One string literal, or adjacent ones ('a' 'b' is 'ab'). */
  private strings(): string {
    let out = '';
    do out += this.string();
    while (this.match(NEXT_STRING) && (this.space(), true));
    return out;
  }

  private string(): string {
    const prefix = this.match(PREFIX)![0];
    this.at += prefix.length;
    const raw = /r/i.test(prefix);
    const q = this.s.startsWith(this.s[this.at].repeat(3), this.at) ? this.s[this.at].repeat(3) : this.s[this.at];
    this.at += q.length;
    let out = '';
    for (;;) {
      if (this.at >= this.s.length) this.fail();
      if (this.s.startsWith(q, this.at)) {
        this.at += q.length;
        return out;
      }
      const c = this.s[this.at];
      if (c === '\n' && q.length === 1) this.fail();
      if (c !== '\\' || raw) {
        // A run of plain characters up to the next quote, backslash or line end, copied at once.
        let end = this.at + 1;
        for (
          let k = this.s.charCodeAt(end);
          end < this.s.length && k !== 92 && k !== 10 && this.s[end] !== q[0];
          k = this.s.charCodeAt(++end)
        );
        out += this.s.slice(this.at, end);
        this.at = end;
        continue;
      }
      out += this.escape();
    }
  }

  private escape(): string {
    const e = this.s[this.at + 1] ?? '';
    const hex = { x: 2, u: 4, U: 8 }[e];
    if (hex !== undefined) {
      const digits = this.s.slice(this.at + 2, this.at + 2 + hex);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) this.fail();
      this.at += 2 + hex;
      return String.fromCodePoint(Math.min(parseInt(digits, 16), 0x10ffff));
    }
    this.at += 2;
    return ESCAPES[e] ?? `\\${e}`;
  }
}

const keyOf = (k: unknown): string => (typeof k === 'string' ? k : (JSON.stringify(k) ?? String(k)));

const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** `datetime(2024, 5, 12, 18, 30)` as `2024-05-12T18:30:00`, a date as `2024-05-12`, a time as `18:30:00`. */
function dateText(kind: string, a: number[]): string {
  if (kind === 'time') return `${pad(a[0])}:${pad(a[1])}:${pad(a[2])}`;
  const day = `${a[0]}-${pad(a[1])}-${pad(a[2])}`;
  return kind === 'date' ? day : `${day}T${pad(a[3])}:${pad(a[4])}:${pad(a[5])}`;
}
