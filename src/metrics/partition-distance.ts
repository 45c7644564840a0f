/**
 * The López de Mántaras (1991) distance between two partitions of the same items, used by paper 004 (Eq. 8):
 *
 *   dPart(PA, PB) = (2·I(PA ∩ PB) − I(PA) − I(PB)) / I(PA ∩ PB) = 1 − MI(PA, PB) / H(PA, PB),
 *
 * with I the entropy of a partition and I(PA ∩ PB) the joint entropy. 0 for identical partitions, 1 for
 * independent ones; 0 when both partitions are a single cluster.
 */
export function partitionDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError("partitionDistance: partitions of different sizes");
  const n = a.length;
  if (n === 0) return 0;
  const ca = new Map<number, number>();
  const cb = new Map<number, number>();
  const cab = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    ca.set(a[i]!, (ca.get(a[i]!) ?? 0) + 1);
    cb.set(b[i]!, (cb.get(b[i]!) ?? 0) + 1);
    const key = `${a[i]},${b[i]}`;
    cab.set(key, (cab.get(key) ?? 0) + 1);
  }
  const h = (counts: Iterable<number>) => {
    let s = 0;
    for (const c of counts) {
      const p = c / n;
      s -= p * Math.log2(p);
    }
    return s;
  };
  const joint = h(cab.values());
  if (joint === 0) return 0;
  return Math.max(0, Math.min(1, (2 * joint - h(ca.values()) - h(cb.values())) / joint));
}
