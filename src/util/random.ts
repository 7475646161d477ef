/**
 * Seeded randomness. Every draw is a pure function of its key parts (seed, instance, agent, call
 * index, purpose), so the same seed samples the same instances and corrupts the same messages in
 * the same way, whatever the order or concurrency things happen in.
 */
import { createHash } from 'node:crypto';

/** A 32-bit seed from the key parts (sha256, so nearby keys give unrelated streams). */
export function hashSeed(...parts: (string | number)[]): number {
  const digest = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
  return digest.readUInt32LE(0);
}

/** mulberry32: a small, fast generator; plenty for sampling and coin flips, not for cryptography. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform [0, 1) stream keyed by the parts. */
export function rngFor(...parts: (string | number)[]): () => number {
  return mulberry32(hashSeed(...parts));
}
