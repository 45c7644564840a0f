/**
 * Finding the term combinations that break (k,m)-anonymity: itemsets of at most `maxSize` terms held by at least
 * one and fewer than `k` users. This is the frequent-itemset counting step of paper 003's Algorithm 1, done
 * depth-first by projection (the idea behind FP-growth): the users holding a prefix are listed once, the terms
 * after the prefix in their sorted histories are counted, frequent extensions (support ≥ k) are projected further
 * and infrequent ones are reported with their few holders. Supersets of an infrequent itemset are not visited:
 * fixing the subset fixes them.
 *
 * Incremental scans: support changes only through suppressed terms, so after a round of suppressions only
 * itemsets containing a *dirty* term (one that lost a holder) can have become violations. A scan restricted to
 * dirty terms anchors every such itemset at its smallest dirty term, so each is visited once.
 */
import { IntBuffer } from "../../util/int-buffer.ts";
import type { TermHistories } from "./histories.ts";

/**
 * Violations found by a scan, grouped by itemset size (index 1..maxSize). Each group is a flat buffer of
 * records `[t1 … ts, h, u1 … uh]`: the s sorted term ids, the number of holders h (< k), then the holders.
 */
export type ViolationsBySize = IntBuffer[];

/** Count of violations found, and the work done (projected term visits), for progress and benchmarks. */
export interface ScanStats {
  violations: number;
  visits: number;
}

/** Users holding each term, as CSR lists. */
function tidLists(h: TermHistories): { off: Int32Array; users: Int32Array } {
  const off = new Int32Array(h.terms + 1);
  for (let u = 0; u < h.users; u++) {
    const b = h.start[u]!;
    const e = b + h.len[u]!;
    for (let i = b; i < e; i++) off[h.items[i]! + 1]!++;
  }
  for (let t = 0; t < h.terms; t++) off[t + 1]! += off[t]!;
  const fill = off.slice(0, h.terms);
  const users = new Int32Array(off[h.terms]!);
  for (let u = 0; u < h.users; u++) {
    const b = h.start[u]!;
    const e = b + h.len[u]!;
    for (let i = b; i < e; i++) users[fill[h.items[i]!]!++] = u;
  }
  return { off, users };
}

/**
 * Scan the histories for violations of (k, maxSize)-anonymity, anchor term by anchor term (ascending id). With
 * `dirty`, only itemsets containing at least one term flagged in it are examined; without, all.
 *
 * After each anchor, `apply` receives the violations whose smallest dirty term is that anchor (counted on the
 * histories as they are at that moment) and may suppress terms right away: later anchors are counted on the
 * updated histories, so a suppression spares the work and the reports it makes moot. Itemsets of anchors already
 * done whose support a suppression lowered must be re-examined by the caller (mark the suppressed term dirty).
 */
