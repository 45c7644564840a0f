/**
 * E-mail addresses, written out ("jsmith@aol.com") or as AOL logs them with the punctuation stripped
 * ("jsmith aol com", "jsmith at yahoo dot com", "jsmith@hotmail com"). The stripped form is only accepted for
 * a known mail provider and a user part that is not a web-site word ("www aol com", "mail yahoo com" are
 * navigational queries, not addresses).
 */
import { nameLexicon } from "../lexicon/names.ts";
import { type Finding, finding, type Query, type Recognizer, tokenFinding } from "../recognizer.ts";

const FULL = /(?<![\w.+-])[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![\w-])/g;

/** Mail providers common in 2006 whose addresses show up in queries without their punctuation. */
// biome-ignore format: a word list reads better packed
const PROVIDERS = new Set([
  "aol", "yahoo", "hotmail", "gmail", "msn", "comcast", "earthlink", "sbcglobal", "verizon", "att", "bellsouth",
  "cox", "juno", "netzero", "excite", "lycos", "aim", "charter", "optonline", "adelphia", "rocketmail", "mac",
  "prodigy", "peoplepc", "netscape", "cs", "mindspring", "rr", "roadrunner", "ameritech", "pacbell", "swbell",
]);

const TLDS = new Set(["com", "net", "org", "edu"]);
const HAS_TLD = /com|net|org|edu/;

/** Host words and site sections that come before a provider in navigational queries. */
// biome-ignore format: a word list reads better packed
const NOT_A_USER = new Set([
  "www", "http", "https", "mail", "email", "e", "webmail", "my", "login", "log", "sign", "in", "on", "go", "the",
  "search", "people", "news", "sports", "games", "music", "movies", "video", "finance", "maps", "local",
  "shopping", "autos", "travel", "weather", "horoscopes", "personals", "groups", "answers", "messenger", "chat",
  "im", "free", "new", "members", "member", "home", "hometown", "journals", "radio", "tv", "kids", "dating",
  "photos", "pictures", "help", "support", "account", "my", "get", "open", "create", "com", "net", "and", "or",
  "to", "www2", "download", "downloads", "explorer", "toolbar", "instant", "keyword", "keywords", "aol", "yahoo",
  "hotmail", "gmail", "msn", "what", "is", "page", "site", "website", "address", "addresses", "myspace",
  "facebook", "youtube", "google", "ebay", "amazon", "mapquest", "yahoos", "ask", "aim", "icq", "aolmail",
]);

export const emailRecognizer: Recognizer = {
  name: "email",
  types: ["email"],
  find(q: Query): Finding[] {
    const out: Finding[] = [];
    if (q.lower.includes("@")) {
      FULL.lastIndex = 0;
      for (let m = FULL.exec(q.lower); m !== null; m = FULL.exec(q.lower)) {
        out.push(finding(q, "email", m.index, m.index + m[0].length, 0.95));
      }
    }
    if (!HAS_TLD.test(q.lower)) return out;
    const t = q.tokens;
    for (let i = 1; i < t.length; i++) {
      if (!PROVIDERS.has(t[i]!.text)) continue;
      // user [at|@] provider [dot] tld
      let u = i - 1;
      let explicit = q.text.slice(t[u]!.end, t[i]!.start).includes("@");
      if (t[u]!.text === "at" && u >= 1) {
        u--;
        explicit = true;
      }
      let j = i + 1;
      if (t[j]?.text === "dot") j++;
      if (!t[j] || !TLDS.has(t[j]!.text)) continue;
      const user = t[u]!.text;
      if (NOT_A_USER.has(user) || user.length < 3) continue;
      // Without "@" or "at", a common English word before "msn com" is the query's own word ("sending music
      // with msn com"), not a screen name.
      if (!explicit && (nameLexicon().wordLevel.get(user) ?? 99) <= 50) continue;
      // "at" or "@" between user and provider makes it certain; otherwise a digit or an underscore-like mix
      // in the user part is the usual shape of a screen name.
      const score = explicit ? 0.9 : /[0-9]/.test(user) ? 0.75 : 0.6;
      out.push(tokenFinding(q, "email", u, j, score));
    }
    return out;
  },
};
