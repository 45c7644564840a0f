import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type AuditSubject, audit } from "../../src/audit/audit.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { declaredInput } from "../../src/methods/method.ts";
import { methodEntry } from "../../src/methods/registry.ts";

const T = 1_141_000_000;
const rec = (user: string, query: string, t: number, extra: Partial<LogRecord> = {}): LogRecord => ({
  user,
  query,
  time: T + t,
  ...extra,
});
const log = (records: LogRecord[]): QueryLog => ({ records, format: "aol" });

function subject(
  method: string,
  params: Record<string, unknown>,
  original: LogRecord[],
  released: LogRecord[],
) {
  return {
    method,
    declared: declaredInput(methodEntry(method)),
    params,
    original: log(original),
    released: log(released),
  } satisfies AuditSubject;
}

const dpDeclared = declaredInput(methodEntry("dp"));

const failed = (s: AuditSubject) =>
  audit(s)
    .results.filter((r) => !r.ok)
    .map((r) => r.name);

describe("audit checks: each passes a release that keeps its promise and fails one that does not", () => {
  it("k-anonymity of user logs (mdav family)", () => {
    const shared = (u: string) => [rec(u, "diving", 1), rec(u, "soccer", 2)];
    const ok = [...shared("a"), ...shared("b"), ...shared("c")];
    assert.deepEqual(failed(subject("mdav", { k: 3 }, ok, ok)), []);
    const bad = [...shared("a"), ...shared("b"), rec("c", "diving", 1)];
    const r = audit(subject("erola", { k: 2 }, ok, bad));
    const k = r.results.find((x) => x.name === "k-anonymity")!;
    assert.equal(k.ok, false);
    assert.equal(k.violations, 1);
    assert.match(k.examples[0]!, /user c/);
  });

  it("(k,m)-anonymity (km)", () => {
    const ok = [rec("a", "cheap flights", 1), rec("b", "cheap flights", 2)];
    assert.deepEqual(failed(subject("km", { k: 2, m: 2 }, ok, ok)), []);
    const bad = [...ok, rec("b", "secret hideout", 3)];
    assert.deepEqual(failed(subject("km", { k: 2, m: 2 }, bad, bad)), ["(k,m)-anonymity"]);
  });

  it("no column the method does not release: km's Unit of suppressed words", () => {
    const original = [rec("a", "ohio weight loss", 1, { category: "Top/Health", unit: "weight loss" })];
    const kept = [rec("a", "ohio", 1, { category: "Top/Health", unit: "weight loss" })];
    assert.deepEqual(failed(subject("km", { k: 1, m: 1 }, original, kept)), ["columns"]);
    const cleared = [rec("a", "ohio", 1, { category: "", unit: "" })];
    assert.deepEqual(failed(subject("km", { k: 1, m: 1 }, original, cleared)), []);
  });

  it("click graph (graph): density and the (k, K) condition", () => {
    const click = (u: string, q: string, url: string, t: number) =>
      rec(u, q, t, { itemRank: 1, clickUrl: url });
    const disconnected = [click("a", "q1", "http://x.com", 1), click("b", "q2", "http://y.com", 2)];
    assert.deepEqual(failed(subject("graph", { density: 0, k: 0, K: 0 }, disconnected, disconnected)), []);
    const joined = [...disconnected, click("c", "q3", "http://x.com", 3)];
    assert.deepEqual(failed(subject("graph", { density: 0, k: 0, K: 0 }, joined, joined)), ["click graph"]);
    assert.deepEqual(failed(subject("graph", { density: 0, k: 2, K: 1 }, disconnected, disconnected)), [
      "click graph",
    ]);
  });

  it("≥ k distinct users per released query (threshold)", () => {
    const ok = [rec("a", "news", 1), rec("b", "news", 2)];
    assert.deepEqual(failed(subject("threshold", { k: 2 }, ok, ok)), []);
    const bad = [...ok, rec("a", "rare", 3), rec("a", "rare", 4)];
    assert.deepEqual(failed(subject("threshold", { k: 2 }, bad, bad)), ["≥ k users per query"]);
  });

  it("swap invariants: from the input, never under its only author, per-user counts never grow", () => {
    const original = [rec("a", "q1", 1), rec("b", "q2", 2)];
    const swapped = [rec("b", "q1", 3), rec("a", "q2", 3)];
    assert.deepEqual(failed(subject("swap", {}, original, swapped)), []);
    assert.deepEqual(failed(subject("swap", {}, original, original)), ["swap invariants"]);
    assert.deepEqual(failed(subject("swap", { ownAuthor: true }, original, original)), []);
    assert.deepEqual(failed(subject("swap", {}, original, [rec("b", "invented", 3)])), ["swap invariants"]);
    const twice = [rec("b", "q1", 3), rec("b", "q2", 4)];
    assert.deepEqual(failed(subject("swap", {}, original, twice)), ["swap invariants"]);
  });

  it("swap invariants: with categories, no user receives more events in a top-level category than they issued", () => {
    const cat = (category: string) => ({ category });
    const arts = cat("Top/Arts/Music");
    const sports = cat("Top/Sports");
    const original = [
      rec("a", "q1", 1, arts),
      rec("b", "q2", 2, cat("Top/Arts")),
      rec("c", "q3", 3, sports),
      rec("d", "q4", 4, sports),
    ];
    // Swapped within each top-level category (the deeper Arts path counts as Arts).
    const within = [
      rec("b", "q1", 5, arts),
      rec("a", "q2", 5, cat("Top/Arts")),
      rec("d", "q3", 5, sports),
      rec("c", "q4", 5, sports),
    ];
    assert.deepEqual(failed(subject("swap", {}, original, within)), []);
    // Per-user counts kept and never under the author, but c and a receive the other category's queries.
    const across = [
      rec("b", "q1", 5, arts),
      rec("c", "q2", 5, cat("Top/Arts")),
      rec("d", "q3", 5, sports),
      rec("a", "q4", 5, sports),
    ];
    assert.deepEqual(failed(subject("swap", {}, original, across)), ["swap invariants"]);
  });

  it("identifiers in released text and click URLs", () => {
    const ok = [rec("a", "weather", 1)];
    assert.deepEqual(failed(subject("threshold", { k: 1 }, ok, ok)), []);
    const email = [rec("a", "helenwatson133 aol com", 1)];
    assert.deepEqual(failed(subject("threshold", { k: 1 }, email, email)), ["identifiers"]);
    const url = { itemRank: 1, clickUrl: "http://www.helenwatson1334u.com" };
    const original = [rec("a", "helenwatson133 aol com", 1, url)];
    const released = [rec("a", "", 1, url)];
    assert.deepEqual(failed(subject("threshold", { k: 1 }, original, released)), ["identifiers"]);
    // The identity baseline promises nothing of the kind.
    assert.deepEqual(failed(subject("identity", {}, email, email)), []);
  });

  it("summary counts: row conservation", () => {
    const original = [rec("a", "q1", 1), rec("b", "q2", 2), rec("c", "q3", 3)];
    const released = original.slice(0, 2);
    const s = (summary: Record<string, number>) => ({
      ...subject("threshold", { k: 1 }, original, released),
      summary,
    });
    assert.deepEqual(failed(s({ "rows released": 2, "rows removed": 1, "events released": 2 })), []);
    assert.deepEqual(failed(s({ "rows released": 3 })), ["summary counts"]);
    assert.deepEqual(failed(s({ "input rows": 3, "released rows": 2, "suppressed rows": 0 })), [
      "summary counts",
    ]);
  });

  it("count table (dp): only logged queries and pairs", () => {
    const original = log([rec("a", "news", 1, { itemRank: 1, clickUrl: "http://n.com" })]);
    const table = {
      queries: [{ query: "news", count: 3.2 }],
      clicks: [{ query: "news", url: "http://n.com", count: 2 }],
    };
    assert.deepEqual(failed({ method: "dp", declared: dpDeclared, params: {}, original, table }), []);
    const invented = { ...table, queries: [{ query: "olds", count: 5 }] };
    assert.deepEqual(failed({ method: "dp", declared: dpDeclared, params: {}, original, table: invented }), [
      "count table",
    ]);
  });
});
