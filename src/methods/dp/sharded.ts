/**
 * dp over shards of users (`querymask cluster run --method dp`). A user's whole history is on one worker, so the
 * worker applies the contribution bound exactly as the single machine does (`ranked`, the first d distinct items)
 * and adds the user's vector — the strategy's own `score` of that one user, or 1 on each item — to the partial
 * sums: per item and weight value, how many users gave it that weight. Those are integers, summed exactly in any
 * order and across restarts. The coordinator turns the sums into each item's histogram value and distinct-user
 * count, numbers the items as the single machine does (by the position of their first holder and their rank in that
 * holder's bound), and hands them to `itemsRelease`: the same selection, noise, accountant, summary and notes as
 * `anonymize --method dp`. The click pairs of the released queries take a second pass.
 *
 * The strategies whose selection is one sum over users run here (`Selection.fromSums`), and those that select in
 * rounds of such sums, a pass per round steered by the coordinator's noise (`sharded-rounds.ts`); the policy and
 * greedy strategies process users one after another in a random order: refused before anything starts.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import { UsageError } from "../../util/errors.ts";
import type { MethodContext, Release } from "../method.ts";
import type { PartialRow, PartialTable, ShardedRelease, SummedRows, UserAdder } from "../sharded.ts";
import { canonicalQuery } from "./canonical.ts";
import { histories, pairKeys, type QueryForm, ranked } from "./contributions.ts";
import type { DpParams } from "./plan.ts";
import type { randomness } from "./random.ts";
import { itemsRelease, type SelectionItems } from "./release.ts";
import { selections } from "./selection/index.ts";
import type { Calibration, Selection } from "./selection/selection.ts";
import {
  type RoundsInput,
  roundsFirstAdder,
  roundsLaterAdder,
  roundsRelease,
  usersOf,
} from "./sharded-rounds.ts";
import { itemsByFirst, TALLY, tallies, weightOf } from "./summed.ts";

/** Rows of the partial sums: bounded queries, bounded click pairs, per-user tallies. */
const QUERIES = 0;
const PAIRS = 1;

/**
 * The strategies the cluster runs: those that select from one sum over users, and those that select in rounds of
 * such sums (a pass per round, `sharded-rounds.ts`).
 */
export const summedSelections: readonly string[] = selections
  .filter((s) => s.fromSums || s.rounds)
  .map((s) => s.name);

function summed(name: string): Selection<Calibration> {
  const sel = selections.find((s) => s.name === name);
  if (sel?.fromSums === undefined && sel?.rounds === undefined) {
    const why =
      name === "korolova"
        ? "korolova limits query events, not distinct items"
        : `${name} processes users one after another`;
    throw new UsageError(
      `dp --selection ${name} does not run on the cluster (${why}); the cluster runs dp with --selection ${summedSelections.join(", ")}`,
    );
  }
  return sel;
}

const formOf = (params: DpParams): QueryForm => (params.canonical ? canonicalQuery : undefined);

/** A second pass's input: the released queries, whose click pairs are bounded and summed. */
interface PairsPass {
  readonly released: readonly string[];
}

/**
 * Add one user's bounded items to `table`: `keys` ranked as the bound ranks them, the first d kept. A row per item
 * (key, weight) counts one user; its order is the user's first record's position plus the item's rank (a user's
 * block is contiguous in a log read by user, so this orders items as the single machine's first-seen ids).
 */
function addBounded(
  kind: number,
  keys: readonly string[],
  sel: Selection<Calibration>,
  d: number,
  base: number,
  table: PartialTable,
): void {
  const kept = keys.length > d ? keys.slice(0, d) : keys;
  const n = kept.length;
  const local = Int32Array.from({ length: n }, (_, i) => i);
  const prior = sel.prior ? Float64Array.from(kept, (k) => sel.prior!(k)) : undefined;
  const weights = sel.score?.([local], n, prior, d);
  for (let r = 0; r < n; r++) table.add(kind, kept[r]!, weights ? String(weights[r]!) : "", 1, 0, base + r);
  table.add(TALLY, String(kind), "", n > 0 ? 1 : 0, keys.length > d ? 1 : 0, 0);
  table.add(TALLY, `${kind} dropped`, "", keys.length - n, 0, 0);
}

