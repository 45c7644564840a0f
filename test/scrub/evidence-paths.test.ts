/**
 * The log's name evidence (how many distinct users typed a name) reaches the scrubber on every path whose method
 * allows cross-user preparation and on none other: a weak name forty users typed is a public figure's to the
 * scrubber given the evidence and an identifier to one without it, so the same log gives a different release on the
 * two sides. Swap (classified on the way) and threshold (scrubbed on the way) release it; dp's input has it removed,
 * each record judged alone. "shirley brook" is invented and absent from the labelled sets and the AOL subset
 * (checked).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { anonymize, type MethodName } from "../../src/api/methods.ts";
import { createKnowledgeService } from "../../src/classify/service.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { declaredInput } from "../../src/methods/method.ts";
import { methodEntry, methods } from "../../src/methods/registry.ts";
import { preparationFor, prepareLog } from "../../src/pipeline/prepare.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";

const NAME = "shirley brook";
const T = 1_141_000_000;
const records: LogRecord[] = [];
// (as many users as dp needs to release a query: it releases "cheap flights", and would release the name if it kept it)
const USERS = 40;
for (let u = 0; u < USERS; u++) {
  records.push({ user: String(100 + u), query: NAME, time: T + 60 * u });
  records.push({ user: String(100 + u), query: "cheap flights", time: T + 60 * u + 5 });
  records.push({ user: String(100 + u), query: "weather ohio", time: T + 60 * u + 9 });
}
const log: QueryLog = { records, format: "aol" };
const knowledge = createKnowledgeService(undefined, () => {});
const texts = (l: QueryLog | undefined) => (l?.records ?? []).map((r) => r.query);

describe("the log's name evidence reaches exactly the cross-user paths", () => {
  it("the fixture: a name the scrubber removes alone, and keeps given that many users typed it", () => {
    assert.equal(createScrubber().scrub(NAME).text, "");
    const many = { users: (key: string) => (key === NAME ? USERS : 0) };
    assert.equal(createScrubber({ nameUsers: many }).scrub(NAME).text, NAME);
  });

  it("each method's declared preparation keeps the name where cross-user evidence is allowed, else removes it", async () => {
    for (const m of methods) {
      const input = declaredInput(m);
      if (input.text === "raw") continue; // (released as typed, by declaration)
      const as = preparationFor(input.text, log);
      const prepared = await prepareLog(log, as, { crossUser: input.crossUser, knowledge });
      const kept = texts(prepared.log).filter((q) => q === NAME).length;
      assert.equal(kept, input.crossUser ? USERS : 0, `${m.name} (${as}, crossUser ${input.crossUser})`);
    }
    assert.equal(declaredInput(methodEntry("dp")).crossUser, false);
  });

  it("swap and threshold release it; dp's table never holds it", async () => {
    for (const [method, params] of [
      ["swap", { k: 2 }],
      ["threshold", { k: 3 }],
    ] as const) {
      const r = await anonymize(log, { method: method as MethodName, params, seed: 1, knowledge });
      assert.ok(texts(r.log).includes(NAME), `${method} released ${JSON.stringify(texts(r.log))}`);
    }
    const dp = await anonymize(log, {
      method: "dp",
      params: { noise: "seeded", epsilon: 5 },
      seed: 1,
      knowledge,
    });
    const released = (dp.table?.queries ?? []).map((q) => q.query);
    assert.ok(released.includes("cheap flights"), `dp released ${JSON.stringify(released)}`);
    for (const q of released) assert.doesNotMatch(q, /shirley|brook/);
  });
});
