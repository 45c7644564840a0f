/**
 * The greedy heuristic of paper 003 (Algorithm 1): while some combination of at most m terms out of a user's
 * history is held by fewer than k users, suppress from that user the term of the combination that the target
 * function picks (Algorithm 2), update the supports, repeat until nothing is left to suppress.
 *
 * Order (our choice; the paper leaves it open): level by level. Level 1 suppresses every term held by fewer than
 * k users (unavoidable whatever the target). Level L then works on combinations of up to L terms until none
 * violates, before level L+1 starts: smaller combinations are fixed first, which both spares terms (fixing
 * {a} fixes every {a, b}) and shrinks the histories before the costlier larger combinations are counted. Within
 * a scan violations are handled by size, then by term ids; each holder of a violation that still holds all of
 * its terms loses one of them. A suppression lowers supports, which can create new violations among itemsets
 * containing the suppressed term; the next scan looks only at those ("dirty" terms), until a scan finds none.
 */
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { TermHistories } from "./histories.ts";
import { scanViolations, type ViolationsBySize } from "./mine.ts";
import type { TargetFn } from "./targets.ts";

export interface GreedyStats {
  /** (user, term) pairs suppressed. */
  suppressed: number;
  /** Scans of the histories (full and incremental). */
  scans: number;
  /** Violations found over all scans. */
  violations: number;
  /** Projected term visits over all scans: the counting work. */
  visits: number;
}

/** Make `h` (k,m)-anonymous in place by suppressing terms; returns what was done. */
export function greedySuppress(
  h: TermHistories,
  k: number,
  m: number,
  choose: TargetFn,
  rng: Rng,
  progress?: Progress,
): GreedyStats {
  const stats: GreedyStats = { suppressed: 0, scans: 0, violations: 0, visits: 0 };
  // One reusable array per combination size: no allocation per violation.
  const scratch = Array.from({ length: m + 1 }, (_, size) => new Int32Array(size));
  for (let level = 1; level <= m; level++) {
    progress?.start(`km level ${level}/${m}`);
    let dirty: Uint8Array | undefined;
    for (;;) {
      const next = new Uint8Array(h.terms);
      const apply = (found: ViolationsBySize): void => {
        for (let size = 1; size <= level; size++) {
          const buf = found[size]!;
          const data = buf.data;
          let i = 0;
          while (i < buf.length) {
            const terms = scratch[size]!;
            for (let j = 0; j < size; j++) terms[j] = data[i + j]!;
            i += size;
            const n = data[i++]!;
            for (let j = 0; j < n; j++) {
              const u = data[i + j]!;
              if (!h.hasAll(u, terms)) continue;
              const t = size === 1 ? terms[0]! : choose(u, terms, rng);
              h.remove(u, t);
              next[t] = 1;
              stats.suppressed++;
            }
            i += n;
          }
        }
      };
      const s = scanViolations(h, k, level, dirty, apply);
      stats.scans++;
      stats.violations += s.violations;
      stats.visits += s.visits;
      progress?.tick(s.violations);
      if (s.violations === 0) break;
      dirty = next;
    }
    progress?.stop();
  }
  return stats;
}
