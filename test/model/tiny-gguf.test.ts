/**
 * The GGUF writer and the tiny model of fixtures/models: read back by node-llama-cpp's own GGUF
 * parser (an independent reader), byte layout checked by hand, the same bytes for the same seed.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { encodeGguf, meta, toHalfBits } from '../../fixtures/models/gguf.mjs';
import { CHAT_TEMPLATE, TINY_LLAMA, TOKEN_IDS, tinyLlamaGguf, writeTinyLlama } from '../../fixtures/models/tiny-llama.mjs';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-gguf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('F16 conversion', () => {
  test('exact values, rounding to nearest even, subnormals, overflow, specials', () => {
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(65504)).toBe(0x7bff); // the largest half
    expect(toHalfBits(65520)).toBe(0x7c00); // rounds up to infinity
    expect(toHalfBits(0.1)).toBe(0x2e66);
    expect(toHalfBits(1 + 2 ** -11)).toBe(0x3c00); // a tie: to the even mantissa
    expect(toHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(toHalfBits(2 ** -24)).toBe(0x0001); // the smallest subnormal
    expect(toHalfBits(2 ** -25)).toBe(0x0000); // half of it: a tie, to even (zero)
    expect(toHalfBits(3 * 2 ** -25)).toBe(0x0002);
    expect(toHalfBits(1e-8)).toBe(0x0000);
    expect(toHalfBits(-0)).toBe(0x8000);
    expect(toHalfBits(Infinity)).toBe(0x7c00);
    expect(toHalfBits(NaN) & 0x7c00).toBe(0x7c00);
    expect(toHalfBits(NaN) & 0x03ff).not.toBe(0);
  });
});

describe('encodeGguf', () => {
  const small = () =>
    encodeGguf({
      metadata: [
        ['general.architecture', meta.str('llama')],
        ['x.count', meta.u32(7)],
        ['x.flag', meta.bool(true)],
        ['x.list', meta.array('str', ['a', 'bé'])],
      ],
      tensors: [
        { name: 'a', dims: [3], type: 'f32', data: new Float32Array([1, 2, 3]) },
        { name: 'b', dims: [2, 2], type: 'f16', data: new Float32Array([1, -2, 0.5, 0]) },
      ],
    });

  test('the header, the metadata, the tensor infos and aligned data, byte by byte', () => {
    const b = small();
    expect(b.subarray(0, 4).toString('ascii')).toBe('GGUF');
    expect(b.readUInt32LE(4)).toBe(3);
    expect(b.readBigUInt64LE(8)).toBe(2n);
    expect(b.readBigUInt64LE(16)).toBe(4n);
    // First key: u64 length, bytes, then the value type (8: string) and the value.
    expect(b.readBigUInt64LE(24)).toBe(20n);
    expect(b.subarray(32, 52).toString()).toBe('general.architecture');
    expect(b.readUInt32LE(52)).toBe(8);
    expect(b.length % 32).toBe(0);
    // The data section starts aligned: tensor a (12 bytes) padded to 32, then b's four halves.
    const dataStart = b.length - 64;
    expect([b.readFloatLE(dataStart), b.readFloatLE(dataStart + 8)]).toEqual([1, 3]);
    expect([0, 2, 4, 6].map((o) => b.readUInt16LE(dataStart + 32 + o))).toEqual([0x3c00, 0xc000, 0x3800, 0x0000]);
  });

  test("read back by node-llama-cpp's parser", async () => {
    const file = path.join(dir, 'small.gguf');
    await writeFile(file, small());
    const info = await readGgufFileInfo(file, { readTensorInfo: true });
    expect(info.version).toBe(3);
    const m = info.metadata as unknown as { general: { architecture: string }; x: { count: number; flag: boolean; list: string[] } };
    expect(m.general.architecture).toBe('llama');
    expect(m.x).toEqual({ count: 7, flag: true, list: ['a', 'bé'] });
    expect(info.tensorInfo?.map((t) => [t.name, t.dimensions.map(Number), t.ggmlType, Number(t.offset)])).toEqual([
      ['a', [3], 0, 0],
      ['b', [2, 2], 1, 32],
    ]);
  });

  test('mistakes are named', () => {
    const tensor = { name: 'w', dims: [2, 3], type: 'f16' as const, data: new Float32Array(5) };
    expect(() => encodeGguf({ metadata: [], tensors: [tensor] })).toThrow('gguf: tensor w: 5 values for dimensions 2×3 (6)');
    expect(() => encodeGguf({ metadata: [], tensors: [{ ...tensor, type: 'q4' as 'f16', data: new Float32Array(6) }] })).toThrow(
      'gguf: tensor w: unsupported type q4 (f32 or f16)',
    );
    expect(() => encodeGguf({ metadata: [['k', meta.u32('7' as unknown as number)]], tensors: [] })).toThrow(
      'gguf: metadata k: expected a number, got string',
    );
    expect(() => encodeGguf({ metadata: [['k', { type: 'u128' } as never]], tensors: [] })).toThrow(
      'gguf: metadata k: unknown value type u128',
    );
  });
});

describe('the tiny llama model', () => {
  test('the same bytes for the same seed, on every machine; others for another seed', () => {
    const one = tinyLlamaGguf({ seed: 1 });
    expect(tinyLlamaGguf({ seed: 1 }).equals(one)).toBe(true);
    const two = tinyLlamaGguf({ seed: 2 });
    expect(two.length).toBe(one.length);
    expect(two.equals(one)).toBe(false);
    // Pinned: a change to the writer or the model shows here (update it on purpose only).
    expect(createHash('sha256').update(one).digest('hex')).toBe('236faa03289f2418e2176379922da4c12299de9ea4dc3015bd52c42cbb10e67b');
    expect(one.length).toBeLessThan(300 * 1024);
  });

  test('llama architecture, byte vocabulary, chat template and every tensor llama.cpp loads', async () => {
    const file = path.join(dir, 'tiny.gguf');
    const size = writeTinyLlama(file, { seed: 1 });
    const info = await readGgufFileInfo(file, { readTensorInfo: true });
    expect(info.metadata.general.architecture).toBe('llama');
    expect(info.architectureMetadata).toMatchObject({
      context_length: TINY_LLAMA.context,
      embedding_length: TINY_LLAMA.embedding,
      block_count: TINY_LLAMA.blocks,
      feed_forward_length: TINY_LLAMA.feedForward,
      attention: { head_count: TINY_LLAMA.heads, head_count_kv: TINY_LLAMA.heads },
      rope: { dimension_count: TINY_LLAMA.embedding / TINY_LLAMA.heads },
    });
    const tok = info.metadata.tokenizer.ggml as unknown as { model: string; tokens: string[]; token_type: number[]; eos_token_id: number };
    expect(tok.model).toBe('llama');
    expect(tok.tokens).toHaveLength(262);
    expect(tok.tokens.slice(0, 6)).toEqual(['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>', '<0x00>']);
    expect(tok.tokens[TOKEN_IDS.firstByte + 0x41]).toBe('<0x41>');
    expect(tok.token_type.filter((t) => t === 6)).toHaveLength(256);
    expect(tok.eos_token_id).toBe(TOKEN_IDS.imEnd);
    expect(info.metadata.tokenizer.chat_template).toBe(CHAT_TEMPLATE);

    const tensors = info.tensorInfo!;
    const perBlock = ['attn_norm', 'attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_norm', 'ffn_gate', 'ffn_up', 'ffn_down'];
    expect(tensors.map((t) => t.name)).toEqual([
      'token_embd.weight',
      ...[0, 1].flatMap((b) => perBlock.map((p) => `blk.${b}.${p}.weight`)),
      'output_norm.weight',
      'output.weight',
    ]);
    const byName = new Map(tensors.map((t) => [t.name, t]));
    expect(byName.get('token_embd.weight')!.dimensions.map(Number)).toEqual([64, 262]);
    expect(byName.get('blk.1.ffn_down.weight')!.dimensions.map(Number)).toEqual([128, 64]);
    expect(byName.get('blk.0.attn_norm.weight')!.ggmlType).toBe(0); // F32
    expect(byName.get('output.weight')!.ggmlType).toBe(1); // F16
    for (const t of tensors) expect(Number(t.offset) % 32).toBe(0);
    expect(size % 32).toBe(0);
  });
});
