/**
 * The round strategies (targeted, dp-sips: `selection/rounds.ts`) over shards of users: a pass of the workers per
 * round, steered by the coordinator's noise. Pass 1 reads the log: each worker bounds its users as `anonymize` does
 * (the first `candidates(d)` ranked items), sends round 1's weights (and a weight of 0 on the candidates round 1
 * leaves out, so that the items are numbered over all candidates, as the single machine numbers them) and keeps each
 * user's candidates. The coordinator adds round 1's noise; round r's input is the items still open after round
 * r − 1 and their noisy weights (or, for a design without a filter, the items released so far), which is exactly
 * what the single machine's round r reads of the noisy state; each worker weighs its kept users with the same
 * function (`userRoundWeights`). The counts need each user's first d candidates among the released items: for the
 * queries, a second reading pass that also bounds and weighs the click pairs of the released queries (round 1 of
 * the pairs); then the pairs' rounds and their counts from what that pass kept. Seven passes, two of them reading
 * the log; all noise is drawn by the coordinator, in the single machine's order.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { KeptAdder, KeptUser, PartialTable, SummedRows, UserAdder } from "../sharded.ts";
import { histories, pairKeys, type QueryForm, ranked } from "./contributions.ts";
import { type DpParams, plan } from "./plan.ts";
import type { SelectionItems } from "./release.ts";
import {
  noisyRound,
  openIn,
  type RoundsCalibration,
  type RoundsDesign,
  releasedIds,
  userRoundWeights,
} from "./selection/rounds.ts";
import type { Calibration, Selection } from "./selection/selection.ts";
import { itemsByFirst, TALLY, tallies, weightOf } from "./summed.ts";

/** Row kinds: a round's weights per item (queries, pairs), per-user tallies, the counts within the released. */
export const ROUND_QUERIES = 0;
export const ROUND_PAIRS = 1;
const WITHIN = 3;

/** A later round's input: the round's d, and the open items with their noisy weights, or the closed ones. */
interface RoundPass {
  readonly step: "round";
  readonly kind: number;
  readonly d: number;
  readonly byNoisy: boolean;
  /** The open items and their noisy weights in the round before (null: −∞). */
  readonly open?: readonly (readonly [string, number | null])[];
  /** Without a filter: the items released so far (every other candidate is open). */
  readonly closed?: readonly string[];
}

/** The released queries: their counts within each user's first d, and the pairs' round 1 (reads the log). */
interface CountsAndPairsPass {
  readonly step: "counts+pairs";
  readonly released: readonly string[];
  readonly pairs: boolean;
}

/** The released pairs: their counts within each user's first d (from the kept pairs). */
interface CountsPass {
  readonly step: "counts";
  readonly released: readonly string[];
}

export type RoundsInput = RoundPass | CountsAndPairsPass | CountsPass;

const candidatesOf = (sel: Selection<Calibration>, d: number): number =>
  Math.max(d, sel.candidates?.(d) ?? d);

/**
 * One user's ranked keys bounded to the strategy's candidates, with round 1's weights (0 on those round 1 leaves
 * out); a row's order is the user's first record's position plus the item's rank. Returns the kept candidates.
 */
function addFirstRound(
  kind: number,
  keys: readonly string[],
  sel: Selection<Calibration>,
  design: RoundsDesign,
  d: number,
  base: number,
  table: PartialTable,
): KeptUser {
  const cap = candidatesOf(sel, d);
  const kept = keys.length > cap ? keys.slice(0, cap) : keys;
  const n = kept.length;
  const weights = new Float64Array(n);
  const prior = sel.prior ? Float64Array.from(kept, (k) => sel.prior!(k)) : undefined;
  userRoundWeights(
    Int32Array.from({ length: n }, (_, i) => i),
    design.firstD(d),
    () => true,
    prior,
    undefined,
    [],
    (i, w) => {
      weights[i] = w;
    },
  );
  for (let r = 0; r < n; r++) table.add(kind, kept[r]!, String(weights[r]!), 1, 0, base + r);
  table.add(TALLY, String(kind), "", n > 0 ? 1 : 0, keys.length > cap ? 1 : 0, 0);
  table.add(TALLY, `${kind} dropped`, "", keys.length - n, 0, 0);
  return n > 0 ? kept : undefined;
}

