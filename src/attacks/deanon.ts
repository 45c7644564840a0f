/**
 * De-anonymizers 1–4 of paper 000 (§4.2.2): Algorithm 3 with four ways of naming the author of a popped event.
 */
import { intParam, numberParam, type ParamSpec } from "../util/params.ts";
import type { Attack, AttackParams } from "./attack.ts";
import { argmax, type PickRule, runDeanonymizer } from "./deanonymizer.ts";

/** What the attacker of paper 000 knows: the swap's k, δ and bucket depth. */
const DEANON_PARAMS: readonly ParamSpec[] = [
  { name: "k", type: "int", description: "bucket size k the attacker assumes (≥ 2)", default: 3 },
  { name: "delta", type: "number", description: "growth factor δ the attacker assumes (> 1)", default: 1.2 },
  { name: "depth", type: "int", description: "category depth the attacker assumes (≥ 1)", default: 1 },
];

function parseDeanon(name: string, raw: Readonly<Record<string, unknown>>): AttackParams {
  return {
    k: intParam(name, raw, "k", 3, 2),
    delta: numberParam(name, raw, "delta", 1.2, (n) => (n > 1 ? undefined : `must be > 1, got ${n}`)),
    depth: intParam(name, raw, "depth", 1, 1, 32),
  };
}

function deanon(name: string, summary: string, rule: PickRule): Attack {
  return {
    name,
    summary,
    paper: "Pàmies-Estrems et al. 2016",
    designedFor: "k-bucket",
    params: DEANON_PARAMS,
    parse: (raw) => parseDeanon(name, raw),
    run: async (input) => runDeanonymizer(name, rule, { ...input, params: parseDeanon(name, input.params) }),
  };
}

/** 1: a random user of the bucket. */
export const deanon1 = deanon("deanon1", "Algorithm 3, random user of the bucket", (c) =>
  c.int(c.candidates.length),
);

/** 2: the user who appears most often in the bucket. */
export const deanon2 = deanon("deanon2", "Algorithm 3, most frequent user of the bucket", (c) =>
  argmax(c, (u) => c.slotCount.get(u) ?? 0),
);

/** 3: the bucket user with most queries in this category so far (query history). */
export const deanon3 = deanon("deanon3", "Algorithm 3, bucket user with most history in the category", (c) =>
  argmax(c, (u) => c.history(u)),
);

/** 4: history × appearances in the bucket (recent interest weighs more). */
export const deanon4 = deanon("deanon4", "Algorithm 3, history × appearances in the bucket", (c) =>
  argmax(c, (u) => c.history(u) * (c.slotCount.get(u) ?? 0)),
);
