/**
 * OTLP/HTTP protobuf bodies (`application/x-protobuf`, the default of most OpenTelemetry SDKs,
 * the only one of Python's HTTP exporter) decoded into the OTLP/JSON shape, so one reader serves
 * both encodings. Only the fields of ExportTraceServiceRequest and ExportLogsServiceRequest that a
 * trace needs are read; unknown fields are skipped by wire type, as protobuf requires.
 */

class ProtoError extends Error {}

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoError('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
    throw new ProtoError('varint longer than 10 bytes');
  }

  fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new ProtoError('truncated fixed64');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getBigUint64(0, true);
    this.pos += 8;
    return v;
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtoError('truncated double');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }

  bytes(): Reader {
    const len = Number(this.varint());
    if (this.pos + len > this.end) throw new ProtoError('length-delimited field runs past its message');
    const r = new Reader(this.buf, this.pos, this.pos + len);
    this.pos += len;
    return r;
  }

  string(): string {
    const r = this.bytes();
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + r.pos, r.end - r.pos).toString('utf8');
  }

  hex(): string {
    const r = this.bytes();
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + r.pos, r.end - r.pos).toString('hex');
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new ProtoError(`unsupported wire type ${wire}`);
    if (this.pos > this.end) throw new ProtoError('field runs past its message');
  }

  /** Calls `fn(field, wire)` per field; `fn` returns false to have the field skipped. */
  fields(fn: (field: number, wire: number) => boolean): void {
    while (!this.done()) {
      const tag = Number(this.varint());
      const field = tag >>> 3;
      const wire = tag & 7;
      if (!fn(field, wire)) this.skip(wire);
    }
  }
}

type Json = Record<string, unknown>;

/** AnyValue nesting a body may have: deeper is refused (the decoder recurses once per level). */
const MAX_NESTING = 64;

function anyValue(r: Reader, depth = 0): Json {
  if (depth > MAX_NESTING) throw new ProtoError(`AnyValue nested deeper than ${MAX_NESTING} levels`);
  let out: Json = {};
  r.fields((f, w) => {
    if (f === 1 && w === 2) out = { stringValue: r.string() };
    else if (f === 2 && w === 0) out = { boolValue: r.varint() !== 0n };
    else if (f === 3 && w === 0) out = { intValue: String(BigInt.asIntN(64, r.varint())) };
    else if (f === 4 && w === 1) out = { doubleValue: r.double() };
    else if (f === 5 && w === 2) {
      const values: Json[] = [];
      const a = r.bytes();
      a.fields((g, v) => (g === 1 && v === 2 ? (values.push(anyValue(a.bytes(), depth + 1)), true) : false));
      out = { arrayValue: { values } };
    } else if (f === 6 && w === 2) {
      const values: Json[] = [];
      const k = r.bytes();
      k.fields((g, v) => (g === 1 && v === 2 ? (values.push(keyValue(k.bytes(), depth + 1)), true) : false));
      out = { kvlistValue: { values } };
    } else if (f === 7 && w === 2) out = { bytesValue: r.hex() };
    else return false;
    return true;
  });
  return out;
}

function keyValue(r: Reader, depth = 0): Json {
  const kv: Json = { key: '', value: {} };
  r.fields((f, w) => {
    if (f === 1 && w === 2) kv.key = r.string();
    else if (f === 2 && w === 2) kv.value = anyValue(r.bytes(), depth);
    else return false;
    return true;
  });
  return kv;
}

function event(r: Reader): Json {
  const e: Json = { name: '', attributes: [] as Json[] };
  r.fields((f, w) => {
    if (f === 1 && w === 1) e.timeUnixNano = String(r.fixed64());
    else if (f === 2 && w === 2) e.name = r.string();
    else if (f === 3 && w === 2) (e.attributes as Json[]).push(keyValue(r.bytes()));
    else return false;
    return true;
  });
  return e;
}

