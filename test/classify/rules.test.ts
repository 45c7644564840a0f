// Query-level rules and main-unit options of the classifier (src/classify/rules.ts, classifier.ts). Queries
// are written for these tests, never taken from a query log or the labelled dev set.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Classifier } from "../../src/classify/classifier.ts";
import { findSite, siteCategory, spacedSite } from "../../src/classify/rules.ts";
import { normalizeQuery } from "../../src/classify/units.ts";

// Algorithm 1 and its rules alone: the learned layer (model.ts) is tested in model.test.ts.
const classifier = await Classifier.create({ cacheSize: 0, model: null });
const tax = classifier.kb.taxonomy;
const top = (q: string) => {
  const c = classifier.classify(q);
  return c.categoryId < 0 ? "" : tax.label(tax.ancestorAt(c.categoryId, 1));
};

test("a query in another language is World; English with a foreign name is not", () => {
  assert.equal(top("recetas de cocina para niños"), "World");
  assert.equal(top("wie kocht man kartoffeln und karotten"), "World");
  assert.notEqual(top("robert de niro movies"), "World");
  assert.notEqual(top("la quinta hotel rooms"), "World");
  assert.equal(top("www.tagesschau.de"), "World"); // country domain, no English word in the name
});

test("explicit vocabulary makes a query Adult, but not social or medical uses of 'sex'", () => {
  assert.equal(top("free porn videos"), "Adult");
  assert.equal(top("amateur blow job clips"), "Adult");
  assert.notEqual(top("sex offender registry"), "Adult");
  assert.notEqual(top("breast cancer treatment"), "Adult");
});

test("web addresses: .edu is education, .gov is government or the state it names", () => {
  assert.equal(classifier.classify("www.example-college.edu").category, "Top/Reference/Education");
  assert.equal(classifier.classify("www.fda.gov").category, "Top/Society/Government");
  assert.equal(classifier.classify("www.ohio.gov").category, "Top/Regional");
  assert.deepEqual(findSite("go to http://www.state.nj.us/health"), {
    labels: ["state", "nj", "us"],
    tld: "us",
  });
  assert.equal(siteCategory({ labels: ["state", "nj", "us"], tld: "us" }), "Top/Regional");
  assert.equal(findSite("no site here"), undefined);
  assert.deepEqual(spacedSite("dictionary . com"), { name: "dictionary", tld: "com" });
});

test("a site listed under its full address wins over the bare name's dictionary sense", () => {
  assert.equal(top("match.com"), "Society");
  assert.equal(classifier.classify("dictionary . com").category, "Top/Reference/Dictionaries");
});

test("place + newspaper title word is News; place + team nickname is Sports", () => {
  assert.equal(classifier.classify("springfield herald").category, "Top/News/Newspapers");
  assert.equal(top("denver broncos tickets"), "Sports");
  assert.notEqual(top("herald angels"), "News"); // no place before the title word
});

test("a local service or office with a place is a local search (Regional); without a place it is not", () => {
  assert.equal(top("seafood restaurants in portland maine"), "Regional");
  assert.equal(top("springfield county courthouse hours"), "Regional");
  assert.equal(top("ohio attorney general"), "Regional");
  assert.notEqual(top("restaurant management jobs"), "Regional"); // no place
  assert.notEqual(top("hotels in chicago"), "Regional"); // lodging is travel
});

test("a word that can name a town names one right before a US state ending the query", () => {
  assert.equal(top("buffalo ny"), "Regional");
  assert.equal(top("boulder co"), "Regional");
  assert.notEqual(top("buffalo"), "Regional");
  assert.notEqual(top("apple pie ny"), "Regional"); // no town sense
});

test("a place with a year of the past is about its history", () => {
  assert.equal(classifier.classify("vienna 1910").category, "Top/Society/History");
  assert.equal(top("vienna"), "Regional");
  assert.equal(top("vienna 2005"), "Regional");
});

test("costumes are bought (Shopping); a consumer's loans and rates are personal finance (Home)", () => {
  assert.equal(top("pirate costumes"), "Shopping");
  assert.equal(classifier.classify("personal loans").category, "Top/Home/Personal_Finance");
});

test("an unknown one-word bank or credit-union name is a financial firm", () => {
  assert.equal(classifier.classify("zorvexbank").category, "Top/Business/Financial_Services");
  assert.equal(classifier.classify("qwzfcu").category, "Top/Business/Financial_Services");
});

test("a buying word moves a product query to Shopping, but not travel or services", () => {
  assert.equal(top("buy a guitar"), "Shopping");
  assert.equal(top("cheap flights to paris"), "Recreation");
  assert.equal(top("guitar"), "Arts");
  assert.equal(top("sailboats for sale"), "Shopping"); // marketplace words: sale, trader, auction, wholesale
  assert.equal(top("canoe trader"), "Shopping");
  assert.equal(top("canoe"), "Recreation");
});

test("'X of Y' heads on X even when the tagger calls X a verb", () => {
  const c = classifier.classify("map of ohio");
  assert.equal(c.unit, "map");
  assert.equal(top("map of ohio"), "Reference");
});