export function scanViolations(
  h: TermHistories,
  k: number,
  maxSize: number,
  dirty: Uint8Array | undefined,
  apply: (found: ViolationsBySize) => void,
): ScanStats {
  const found: ViolationsBySize = [];
  for (let s = 0; s <= maxSize; s++) found.push(new IntBuffer(64));
  const stats: ScanStats = { violations: 0, visits: 0 };
  const tid = tidLists(h);
  const blocked = new Uint8Array(h.terms);
  const cnt = new Int32Array(h.terms);
  const off = new Int32Array(h.terms);
  // Per-depth pools for the projected occurrence lists (user, next position).
  const poolU: IntBuffer[] = [];
  const poolP: IntBuffer[] = [];
  for (let d = 0; d <= maxSize; d++) {
    poolU.push(new IntBuffer(1024));
    poolP.push(new IntBuffer(1024));
  }
  const { start, len, items } = h;
  const prefix: number[] = [];
  // Per-depth scratch arrays for extend(), allocated on first use.
  const scratches: { touched: Int32Array; counts: Int32Array; starts: Int32Array }[] = [];
  const scratchAt = (depth: number) => {
    let sc = scratches[depth];
    if (!sc) {
      sc = {
        touched: new Int32Array(h.terms),
        counts: new Int32Array(h.terms),
        starts: new Int32Array(h.terms),
      };
      scratches[depth] = sc;
    }
    return sc;
  };
  let reported = 0;

  const emit = (term: number, holders: Int32Array, from: number, n: number): void => {
    const size = prefix.length + 1;
    const buf = found[size]!;
    buf.reserve(buf.length + size + 1 + n);
    const data = buf.data;
    // prefix ∪ {term}, insertion-sorted in place (at most m values).
    const at = buf.length;
    for (let i = 0; i < size; i++) {
      const v = i < prefix.length ? prefix[i]! : term;
      let j = at + i;
      while (j > at && data[j - 1]! > v) {
        data[j] = data[j - 1]!;
        j--;
      }
      data[j] = v;
    }
    buf.length = at + size;
    buf.data[buf.length++] = n;
    for (let i = 0; i < n; i++) buf.data[buf.length++] = holders[from + i]!;
    stats.violations++;
  };

  /** Extend `prefix` by one term over the occurrence list `occU/occP[from, from+n)` at `depth`. */
  const extend = (occU: Int32Array, occP: Int32Array, from: number, n: number, depth: number): void => {
    const scratch = scratchAt(depth);
    let nt = 0;
    const tbuf = scratch.touched;
    for (let i = from; i < from + n; i++) {
      const u = occU[i]!;
      const e = start[u]! + len[u]!;
      for (let p = occP[i]!; p < e; p++) {
        const t = items[p]!;
        if (blocked[t] === 1) continue;
        const c = cnt[t]!;
        cnt[t] = c + 1;
        if (c === 0) tbuf[nt++] = t;
      }
      stats.visits += e - occP[i]!;
    }
    const touched = tbuf.subarray(0, nt).sort();
    const recurse = prefix.length + 1 < maxSize;
    const counts = scratch.counts;
    let total = 0;
    for (let j = 0; j < touched.length; j++) {
      const t = touched[j]!;
      const c = cnt[t]!;
      counts[j] = c;
      cnt[t] = 0;
      if (c < k || recurse) {
        off[t] = total;
        total += c;
      } else off[t] = -1;
    }
    if (total === 0) return;
    const bu = poolU[depth]!;
    const bp = poolP[depth]!;
    bu.reserve(total);
    bp.reserve(total);
    const cu = bu.data;
    const cp = bp.data;
    const starts = scratch.starts;
    for (let j = 0; j < touched.length; j++) starts[j] = off[touched[j]!]!;
    for (let i = from; i < from + n; i++) {
      const u = occU[i]!;
      const e = start[u]! + len[u]!;
      for (let p = occP[i]!; p < e; p++) {
        const t = items[p]!;
        if (blocked[t] === 1) continue;
        const at = off[t]!;
        if (at < 0) continue;
        cu[at] = u;
        cp[at] = p + 1;
        off[t] = at + 1;
      }
    }
    for (let j = 0; j < touched.length; j++) {
      const t = touched[j]!;
      const c = counts[j]!;
      if (c < k) emit(t, cu, starts[j]!, c);
      else if (recurse) {
        prefix.push(t);
        extend(cu, cp, starts[j]!, c, depth + 1);
        prefix.pop();
      }
    }
  };

  for (let d = 0; d < h.terms; d++) {
    if (dirty && dirty[d] !== 1) continue;
    blocked[d] = 1;
    // The conditional database of d: its current holders (the lists were taken at the start of the scan and
    // holders only ever lose terms), each scanned from the start of its history — or, in a full scan, from just
    // after d, every smaller term being blocked anyway.
    const bu = poolU[0]!;
    const bp = poolP[0]!;
    const listed = tid.off[d + 1]! - tid.off[d]!;
    bu.reserve(listed);
    bp.reserve(listed);
    let s = 0;
    for (let i = 0; i < listed; i++) {
      const u = tid.users[tid.off[d]! + i]!;
      const at = h.indexOf(u, d);
      if (at < 0) continue;
      bu.data[s] = u;
      bp.data[s++] = dirty ? start[u]! : at + 1;
    }
    if (s === 0) continue;
    if (s < k) emit(d, bu.data, 0, s);
    else if (maxSize >= 2) {
      prefix.push(d);
      extend(bu.data, bp.data, 0, s, 1);
      prefix.pop();
    }
    if (stats.violations > reported) {
      reported = stats.violations;
      apply(found);
      for (const buf of found) buf.length = 0;
    }
  }
  return stats;
}
