/**
 * `--canonical`: one form per query before the contribution bound, so that "Google", "google ", "www.google.com"
 * and "google.com" count as one query with the union of their users. The map reads the record's own text only
 * (lower case, Unicode compatibility form, punctuation to spaces, one space between words, a lone web address
 * reduced to its name), so it is per record and data-independent: it changes no other user's set, and the
 * released text is the canonical form.
 */

/** Address endings dropped from a query that is a lone host name ("ebay.com" → "ebay"). */
const ENDINGS = /\.(?:com|net|org|edu|gov|us|co\.uk|info|biz)$/;
const SCHEME = /^(?:https?:\/\/)?(?:www\d?\.)?/;
const PUNCTUATION = /[^\p{L}\p{N}]+/gu;

/** The canonical form of a query's text ("" when nothing is left: no query). */
export function canonicalQuery(text: string): string {
  let q = text.normalize("NFKC").toLowerCase().trim();
  // A single token that looks like a web address: keep its name.
  if (!/\s/.test(q) && /^(?:https?:\/\/|www\d?\.)|\.[a-z]{2,4}\/?$/.test(q)) {
    q = q.replace(SCHEME, "").replace(/\/+$/, "").replace(ENDINGS, "");
  }
  return q.replace(PUNCTUATION, " ").trim();
}