test("a phrase the knowledge base knows whole across 'of' stays one unit", () => {
  // Split at "of", "shortness" and "breath" alone would place nothing useful.
  const c = classifier.classify("sudden shortness of breath at night");
  assert.equal(c.unit, "shortness of breath");
  assert.equal(tax.label(tax.ancestorAt(c.categoryId, 1)), "Health");
  assert.equal(classifier.classify("smith family coat of arms").category, "Top/Society/Genealogy/Heraldry");
  assert.equal(classifier.classify("ohio statute of limitations on debt").unit, "statute of limitations");
  // Only "of" bridges: "and" mostly joins two things in a query.
  assert.notEqual(classifier.classify("dogs and cats").unit, "dogs and cats");
});

test("page-kind words (pictures, review) give way to the subject", () => {
  const c = classifier.classify("lasagna recipe pictures");
  assert.equal(top("lasagna recipe pictures"), "Home");
  assert.notEqual(c.unit, "pictures");
});

test("unknown words: run-together site names are split, medical suffixes are Health", () => {
  assert.equal(top("www.bakingrecipes.com"), "Home");
  // A site's name with function words in it (`for`, `my`) reads as words too; the same run typed as a word does not.
  assert.equal(top("gardeningtipsforyou.com"), "Home");
  assert.equal(top("gardeningtipsforyou"), "");
  // A site named by a name of its own and what it offers reads as that ("zorblax shoes"); typed as a word, not.
  assert.equal(top("www.zorblaxshoes.com"), "Shopping");
  assert.equal(top("zorblaxshoes"), "");
  assert.equal(top("qwertyrecipes.com"), "Home");
  assert.equal(top("xylophomycin"), "Health");
  assert.equal(top("qzxvbnmtrk"), "");
});

test("a web address with a mistyped scheme or a full stop after it still names its site", () => {
  for (const q of [
    "www.bakingrecipes.com",
    "http://www.bakingrecipes.com/",
    "hhtp://www.bakingrecipes.com",
    "http//www.bakingrecipes.com.",
    "//www.bakingrecipes.com/index.htm",
    "bakingrecipes.com.",
  ])
    assert.equal(normalizeQuery(q), "bakingrecipes", q);
  assert.equal(top("hhtp://www.bakingrecipes.com."), "Home");
  // Not a web address: a dotted word keeps its dots.
  assert.equal(normalizeQuery("st.louis cardinals"), "st.louis cardinals");
});

test("an ampersand glued between two words separates them, as typed with spaces; 'zq&r' stays one word", () => {
  const word = fc.stringMatching(/^[a-z]{2,8}$/);
  fc.assert(
    fc.property(word, word, fc.constantFrom("", "cheap "), (a, b, before) => {
      assert.equal(normalizeQuery(`${before}${a}&${b}`), normalizeQuery(`${before}${a} & ${b}`));
    }),
  );
  assert.equal(normalizeQuery("zq&r zorblax"), "zq&r zorblax");
  assert.equal(normalizeQuery("b&b"), "b&b");
  assert.equal(top("poems&quotes"), top("poems & quotes"));
  assert.notEqual(top("poems&quotes"), "");
});

test("main-unit rules: 'paper' is Algorithm 1's least-referenced unit, 'vote' the default", async () => {
  const paper = await Classifier.create({ kb: classifier.kb, cacheSize: 0, mainUnit: "paper" });
  for (const c of [paper, classifier]) {
    const r = c.classify("european soccer barcelona players");
    assert.equal(r.unit, "european soccer");
    assert.equal(tax.label(tax.ancestorAt(r.categoryId, 1)), "Sports");
  }
  // "guitar" is referenced less than "lessons": the paper's rule takes it whatever the other unit says.
  assert.equal(paper.classify("guitar lessons").unit, "guitar");
});

test("words that name the kind of site decide the query", () => {
  assert.equal(classifier.classify("love story lyrics").category, "Top/Arts/Music");
  assert.equal(classifier.classify("grilled salmon recipe").category, "Top/Home/Cooking");
  assert.equal(top("flu symptoms"), "Health");
  assert.equal(top("things to do in boston"), "Recreation");
  assert.notEqual(top("lyrics"), ""); // alone it is an ordinary unit
});

test("company forms are Business; property for sale or rent is real estate", () => {
  assert.equal(top("acme widgets inc"), "Business");
  assert.equal(classifier.classify("homes for sale in springfield").category, "Top/Business/Real_Estate");
  assert.equal(classifier.classify("cabins for rent").category, "Top/Business/Real_Estate");
  assert.notEqual(classifier.classify("boats for sale").category, "Top/Business/Real_Estate");
});

test("a misspelt plural is corrected to the plural", () => {
  assert.equal(classifier.classify("blanckets").corrected, "blankets");
});

test("a generic artifact gives way to a telling unit", () => {
  // A bucket is only "some artifact" (Shopping through the general anchor `container`): weak.
  assert.equal(classifier.kb.taxonomy.path(classifier.kb.lookup("bucket")[0]!), "Top/Shopping");
  assert.ok(classifier.kb.isWeak(["bucket"]));
  assert.ok(!classifier.kb.isWeak(["guitar"]));
});

test("'listen to …' is music", () => {
  assert.equal(classifier.classify("listen to some band name").category, "Top/Arts/Music");
});
