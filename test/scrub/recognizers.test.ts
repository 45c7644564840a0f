/**
 * Each identifier kind is found and scrubbed in both modes, and its look-alikes are left alone.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import type { PiiType } from "../../src/scrub/types.ts";

const tag = createScrubber({ mode: "tag" });
const drop = createScrubber({ mode: "drop" });

/** [query, type, the value that must be found, tag-mode output, drop-mode output] */
const POSITIVES: [string, PiiType, string, string, string][] = [
  ["email me at jsmith@aol.com", "email", "jsmith@aol.com", "email me at [EMAIL]", "email me at"],
  ["jsmith aol com", "email", "jsmith aol com", "[EMAIL]", ""],
  ["bigdaddy69 at yahoo dot com", "email", "bigdaddy69 at yahoo dot com", "[EMAIL]", ""],
  ["call 555-123-4567 now", "phone", "555-123-4567", "call [PHONE] now", "call now"],
  ["555 123 4567", "phone", "555 123 4567", "[PHONE]", ""],
  ["(312) 555 0199 plumber", "phone", "(312) 555 0199", "[PHONE] plumber", "plumber"],
  ["2125550199", "phone", "2125550199", "[PHONE]", ""],
  ["phone 555 0199 dentist", "phone", "555 0199", "phone [PHONE] dentist", "phone dentist"],
  ["ssn 123-45-6789", "id_number", "123-45-6789", "ssn [ID]", "ssn"],
  ["my ssn 123456789", "id_number", "123456789", "my ssn [ID]", "my ssn"],
  ["ups 1z87420300316932 tracking", "id_number", "1z87420300316932", "ups [ID] tracking", "ups tracking"],
  ["license plate abc1234 owner", "id_number", "abc1234", "license plate [ID] owner", "license plate owner"],
  ["4111 1111 1111 1111 visa", "id_number", "4111 1111 1111 1111", "[ID] visa", "visa"],
  ["1234 oak st springfield", "street_address", "1234 oak st", "[ADDRESS] springfield", "springfield"],
  ["77 e 42nd street apt 4b", "street_address", "77 e 42nd street apt 4b", "[ADDRESS]", ""],
  ["po box 1234 dallas", "street_address", "po box 1234", "[ADDRESS] dallas", "dallas"],
  ["springfield il 62701", "zip", "62701", "springfield il [ZIP]", "springfield il"],
  ["zip code 43085-1234", "zip", "43085-1234", "zip code [ZIP]", "zip code"],
  ["john baker genealogy", "person_name", "john baker", "[PERSON] genealogy", "genealogy"],
  ["mary k wojcik obituary", "person_name", "mary k wojcik", "[PERSON] obituary", "obituary"],
  ["mary a wojcik obituary", "person_name", "mary a wojcik", "[PERSON] obituary", "obituary"],
  ["dr przybylski appointment", "person_name", "przybylski", "dr [PERSON] appointment", "dr appointment"],
  ["kowalski, maria", "person_name", "kowalski, maria", "[PERSON]", ""],
  // a rare surname alone before "family"; a name, then a state, then an institution; a name, then a business and a role
  ["przybylski family reunion", "person_name", "przybylski", "[PERSON] family reunion", "family reunion"],
  [
    "maria kowalczyk iowa state university",
    "person_name",
    "maria kowalczyk",
    "[PERSON] iowa state university",
    "iowa state university",
  ],
  ["john wojcik bakery owner", "person_name", "john wojcik", "[PERSON] bakery owner", "bakery owner"],
  ["myspace com jsmith22", "url", "myspace com jsmith22", "[URL]", ""],
  ["www.geocities.com/~jsmith", "url", "www.geocities.com/~jsmith", "[URL]", ""],
  ["whois 24.118.62.3", "ip_address", "24.118.62.3", "whois [IP]", "whois"],
  ["jane doe born march 3 1961", "date", "march 3 1961", "[PERSON] born [DATE]", "born"],
];

const LOOK_ALIKES = [
  "1984 movie", "route 66", "windows 95", "area 51", "7 eleven", "101 dalmatians", "i 95", "w2 form", "1040 ez",
  "xbox 360", "mp3 players", "1 800 flowers", "1-800-555-1234", "192.168.1.1", "www aol com", "mail yahoo com",
  "aol com", "myspace com login", "www ebay com", "john lennon", "paris hilton", "bill gates", "martin luther king",
  "washington", "ford", "jack daniels", "george washington high school", "st john hospital", "rose garden",
  "july 4 2006 fireworks", "september 11 2001", "top 10 best way to lose weight", "8 mile", "21 jump street",
  "50 cent", "2 fast 2 furious", "2006 ford mustang", "3 doors down lyrics", "90210", "ps2 cheats",
  "john denver songs",
  "dr pepper",
  "mr clean",
  "mrs fields cookies", "tulsa world newspaper", "kansas city chiefs", "fort wayne", "will power",
  "etta james", "victor hugo", // faker's music artists and book authors
  "christina agulera", "bruce springsten", "billy thornton", // a famous name misspelled, or without its middle name
  "kennedy family", // a curated famous surname before "family" alone
]; // biome-ignore format: a list of queries reads better packed

describe("recognizers: each kind in both modes", () => {
  for (const [query, type, value, tagged, dropped] of POSITIVES) {
    it(`${type}: ${query}`, () => {
      const r = tag.scrub(query);
      const span = r.spans.find((s) => s.type === type);
      assert.ok(span, `no ${type} in ${JSON.stringify(r.spans)}`);
      assert.equal(span.value, value);
      assert.equal(query.slice(span.start, span.end), span.value);
      assert.equal(r.text, tagged);
      assert.equal(drop.scrub(query).text, dropped);
    });
  }
});

describe("recognizers: look-alikes are left alone", () => {
  for (const query of LOOK_ALIKES) {
    it(query, () => {
      const r = tag.scrub(query);
      assert.deepEqual(r.spans, [], `found ${JSON.stringify(r.spans)}`);
      assert.equal(r.text, query);
    });
  }
});
