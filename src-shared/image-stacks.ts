/**
 * Near-duplicate stacks: images of one batch or one run whose 64-bit perceptual hashes (dHash, 16
 * hex digits) are within a Hamming distance of each other, grouped transitively (union-find), as
 * Immich groups duplicates. The thresholds live here alone. Near-identical, calibrated on the
 * sandbox: its fixed-seed variants are 0–2 bits apart, its unrelated pictures 4–40 (median 30, 2 %
 * within 4); 65 % of real pictures' light edits are within 4 too.
 */
export const STACK_NEAR_IDENTICAL = 4;
/**
 * "Similar": the same picture with a real change (a shape moved, a patch of light, a crop, new
 * brightness). Calibrated by bench/stack-calibration.bench.ts: at 10 bits, 96 % of real pictures'
 * usual edits (recompressed, halved, brightened 8 %, cropped 3 %, a logo added) and 79 % of the
 * sandbox's `[similar:X]` pairs group (the rest transitively), against 6–9 % of unrelated pairs;
 * since grouping stays inside one batch or run, those rarely meet.
 */
export const STACK_SIMILAR = 10;

/** The two levels of grouping, and their thresholds, in this one place. */
export type StackLevel = 'near' | 'similar';
export const STACK_THRESHOLDS: Record<StackLevel, number> = {
  near: STACK_NEAR_IDENTICAL,
  similar: STACK_SIMILAR,
};

/** Bits that differ between two 16-hex-digit hashes; Infinity when either is missing. */
export function hammingDistance(a: string | null | undefined, b: string | null | undefined): number {
  if (!a || !b || a.length !== b.length) return Infinity;
  let bits = 0;
  for (let i = 0; i < a.length; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x) {
      x &= x - 1;
      bits++;
    }
  }
  return bits;
}

/**
 * Groups images whose hashes are within `threshold` of one another, transitively, only inside the
 * same scope (a batch, or a run across models). Answers, per image id, the id of its stack's first
 * image (in the given order); an image alone is its own stack.
 */
export function stackLeaders(
  images: { id: string; hash: string | null; scope: string }[],
  threshold: number = STACK_NEAR_IDENTICAL,
): Map<string, string> {
  const parent = images.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const byScope = new Map<string, number[]>();
  images.forEach((image, i) => byScope.set(image.scope, [...(byScope.get(image.scope) ?? []), i]));
  for (const members of byScope.values())
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const a = members[x]!;
        const b = members[y]!;
        if (hammingDistance(images[a]!.hash, images[b]!.hash) <= threshold) {
          // The earlier image leads: its stack reads as the first output of the prompt.
          const [ra, rb] = [find(a), find(b)];
          if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
      }
  return new Map(images.map((image, i) => [image.id, images[find(i)]!.id]));
}