/** Each of `kept`'s first d items in `released` counts one user. */
function addWithin(kept: KeptUser, released: ReadonlySet<string>, d: number, table: PartialTable): void {
  if (kept === undefined) return;
  let n = 0;
  for (const key of kept) {
    if (n === d) break;
    if (released.has(key)) {
      table.add(WITHIN, key, "", 1, 0, 0);
      n++;
    }
  }
}

/** The first pass's adder: the queries' round 1. */
export function roundsFirstAdder(params: DpParams, sel: Selection<Calibration>, form: QueryForm): UserAdder {
  const design = sel.rounds!;
  return (block, order, table) => {
    const list = histories(groupEvents(block), form)[0];
    if (list === undefined) return undefined;
    const keys = ranked(
      list.map((e) => e.query),
      sel.prior,
    );
    return addFirstRound(ROUND_QUERIES, keys, sel, design, params.d, order(block[0]!), table);
  };
}

/** A later pass's adder, from the coordinator's input. */
export function roundsLaterAdder(
  params: DpParams,
  sel: Selection<Calibration>,
  form: QueryForm,
  input: RoundsInput,
): UserAdder | KeptAdder {
  if (input.step === "counts+pairs") {
    const released = new Set(input.released);
    const cap = candidatesOf(sel, params.d);
    return (block: readonly LogRecord[], order: (r: LogRecord) => number, table: PartialTable) => {
      const list = histories(groupEvents(block), form)[0];
      if (list === undefined) return undefined;
      const queries = ranked(
        list.map((e) => e.query),
        sel.prior,
      ).slice(0, cap);
      addWithin(queries, released, params.d, table);
      if (!input.pairs) return undefined;
      const keys = ranked(pairKeys(block, list, released), sel.prior);
      return addFirstRound(ROUND_PAIRS, keys, sel, sel.rounds!, params.d, order(block[0]!), table);
    };
  }
  if (input.step === "counts") {
    const released = new Set(input.released);
    return { fromKept: (kept, table) => addWithin(kept, released, params.d, table) };
  }
  const open = input.open
    ? new Map(input.open.map(([k, v]) => [k, v ?? Number.NEGATIVE_INFINITY]))
    : undefined;
  const closed = input.closed ? new Set(input.closed) : undefined;
  const mine: number[] = [];
  return {
    fromKept(kept, table) {
      if (kept === undefined) return;
      const n = kept.length;
      const isOpen = (i: number) => (open ? open.has(kept[i]!) : !closed!.has(kept[i]!));
      const prior = sel.prior ? Float64Array.from(kept, (k) => sel.prior!(k)) : undefined;
      const by =
        input.byNoisy && open
          ? Float64Array.from(kept, (k) => open.get(k) ?? Number.NEGATIVE_INFINITY)
          : undefined;
      userRoundWeights(
        Int32Array.from({ length: n }, (_, i) => i),
        input.d,
        isOpen,
        prior,
        by,
        mine,
        (i, w) => table.add(input.kind, kept[i]!, String(w), 1, 0, 0),
      );
    },
  };
}

/** A round pass's summed weights by the items' ids. */
async function roundWeightsOf(
  sums: SummedRows,
  kind: number,
  ids: ReadonlyMap<string, number>,
  items: number,
) {
  const byKey = new Map<string, { key2: string; a: number }[]>();
  for await (const page of sums.rows(kind)) {
    for (const r of page) {
      const parts = byKey.get(r.key);
      if (parts) parts.push(r);
      else byKey.set(r.key, [r]);
    }
  }
  const h = new Float64Array(items);
  for (const [key, parts] of byKey) h[ids.get(key)!] = weightOf(parts);
  return h;
}

/** The counts within the released, by id. */
async function withinOf(sums: SummedRows, ids: ReadonlyMap<string, number>, items: number) {
  const n = new Float64Array(items);
  for await (const page of sums.rows(WITHIN)) for (const r of page) n[ids.get(r.key)!]! += r.a;
  return n;
}