function span(r: Reader): Json {
  const s: Json = { attributes: [] as Json[], events: [] as Json[] };
  r.fields((f, w) => {
    if (f === 1 && w === 2) s.traceId = r.hex();
    else if (f === 2 && w === 2) s.spanId = r.hex();
    else if (f === 4 && w === 2) s.parentSpanId = r.hex();
    else if (f === 5 && w === 2) s.name = r.string();
    else if (f === 6 && w === 0) s.kind = Number(r.varint());
    else if (f === 7 && w === 1) s.startTimeUnixNano = String(r.fixed64());
    else if (f === 8 && w === 1) s.endTimeUnixNano = String(r.fixed64());
    else if (f === 9 && w === 2) (s.attributes as Json[]).push(keyValue(r.bytes()));
    else if (f === 11 && w === 2) (s.events as Json[]).push(event(r.bytes()));
    else return false;
    return true;
  });
  return s;
}

function attributesOf(r: Reader): Json[] {
  const attributes: Json[] = [];
  r.fields((f, w) => (f === 1 && w === 2 ? (attributes.push(keyValue(r.bytes())), true) : false));
  return attributes;
}

function logRecord(r: Reader): Json {
  const l: Json = { attributes: [] as Json[] };
  r.fields((f, w) => {
    if (f === 1 && w === 1) l.timeUnixNano = String(r.fixed64());
    else if (f === 11 && w === 1) l.observedTimeUnixNano = String(r.fixed64());
    else if (f === 5 && w === 2) l.body = anyValue(r.bytes());
    else if (f === 6 && w === 2) (l.attributes as Json[]).push(keyValue(r.bytes()));
    else if (f === 9 && w === 2) l.traceId = r.hex();
    else if (f === 10 && w === 2) l.spanId = r.hex();
    else if (f === 12 && w === 2) l.eventName = r.string();
    else return false;
    return true;
  });
  return l;
}

function scopeName(r: Reader, into: Json): void {
  r.fields((k, y) => (k === 1 && y === 2 ? ((into.name = r.string()), true) : false));
}

/**
 * The resource list of an export request: `resource` (field 1) and the scope lists (field 2;
 * 1000 is the deprecated instrumentation_library_spans), each scope's items read by `item`.
 */
function decodeResources(body: Uint8Array, what: string, scopesKey: string, itemsKey: string, item: (r: Reader) => Json): Json[] {
  const root = new Reader(body, 0, body.length);
  const resources: Json[] = [];
  try {
    root.fields((f, w) => {
      if (f !== 1 || w !== 2) return false;
      const rs = root.bytes();
      const entry: Json = { [scopesKey]: [] as Json[] };
      rs.fields((g, v) => {
        if (g === 1 && v === 2) entry.resource = { attributes: attributesOf(rs.bytes()) };
        else if ((g === 2 || g === 1000) && v === 2) {
          const ss = rs.bytes();
          const items: Json[] = [];
          const scope: Json = {};
          ss.fields((h, x) => {
            if (h === 2 && x === 2) items.push(item(ss.bytes()));
            else if (h === 1 && x === 2) scopeName(ss.bytes(), scope);
            else return false;
            return true;
          });
          (entry[scopesKey] as Json[]).push({ scope, [itemsKey]: items });
        } else return false;
        return true;
      });
      resources.push(entry);
      return true;
    });
  } catch (err) {
    throw new Error(`not an OTLP ${what} in protobuf: ${(err as Error).message}`);
  }
  return resources;
}

/** ExportTraceServiceRequest bytes → the same object OTLP/JSON would carry. Throws on malformed input. */
export function decodeOtlpProtobuf(body: Uint8Array): { resourceSpans: Json[] } {
  return { resourceSpans: decodeResources(body, 'ExportTraceServiceRequest', 'scopeSpans', 'spans', span) };
}

/** ExportLogsServiceRequest bytes → the OTLP/JSON object. Throws on malformed input. */
export function decodeOtlpLogsProtobuf(body: Uint8Array): { resourceLogs: Json[] } {
  return { resourceLogs: decodeResources(body, 'ExportLogsServiceRequest', 'scopeLogs', 'logRecords', logRecord) };
}
