/**
 * The plain-data channel between the judge (which runs the official test) and the candidate (the
 * model's code, in another sandbox): length-prefixed JSON frames carrying only None, bool, int,
 * float, str, bytes, complex, Fraction, Decimal and lists, tuples, dicts, sets, ranges, dict views
 * and iterators of them. Whatever else the candidate returns arrives as an Opaque stand-in that
 * equals only itself, so no object of the candidate's making ever runs code in the judge (an
 * `__eq__` that always answers True included). Decoding is strict: anything malformed is a
 * ProtocolError. Shared by both sides; kept as a string so the bundle carries it.
 */
export const CODEC_PY = String.raw`
import decimal as _decimal, fractions as _fractions, itertools as _itertools, json as _json, numbers as _numbers, struct as _struct

MAX_FRAME = 16 << 20
MAX_DEPTH = 200
MAX_ITEMS = 1000000
MAX_TEXT = 4096


class ProtocolError(Exception):
    pass


class Opaque:
    """A value that could not cross the channel: equal only to itself, shown as its repr."""

    __slots__ = ("_text",)

    def __init__(self, text):
        self._text = text

    def __repr__(self):
        return self._text

    __str__ = __repr__


def _recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError("channel closed")
        buf += chunk
    return bytes(buf)


def send_frame(sock, obj):
    data = _json.dumps(obj, separators=(",", ":")).encode()
    if len(data) > MAX_FRAME:
        raise ProtocolError("a message over %d bytes" % MAX_FRAME)
    sock.sendall(_struct.pack(">I", len(data)) + data)


def recv_frame(sock):
    (n,) = _struct.unpack(">I", _recv_exact(sock, 4))
    if n > MAX_FRAME:
        raise ProtocolError("a message over %d bytes" % MAX_FRAME)
    try:
        return _json.loads(_recv_exact(sock, n))
    except (ValueError, RecursionError) as e:
        raise ProtocolError("a malformed message (%s)" % type(e).__name__)


_ITERATORS = (type(iter([])), type(iter(())), type(iter("")), type(iter(range(0))), type(iter({})),
              type(iter({}.values())), type(iter({}.items())), type(iter(set())), map, filter, zip,
              enumerate, reversed, type(x for x in ()))
_KEYS, _VALUES, _ITEMS = type({}.keys()), type({}.values()), type({}.items())


def _text(x):
    try:
        t = repr(x)
        return t if type(t) is str else "<object>"
    except BaseException:
        return "<object>"


def encode(x, depth=0):
    t = type(x)
    if x is None or t is bool or t is str or t is float:
        return x
    if t is int:
        return x if -(1 << 62) < x < (1 << 62) else {"i": format(x, "x")}
    if depth >= MAX_DEPTH:
        raise ProtocolError("a value nested over %d levels" % MAX_DEPTH)
    d = depth + 1
    if t is list:
        return [encode(v, d) for v in x]
    if t is tuple:
        return {"t": [encode(v, d) for v in x]}
    if t is dict:
        return {"d": [[encode(k, d), encode(v, d)] for k, v in x.items()]}
    if t is set:
        return {"s": [encode(v, d) for v in x]}
    if t is frozenset:
        return {"fs": [encode(v, d) for v in x]}
    if t is bytes:
        return {"b": x.hex()}
    if t is bytearray:
        return {"ba": x.hex()}
    if t is complex:
        return {"c": [x.real, x.imag]}
    if t is range:
        return {"r": [encode(x.start, d), encode(x.stop, d), encode(x.step, d)]}
    if t is _fractions.Fraction:
        return {"q": [encode(x.numerator, d), encode(x.denominator, d)]}
    if t is _decimal.Decimal:
        return {"m": str(x)}
    if t is _KEYS:
        return {"dk": [encode(v, d) for v in x]}
    if t is _VALUES:
        return {"dv": [encode(v, d) for v in x]}
    if t is _ITEMS:
        return {"di": [[encode(k, d), encode(v, d)] for k, v in x]}
    if t is Opaque:
        return {"o": x._text}
    # Subclasses cross as their base type (a namedtuple as a tuple, a Counter as a dict): the
    # receiving side only ever sees plain values.
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, int):
        return encode(int.__int__(x), depth)
    if isinstance(x, float):
        return float.__float__(x)
    if isinstance(x, str):
        return str.__str__(x)
    if isinstance(x, tuple):
        return {"t": [encode(v, d) for v in tuple.__iter__(x)]}
    if isinstance(x, list):
        return [encode(v, d) for v in list.__iter__(x)]
    if isinstance(x, dict):
        return {"d": [[encode(k, d), encode(v, d)] for k, v in dict.items(x)]}
    if isinstance(x, (set, frozenset)):
        return {"s" if isinstance(x, set) else "fs": [encode(v, d) for v in x]}
    if isinstance(x, _ITERATORS) or (hasattr(t, "__next__") and hasattr(t, "__iter__")):
        items = list(_itertools.islice(x, MAX_ITEMS + 1))
        if len(items) <= MAX_ITEMS:
            return {"it": [encode(v, d) for v in items]}
    elif isinstance(x, _numbers.Integral):
        return encode(int(x), depth)
    elif isinstance(x, _numbers.Real):
        return float(x)
    return {"o": _text(x)[:MAX_TEXT]}


def _int(v):
    if type(v) is int:
        return v
    if type(v) is dict and list(v) == ["i"] and type(v["i"]) is str:
        return int(v["i"], 16)
    raise ProtocolError("an int was expected")


def _list(v):
    if type(v) is not list:
        raise ProtocolError("a list was expected")
    return v


def _pairs(v, depth):
    out = []
    for p in _list(v):
        if type(p) is not list or len(p) != 2:
            raise ProtocolError("a key-value pair was expected")
        out.append((decode(p[0], depth), decode(p[1], depth)))
    return out


def decode(v, depth=0):
    t = type(v)
    if v is None or t is bool or t is int or t is float or t is str:
        return v
    if depth >= MAX_DEPTH:
        raise ProtocolError("a value nested over %d levels" % MAX_DEPTH)
    d = depth + 1
    if t is list:
        return [decode(i, d) for i in v]
    if t is not dict or len(v) != 1:
        raise ProtocolError("an unknown value")
    (tag, val), = v.items()
    try:
        if tag == "i":
            return _int(v)
        if tag == "t":
            return tuple(decode(i, d) for i in _list(val))
        if tag == "d":
            return dict(_pairs(val, d))
        if tag == "s":
            return set(decode(i, d) for i in _list(val))
        if tag == "fs":
            return frozenset(decode(i, d) for i in _list(val))
        if tag in ("b", "ba") and type(val) is str:
            return bytes.fromhex(val) if tag == "b" else bytearray.fromhex(val)
        if tag == "c" and type(val) is list and len(val) == 2 and all(type(f) is float for f in val):
            return complex(val[0], val[1])
        if tag == "r" and type(val) is list and len(val) == 3:
            return range(_int(val[0]), _int(val[1]), _int(val[2]))
        if tag == "q" and type(val) is list and len(val) == 2:
            return _fractions.Fraction(_int(val[0]), _int(val[1]))
        if tag == "m" and type(val) is str and len(val) < 1000:
            return _decimal.Decimal(val)
        if tag == "dk":
            return dict.fromkeys(decode(i, d) for i in _list(val)).keys()
        if tag == "dv":
            return {i: decode(x, d) for i, x in enumerate(_list(val))}.values()
        if tag == "di":
            return dict(_pairs(val, d)).items()
        if tag == "it":
            return iter([decode(i, d) for i in _list(val)])
        if tag == "o" and type(val) is str:
            return Opaque(val[:MAX_TEXT])
    except ProtocolError:
        raise
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as e:
        raise ProtocolError("an invalid %r value (%s)" % (tag, type(e).__name__))
    raise ProtocolError("an unknown value")


def describe_exception(e, frames=()):
    """What crosses for an exception: its type name, whether it is a builtin type, its text, and
    where in the program it came from (line, function name of the program's own frames)."""
    t = type(e)
    try:
        text = str(e)
        if type(text) is not str:
            text = ""
    except BaseException:
        text = ""
    name = getattr(t, "__name__", "Exception")
    if type(name) is not str:
        name = "Exception"
    builtin = getattr(t, "__module__", None) == "builtins"
    out = {"type": name[:100], "builtin": builtin, "text": text[:MAX_TEXT], "frames": list(frames)[-50:]}
    if isinstance(e, SyntaxError):
        out["syntax"] = [str(e.msg)[:MAX_TEXT], e.lineno if type(e.lineno) is int else None]
    return out
`;