function adder(params: DpParams, pairs: PairsPass | undefined): UserAdder {
  const sel = summed(params.selection);
  const form = formOf(params);
  const released = pairs ? new Set(pairs.released) : undefined;
  return (block: readonly LogRecord[], order: (r: LogRecord) => number, table: PartialTable) => {
    const list = histories(groupEvents(block), form)[0];
    if (list === undefined) return;
    const base = order(block[0]!);
    if (released === undefined) {
      const keys = ranked(
        list.map((e) => e.query),
        sel.prior,
      );
      addBounded(QUERIES, keys, sel, params.d, base, table);
    } else addBounded(PAIRS, ranked(pairKeys(block, list, released), sel.prior), sel, params.d, base, table);
  };
}

/** One kind's items from the summed rows: numbered by first holder, histogram and user counts by id. */
async function itemsOf(sums: SummedRows, kind: number, sel: Selection<Calibration>): Promise<SelectionItems> {
  const { keys, users, parts } = await itemsByFirst(sums, kind);
  const h = new Float64Array(keys.length);
  if (sel.score) for (let id = 0; id < keys.length; id++) h[id] = weightOf(parts[id]!);
  const tally = await tallies(sums);
  return {
    keys,
    usersTruncated: tally.get(`${kind}`)?.b ?? 0,
    dropped: tally.get(`${kind} dropped`)?.a ?? 0,
    select: (cal, random) => sel.fromSums!(sel.score ? h : users, keys.length, cal, random),
    counted: () => users,
    userCounts: () => users,
    score: () => (sel.score ? h : undefined),
  };
}

/**
 * dp's `Method.sharded`, given the method's refusal for a log without users and its noise source (index.ts's, so
 * seeded noise is announced once and drawn from the run's seed as `anonymize` draws it).
 */
export function shardedDp(
  noUsers: string,
  noiseFor: (params: DpParams, ctx: MethodContext) => ReturnType<typeof randomness>,
): ShardedRelease<DpParams> {
  // The first pass's adder, made once per run's parameters (not once per user).
  const first = new WeakMap<DpParams, UserAdder>();
  return {
    check: (params) => {
      summed(params.selection);
    },
    addUser(block, order, table, params) {
      let add = first.get(params);
      if (add === undefined) {
        const sel = summed(params.selection);
        add = sel.rounds ? roundsFirstAdder(params, sel, formOf(params)) : adder(params, undefined);
        first.set(params, add);
      }
      return add(block, order, table);
    },
    later: (input, params) => {
      const sel = summed(params.selection);
      return sel.rounds
        ? roundsLaterAdder(params, sel, formOf(params), input as RoundsInput)
        : adder(params, input as PairsPass);
    },
    async release(sums, _log, params, ctx, _out, again): Promise<Release> {
      const sel = summed(params.selection);
      if (sel.rounds) {
        ctx.progress.start(`dp (${params.selection}): reading the summed contributions of round 1`);
        const users = await usersOf(sums, QUERIES);
        if (users === 0) {
          ctx.progress.stop();
          throw new UsageError(noUsers);
        }
        const r = roundsRelease(params, sel, sums, again);
        const queries = await r.queries;
        ctx.progress.stop();
        return itemsRelease(params, sel, noiseFor(params, ctx), ctx, { queries, users }, r.pairsOf);
      }
      ctx.progress.start(`dp (${params.selection}): reading the summed contributions`);
      const queries = await itemsOf(sums, QUERIES, sel);
      const users = (await tallies(sums)).get(String(QUERIES))?.a ?? 0;
      ctx.progress.stop();
      if (users === 0) throw new UsageError(noUsers);
      return itemsRelease(params, sel, noiseFor(params, ctx), ctx, { queries, users }, async (released) => {
        const pairs = await again({ released: [...released] } satisfies PairsPass);
        return itemsOf(pairs, PAIRS, sel);
      });
    },
  };
}
