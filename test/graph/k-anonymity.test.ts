import assert from "node:assert/strict";
import { test } from "node:test";
import { groupEvents } from "../../src/log/events.ts";
import { hostOf } from "../../src/log/host.ts";
import {
  kAnonymityFilter,
  namesClickedSite,
  Reason,
  siteName,
  wordRuns,
} from "../../src/methods/graph/k-anonymity.ts";
import { QueryGraphBuilder } from "../../src/methods/graph/query-graph.ts";
import { event, log } from "./fixtures.ts";

test("hostOf and siteName read AOL ClickURLs", () => {
  assert.equal(hostOf("http://www.bankofamerica.com/"), "bankofamerica.com");
  assert.equal(hostOf("https://WWW2.Example.org:8080/a?b"), "example.org");
  assert.equal(siteName("http://www.bankofamerica.com/"), "bankofamerica");
  assert.equal(siteName("http://news.bbc.co.uk"), "bbc");
  assert.equal(siteName("http://mail.yahoo.com"), "yahoo");
  assert.equal(siteName("http://192.168.0.1"), "");
  assert.equal(siteName("http://www.e-bay.com"), "ebay");
});

test("wordRuns joins consecutive words", () => {
  assert.deepEqual([...wordRuns("Bank of America")].sort(), [
    "america",
    "bank",
    "bankof",
    "bankofamerica",
    "of",
    "ofamerica",
  ]);
});

test("a query is vulnerable when a run of its words names a clicked site, not on a substring", () => {
  assert.ok(namesClickedSite("bank of america online", ["http://www.bankofamerica.com"]));
  assert.ok(namesClickedSite("ebay.com motors", ["http://www.ebay.com"]));
  assert.ok(!namesClickedSite("smartphone deals", ["http://www.art.com"]));
  assert.ok(!namesClickedSite("cheap flights", ["http://www.expedia.com"]));
  assert.ok(!namesClickedSite("tv guide", ["http://www.tv.com"]), "names under 3 characters are ignored");
});

function graphOf(...events: ReturnType<typeof event>[]) {
  const l = log(...events);
  const b = new QueryGraphBuilder();
  for (const e of groupEvents(l.records)) {
    b.addEvent(e.query);
    for (let i = e.first; i < e.first + e.rows; i++) b.addClick(e.query, l.records[i]!.clickUrl!);
  }
  return b.build();
}

test("the extension removes vulnerable queries, then too few results, then too few sites", () => {
  const g = graphOf(
    event("a", "ebay", 1, ["http://www.ebay.com"]),
    event("a", "lamps", 2, [
      "http://www.lamps.example.com",
      "http://shop.other.com/x",
      "http://www.third.net",
    ]),
    event("b", "rare thing", 3, ["http://www.one.com"]),
    event("b", "two pages", 4, ["http://a.same.com/1", "http://a.same.com/2", "http://www.three.com"]),
  );
  const reasons = kAnonymityFilter(g, { vulnerable: true, k: 3, K: 3 });
  assert.deepEqual([...reasons], [Reason.Vulnerable, Reason.Kept, Reason.FewResults, Reason.FewSites]);
  assert.deepEqual([...kAnonymityFilter(g, { vulnerable: false, k: 0, K: 0 })], [0, 0, 0, 0]);
  assert.deepEqual([...kAnonymityFilter(g, { vulnerable: false, k: 2, K: 0 })], [2, 0, 2, 0]);
});
