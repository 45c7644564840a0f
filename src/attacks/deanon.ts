/**
 * De-anonymizers 1–4 of paper 000 (§4.2.2): Algorithm 3 with four ways of naming the author of a popped event.
 */
import type { Attack } from "./attack.ts";
import { argmax, type PickRule, runDeanonymizer } from "./deanonymizer.ts";

function deanon(name: string, summary: string, rule: PickRule): Attack {
  return { name, summary, paper: "000", run: async (input) => runDeanonymizer(name, rule, input) };
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
