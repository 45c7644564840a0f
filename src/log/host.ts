/** The host of a logged click URL, as the methods and the classifier's training compare them. */

/** The host of a logged URL, lower-cased, without scheme, port, path and a leading `www.`. */
export function hostOf(url: string): string {
  let s = url.trim().toLowerCase();
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.slice(scheme + 3);
  const cut = s.search(/[/:?#]/);
  if (cut >= 0) s = s.slice(0, cut);
  s = s.replace(/\.+$/, "");
  return s.replace(/^www\d*\./, "");
}
