/** Folding proper names the way queries type them. */

/** Accents dropped, `œ` spelled out (`Beyoncé` → `Beyonce`). */
export function stripAccents(w: string): string {
  return w
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/œ/g, "oe");
}

/**
 * The words of a name as a query would type them: lower case, accents and punctuation dropped (`Boney M.` →
 * `boney m`, `AC/DC` → `acdc`), `&` as `and`, a leading `the` left out (the classifier's units never hold it).
 */
export function nameWords(name: string): string[] {
  const ws = stripAccents(name.toLowerCase())
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9\s-]/g, "")
    .split(/[\s-]+/)
    .filter((w) => w !== "");
  return ws[0] === "the" ? ws.slice(1) : ws;
}
