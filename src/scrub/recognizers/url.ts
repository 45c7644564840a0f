/**
 * Personal URLs: pages of one person on a hosting or social site, written out ("myspace.com/jsmith22",
 * "members.aol.com/jsmith", "jsmith.blogspot.com", "geocities.com/~jsmith") or with the punctuation stripped
 * ("myspace com jsmith22", "jsmith blogspot com"). A site's own sections ("myspace com login") and plain
 * company sites ("www ebay com") are not personal and are left alone.
 */
import { nameLexicon } from "../lexicon/names.ts";
import { type Finding, finding, type Query, type Recognizer, tokenFinding } from "../recognizer.ts";

/** Sites whose path names a person: site.tld/<user>. */
// biome-ignore format: a word list reads better packed
const PATH_HOSTS = new Set([
  "myspace", "facebook", "geocities", "angelfire", "tripod", "xanga", "friendster", "bebo", "photobucket",
  "flickr", "youtube", "hi5", "livejournal", "blogger", "webshots", "members", "hometown", "home", "homepage",
  "users", "people", "profiles", "twitter",
]);
/** Sites whose sub-domain names a person: <user>.site.tld. */
const SUBDOMAIN_HOSTS = new Set([
  "blogspot",
  "livejournal",
  "tripod",
  "xanga",
  "typepad",
  "wordpress",
  "spaces",
]);
const TLDS = new Set(["com", "net", "org"]);
const HAS_TLD = /com|net|org/;
/** Section names of those sites, which are not users. */
// biome-ignore format: a word list reads better packed
const SECTIONS = new Set([
  "login", "log", "in", "sign", "signin", "signup", "join", "layouts", "layout", "codes", "code", "backgrounds",
  "music", "videos", "video", "search", "help", "profile", "profiles", "home", "index", "com", "www", "my",
  "comments", "graphics", "generator", "generators", "tricks", "quizzes", "surveys", "groups", "blogs", "blog",
  "mail", "browse", "friends", "edit", "pics", "pictures", "photos", "images", "users", "members", "page",
  "pages", "the", "and", "for", "of", "to", "on", "with", "contact", "tables", "editor", "editors", "names",
]);
const NOT_A_USER = new Set(["www", "http", "https", "my", "the", "free", "new", "mail", "login", "search"]);

const WRITTEN = /(?<![\w.])(?:https?:\/\/)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/~?[a-z0-9._-]+/g;

/** A user name is not a common English word ("myspace com glitter" asks for glitter graphics). */
function userLike(w: string): boolean {
  return w.length >= 3 && !SECTIONS.has(w) && (nameLexicon().wordLevel.get(w) ?? 99) > 50;
}

export const urlRecognizer: Recognizer = {
  name: "url",
  types: ["url"],
  find(q: Query): Finding[] {
    const out: Finding[] = [];
    const s = q.lower;
    if (s.includes("/")) {
      WRITTEN.lastIndex = 0;
      for (let m = WRITTEN.exec(s); m !== null; m = WRITTEN.exec(s)) {
        const [host = "", path = ""] = m[0].replace(/^https?:\/\//, "").split("/");
        const personal =
          path.startsWith("~") ||
          (host.split(".").some((h) => PATH_HOSTS.has(h)) && userLike(path.replace(/\..*$/, "")));
        if (personal) out.push(finding(q, "url", m.index, m.index + m[0].length, 0.85));
      }
    }
    if (!HAS_TLD.test(s)) return out;
    const t = q.tokens;
    for (let i = 0; i + 1 < t.length; i++) {
      const host = t[i]!.text;
      if (!TLDS.has(t[i + 1]!.text)) continue;
      // site com user
      const user = t[i + 2];
      // the user must follow "com" directly or after a slash, not after another punctuation ("myspace.com-terms")
      const gap = user ? q.text.slice(t[i + 1]!.end, user.start) : "";
      if (PATH_HOSTS.has(host) && user && /^(?:\s+|\/)$/.test(gap) && userLike(user.text)) {
        const from = i > 0 && t[i - 1]!.text === "www" ? i - 1 : i;
        out.push(tokenFinding(q, "url", from, i + 2, 0.65));
      }
      // user site com
      const sub = t[i - 1];
      if (SUBDOMAIN_HOSTS.has(host) && sub && !NOT_A_USER.has(sub.text) && userLike(sub.text)) {
        out.push(tokenFinding(q, "url", i - 1, i + 1, 0.65));
      }
    }
    return out;
  },
};