/** Users with at least one item of `kind` in a first-round pass's sums. */
export async function usersOf(sums: SummedRows, kind: number): Promise<number> {
  return (await tallies(sums)).get(String(kind))?.a ?? 0;
}

/**
 * One kind's items from its first round's sums (numbered by first holder), selected in rounds by passes of the
 * workers (`again`), and counted within the released by one more (`count`).
 */
export async function roundsItems(
  sums: SummedRows,
  kind: number,
  sel: Selection<Calibration>,
  again: (input: RoundsInput) => Promise<SummedRows>,
  count: (released: readonly string[]) => Promise<ArrayLike<number>>,
): Promise<SelectionItems & { readonly ids: ReadonlyMap<string, number> }> {
  const design = sel.rounds!;
  const { keys, users, parts } = await itemsByFirst(sums, kind);
  const ids = new Map(keys.map((k, i) => [k, i]));
  const h1 = new Float64Array(keys.length);
  for (let id = 0; id < keys.length; id++) h1[id] = weightOf(parts[id]!);
  const tally = await tallies(sums);
  return {
    keys,
    ids,
    usersTruncated: tally.get(`${kind}`)?.b ?? 0,
    dropped: tally.get(`${kind} dropped`)?.a ?? 0,
    async select(c, random) {
      const cal = c as RoundsCalibration;
      const released = new Uint8Array(keys.length);
      let noisy = noisyRound(h1, cal, 0, random, released);
      for (let r = 1; r < cal.rounds.length; r++) {
        const open = openIn(design, cal, r, released, noisy);
        // Without a filter (and no order by noise) the open items are all but the released: those are sent.
        const unfiltered = design.keep[r - 1] === Number.NEGATIVE_INFINITY && !design.byNoisy;
        const input: RoundPass = {
          step: "round",
          kind,
          d: cal.rounds[r]!.d,
          byNoisy: design.byNoisy === true,
          ...(unfiltered
            ? { closed: keys.filter((_, id) => released[id] === 1) }
            : {
                open: keys.flatMap((key, id) =>
                  open(id) ? [[key, Number.isFinite(noisy[id]!) ? noisy[id]! : null] as const] : [],
                ),
              }),
        };
        const h = await roundWeightsOf(await again(input), kind, ids, keys.length);
        noisy = noisyRound(h, cal, r, random, released);
      }
      return releasedIds(released);
    },
    counted: (chosen) => count(Array.from(chosen, (id) => keys[id]!)),
    userCounts: () => users,
    score: () => h1,
  };
}

/** The queries' counts and the pairs' first round in one reading pass, the pairs' rounds and counts after it. */
export function roundsRelease(
  params: DpParams,
  sel: Selection<Calibration>,
  sums: SummedRows,
  again: (input: unknown) => Promise<SummedRows>,
): {
  queries: Promise<SelectionItems>;
  pairsOf: (released: ReadonlySet<string>) => Promise<SelectionItems>;
} {
  const pairs = plan(params, sel).pairs !== undefined;
  let pairItems: Promise<SelectionItems> | undefined;
  let ids: ReadonlyMap<string, number> = new Map();
  let items = 0;
  const queries = roundsItems(sums, ROUND_QUERIES, sel, again, async (released) => {
    const s = await again({ step: "counts+pairs", released, pairs } satisfies CountsAndPairsPass);
    const n = await withinOf(s, ids, items);
    // The pairs' round 1 came with the counts: read before the next pass clears the sums.
    if (pairs) {
      const p = await roundsItems(s, ROUND_PAIRS, sel, again, async (releasedPairs) => {
        const c = await again({ step: "counts", released: releasedPairs } satisfies CountsPass);
        return withinOf(c, p.ids, p.keys.length);
      });
      pairItems = Promise.resolve(p);
    }
    return n;
  }).then((q) => {
    ids = q.ids;
    items = q.keys.length;
    return q;
  });
  return {
    queries,
    pairsOf: async () => {
      if (!pairItems) throw new Error("dp: the click pairs are read with the queries' counts");
      return pairItems;
    },
  };
}
