/**
 * The ClickURL field through the scrubber. AOL logs the host of the clicked result (`http://www.site.com`);
 * for a personal page that host is an identifier in its own right: the query `helenwatson133 aol com` loses the
 * e-mail address to the scrubber, but its click on `http://www.helenwatson1334u.com` would name her anyway
 * (HIPAA Safe Harbor counts personal web URLs as identifiers).
 *
 * Rule: a click URL whose host contains a word of an identifier removed from the same record's query is
 * **dropped** (the record stays, as a query without a click: ItemRank and ClickURL empty). It is not
 * generalised to its registered domain, because for a personal page the registered domain is the identifier.
 * The words compared are the identifier's runs of letters and digits of 4 or more characters, less the words
 * of web addresses (`www`, `mail`, `aol`, …); dates are not compared (`march 2006` says nothing about a host).
 */
import type { LogRecord } from "../log/record.ts";
import type { PiiSpan } from "./types.ts";

/** Words of e-mail and web addresses that name a provider or a protocol, not a person. */
const WEB_WORDS = new Set([
  "http",
  "https",
  "html",
  "mail",
  "email",
  "gmail",
  "hotmail",
  "yahoo",
  "aol",
  "msn",
  "live",
  "outlook",
  "comcast",
  "earthlink",
  "verizon",
  "bellsouth",
  "juno",
  "netscape",
]);

/** Words of the identifiers in `spans` that could be part of a host name (see the module comment). */
export function identifierWords(spans: readonly PiiSpan[]): string[] {
  const out: string[] = [];
  for (const s of spans) {
    if (s.type === "date") continue;
    for (const w of s.value.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (w.length >= 4 && !WEB_WORDS.has(w) && !out.includes(w)) out.push(w);
    }
  }
  return out;
}

/** The host of a click URL, lower-cased, without scheme, user, port or path ("" when there is none). */
export function urlHost(url: string): string {
  let s = url.trim().toLowerCase();
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.slice(scheme + 3);
  const end = s.search(/[/?#]/);
  if (end >= 0) s = s.slice(0, end);
  const at = s.lastIndexOf("@");
  if (at >= 0) s = s.slice(at + 1);
  const port = s.indexOf(":");
  return port >= 0 ? s.slice(0, port) : s;
}

/** True when the host of `url` contains one of `words` (as {@link identifierWords} gives them). */
export function hostCarries(url: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const host = urlHost(url);
  return words.some((w) => host.includes(w));
}

/**
 * `record` without its click when the host carries one of the identifiers removed from its query (`spans`, as
 * the scrubber found them in `record.query` before scrubbing); the same object otherwise.
 */
export function scrubClick<R extends LogRecord>(record: R, spans: readonly PiiSpan[]): R {
  const url = record.clickUrl;
  if (url === undefined || url === "" || spans.length === 0) return record;
  if (!hostCarries(url, identifierWords(spans))) return record;
  const { clickUrl: _url, itemRank: _rank, ...rest } = record;
  return rest as R;
}
