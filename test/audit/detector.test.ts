/**
 * The audit's identifier detector is its own: it imports nothing from src/scrub (no code, no list), it catches a
 * release the scrubber never saw and a private name injected into a clean one, naming the record, and on
 * purpose-built cases it disagrees with the scrubber (each misses what the other finds), so it is not the scrubber
 * under another name. Every name here is invented and absent from the labelled sets and the AOL subset (checked).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type AuditSubject, audit } from "../../src/audit/audit.ts";
import { detectIdentifiers } from "../../src/audit/detector/index.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { declaredInput } from "../../src/methods/method.ts";
import { methodEntry } from "../../src/methods/registry.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const kinds = (text: string) => detectIdentifiers(text).map((d) => `${d.kind} ${d.value}`);
const scrubber = createScrubber();
const scrubbed = (text: string) => scrubber.scrub(text).spans.map((s) => `${s.type} ${s.value}`);

/** The relative imports of a source file, resolved to paths under src/. */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g))
    out.push(join(file, "..", m[1]!).slice(SRC.length));
  return out;
}

/** Every file reachable from `start` by relative imports. */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of imports(join(SRC, f))) todo.push(i);
  }
  return seen;
}

describe("the audit's detector shares no code with the scrubber", () => {
  it("nothing it reaches by import is in src/scrub (nor the classifier or the knowledge base that use it)", () => {
    const roots = readdirSync(join(SRC, "audit/detector")).map((f) => `audit/detector/${f}`);
    for (const root of roots) {
      for (const f of closure(root))
        assert.doesNotMatch(f, /^(?:scrub|classify|knowledge)\//, `${root} reaches ${f}`);
    }
  });
  it("nor does the identifiers check, which imports the detector", () => {
    const check = "audit/checks/identifiers.ts";
    for (const f of closure(check))
      assert.doesNotMatch(f, /^(?:scrub|classify|knowledge)\//, `${check} reaches ${f}`);
    assert.ok(imports(join(SRC, check)).includes("audit/detector/index.ts"));
  });
});

describe("the audit's detector finds each kind", () => {
  it("patterns", () => {
    assert.deepEqual(kinds("mail qzrtw77@example.org"), ["email qzrtw77@example.org"]);
    assert.deepEqual(kinds("qzrtw77 aol com"), ["email qzrtw77 aol com"]);
    assert.deepEqual(kinds("call 555-867-5309 now"), ["phone 555-867-5309"]);
    assert.deepEqual(kinds("call 800-555-0199"), []); // toll-free: a business's
    assert.deepEqual(kinds("ssn 078-05-1120"), ["id_number 078-05-1120"]);
    assert.deepEqual(kinds("4111 1111 1111 1111 visa"), ["id_number 4111 1111 1111 1111"]);
    assert.deepEqual(kinds("3217 old quarry road bossier"), ["street_address 3217 old quarry road"]);
    assert.deepEqual(kinds("2006 road test"), []);
    assert.deepEqual(kinds("po box 1234 dallas"), ["street_address po box 1234"]);
    assert.deepEqual(kinds("myspace.com/qzrtw77"), ["url myspace.com/qzrtw77"]);
    assert.deepEqual(kinds("myspace com layouts"), []);
    assert.deepEqual(kinds("ping 8.8.4.4"), ["ip_address 8.8.4.4"]);
    assert.deepEqual(kinds("router 192.168.1.1"), []);
  });
  it("a private person's name in a query about a person; a bare name is left to the scrubber", () => {
    assert.deepEqual(kinds("shirley terwilliger obituary"), ["person_name shirley terwilliger"]);
    assert.deepEqual(kinds("genealogy urrutia family"), ["person_name urrutia"]);
    assert.deepEqual(kinds("urrutia obituary"), ["person_name urrutia"]);
    assert.deepEqual(kinds("prickett funeral home"), []);
    assert.deepEqual(kinds("shirley terwilliger"), []);
  });
});

describe("the audit's detector disagrees with the scrubber on purpose-built cases", () => {
  it("it catches a name whose first name the census lacks, which the scrubber keeps", () => {
    const q = "obituary jaylin terwilliger";
    assert.deepEqual(kinds(q), ["person_name jaylin terwilliger"]);
    assert.deepEqual(scrubbed(q), []);
  });
  it("it leaves a bare name, which the scrubber removes (it holds no list of public figures)", () => {
    assert.deepEqual(kinds("shirley brook"), []);
    assert.deepEqual(scrubbed("shirley brook"), ["person_name shirley brook"]);
  });
  it("a phone number after a fax cue: each reads it its own way", () => {
    assert.deepEqual(kinds("fax 867-5309"), ["phone fax 867-5309"]);
    assert.deepEqual(scrubbed("fax 867-5309"), ["phone 867-5309"]);
  });
});

const T = 1_141_000_000;
const rec = (user: string, query: string, t: number, extra: Partial<LogRecord> = {}): LogRecord => ({
  user,
  query,
  time: T + t,
  ...extra,
});
const log = (records: LogRecord[]): QueryLog => ({ records, format: "aol" });
const graph = declaredInput(methodEntry("graph"));
const identifiersOf = (s: AuditSubject) => audit(s).results.find((r) => r.name === "identifiers")!;

describe("the identifiers check fails a release that holds an identifier, naming the record", () => {
  const raw = [
    rec("7", "cheap flights", 1),
    rec("7", "shirley terwilliger obituary", 2),
    rec("8", "call 555-867-5309 now", 3),
    rec("9", "helenqz133 aol com", 4, { clickUrl: "http://www.helenqz1334u.com", itemRank: 1 }),
    rec("9", "helenqz pictures", 5, { clickUrl: "http://www.helenqz1334u.com", itemRank: 1 }),
  ];
  it("the scrubber bypassed: the raw log released as is", () => {
    const r = identifiersOf({
      method: "graph",
      declared: graph,
      params: {},
      original: log(raw),
      released: log(raw),
    });
    assert.equal(r.ok, false);
    assert.equal(r.violations, 4);
    assert.match(r.examples.join("\n"), /record 2 \(user 7\): "shirley terwilliger obituary": person_name/);
    assert.match(r.examples.join("\n"), /record 3 \(user 8\): .*phone "555-867-5309"/);
    assert.match(r.examples.join("\n"), /http:\/\/www\.helenqz1334u\.com: names helenqz133/);
  });
  it("a clean release passes; the same with an invented private name injected fails on that record", () => {
    const clean = raw
      .map((r) => ({ ...r, query: scrubber.scrub(r.query).text }))
      .filter((r) => r.query !== "");
    const cleaned = clean.filter((r) => r.clickUrl === undefined);
    const subject = (released: LogRecord[]): AuditSubject => ({
      method: "graph",
      declared: graph,
      params: {},
      original: log(clean),
      asRead: log(raw),
      released: log(released),
    });
    assert.equal(identifiersOf(subject(cleaned)).ok, true);
    const injected = [...cleaned, rec("7", "obituary for shirley quenneville", 9)];
    const r = identifiersOf(subject(injected));
    assert.equal(r.violations, 1);
    assert.match(
      r.examples[0]!,
      /record 4 \(user 7\): "obituary for shirley quenneville": person_name "shirley quenneville"/,
    );
    // the identifying click URL, released beside another query, is caught from the query-URL pairs as read
    const leaked = identifiersOf(
      subject([...cleaned, rec("9", "pictures", 6, { clickUrl: "http://www.helenqz1334u.com" })]),
    );
    assert.equal(leaked.violations, 1);
  });
});
