import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { LogRecord } from "../../src/log/record.ts";
import { swapParams } from "../../src/methods/swap/meta.ts";
import { SwapStage, type SwapStageSnapshot } from "../../src/methods/swap/stage.ts";
import { Rng } from "../../src/util/random.ts";
import { buildLog, eventSpec, logArb } from "./fixtures.ts";

function runBatches(recs: LogRecord[], size: number, raw: Record<string, unknown> = {}): LogRecord[] {
  const st = new SwapStage(swapParams.parse(raw), Rng.fromSeed(5));
  const out: LogRecord[] = [];
  for (let i = 0; i < recs.length; i += size) out.push(...st.push(recs.slice(i, i + size)));
  out.push(...st.flush());
  return out;
}

test("output does not depend on how the stream is cut into batches", () => {
  fc.assert(
    fc.property(logArb(), fc.integer({ min: 1, max: 50 }), (recs, size) => {
      assert.deepEqual(runBatches(recs, size), runBatches(recs, 1000));
    }),
  );
});

test("snapshot → JSON → restore → continue gives byte-identical output", () => {
  fc.assert(
    fc.property(
      logArb(5, 150),
      fc.integer({ min: 0, max: 400 }),
      fc.constantFrom(0, 150),
      fc.integer({ min: 2, max: 2 }),
      (recs, cutAt, maxDelay, depth) => {
        const raw = { k: 3, maxDelay, depth };
        const whole = JSON.stringify(runBatches(recs, 7, raw));
        const cut = Math.min(cutAt, recs.length);
        const a = new SwapStage(swapParams.parse(raw), Rng.fromSeed(5));
        const out = [...a.push(recs.slice(0, cut))];
        const snap = JSON.parse(JSON.stringify(a.snapshot())) as SwapStageSnapshot;
        const b = new SwapStage(swapParams.parse(raw), Rng.fromSeed(999), undefined, snap);
        for (let i = cut; i < recs.length; i += 7) out.push(...b.push(recs.slice(i, i + 7)));
        out.push(...b.flush());
        assert.equal(JSON.stringify(out), whole);
      },
    ),
  );
});

test("no release before the bucket holds k events and ≥ 2 distinct users", () => {
  fc.assert(
    fc.property(fc.array(eventSpec(3), { maxLength: 150 }), fc.integer({ min: 2, max: 5 }), (specs, k) => {
      const recs = buildLog(specs.map((s) => ({ ...s, rows: 1 })));
      const st = new SwapStage(swapParams.parse({ k }), Rng.fromSeed(1));
      // Model of each bucket: held event count, authors of held events, and slot users.
      const held = new Map<string, number>();
      const authors = new Map<string, string[]>();
      const slots = new Map<string, string[]>();
      const authorOf = new Map(recs.map((r) => [r.query, r.user]));
      const top = (r: LogRecord) => (r.category ?? "").split("/").slice(0, 2).join("/");
      const feed = (r: LogRecord) => {
        const c = top(r);
        held.set(c, (held.get(c) ?? 0) + 1);
        authors.set(c, [...(authors.get(c) ?? []), r.user]);
        slots.set(c, [...(slots.get(c) ?? []), r.user]);
      };
      // An event enters its bucket when the next row arrives: push row i, which closes event i-1.
      let prev: LogRecord | undefined;
      for (const r of recs) {
        const released = st.push([r]);
        if (prev) feed(prev);
        for (const o of released) {
          const c = top(o);
          const s = slots.get(c)!;
          const a = authors.get(c)!;
          assert.ok(held.get(c)! >= k, "bucket held k events");
          assert.ok(new Set([...s, ...a]).size >= 2, "bucket held ≥ 2 users");
          assert.notEqual(o.user, authorOf.get(o.query));
          s.splice(s.indexOf(o.user), 1);
          a.splice(a.indexOf(authorOf.get(o.query)!), 1);
          held.set(c, held.get(c)! - 1);
        }
        prev = r;
      }
    }),
  );
});

test("max delay: an event leaves at the latest with the first arrival at or after its deadline", () => {
  fc.assert(
    fc.property(logArb(4, 200), fc.integer({ min: 1, max: 300 }), (recs, maxDelay) => {
      const st = new SwapStage(swapParams.parse({ k: 6, maxDelay }), Rng.fromSeed(2));
      const out = st.push(recs);
      const firstTime = new Map<string, number>();
      for (const r of recs) if (!firstTime.has(r.query)) firstTime.set(r.query, r.time);
      const arrivals = [...new Set(recs.map((r) => r.time))];
      for (const o of out) {
        const t0 = firstTime.get(o.query)!;
        if (o.time - t0 <= maxDelay) continue;
        const missed = arrivals.filter((t) => t >= t0 + maxDelay && t < o.time);
        assert.deepEqual(missed, [], `released at ${o.time}, deadline ${t0 + maxDelay}`);
      }
    }),
  );
});

test("streaming: every input row is released once or counted as suppressed, with any delay bound and end policy", () => {
  fc.assert(
    fc.property(
      logArb(4, 150),
      fc.integer({ min: 2, max: 6 }),
      fc.constantFrom(0, 5, 60),
      fc.constantFrom("release", "suppress"),
      fc.integer({ min: 1, max: 40 }),
      (recs, k, maxDelay, end, size) => {
        const st = new SwapStage(swapParams.parse({ k, maxDelay, end }), Rng.fromSeed(8));
        const out: LogRecord[] = [];
        for (let i = 0; i < recs.length; i += size) out.push(...st.push(recs.slice(i, i + size)));
        out.push(...st.flush());
        const c = st.counts();
        assert.equal(c["released rows"]! + c["suppressed rows"]!, recs.length);
        assert.equal(c["held events"], 0);
        assert.equal(out.length, c["released rows"]);
        // Each released row is a distinct input row (query text and click identify it in the fixtures).
        const key = (r: LogRecord) => `${r.query}|${r.itemRank}|${r.clickUrl}`;
        const input = new Map(recs.map((r) => [key(r), r]));
        const seen = new Set<string>();
        for (const o of out) {
          const src = input.get(key(o));
          assert.ok(src, "released row comes from the input");
          assert.ok(!seen.has(key(o)), "released once");
          seen.add(key(o));
          assert.notEqual(o.user, src.user, "never under its author");
        }
      },
    ),
  );
});
