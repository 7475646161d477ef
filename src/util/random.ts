/** Seeded randomness: every sampling and injection decision is a pure function of its seed. */
import { createHash } from 'node:crypto';

/** A 32-bit seed from any list of parts (run seed, instance id, agent, call index...). */
export function seedFrom(...parts: (string | number)[]): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return digest.readUInt32LE(0);
}

/** mulberry32: small, fast, good enough for sampling and coin flips. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
