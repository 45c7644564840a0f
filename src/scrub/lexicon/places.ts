/**
 * US states and their postal abbreviations: a state just before five digits makes them a ZIP code, and a state
 * after a name is a place, not a surname. Public facts, written out here rather than pulled from a package.
 */

// biome-ignore format: a word list reads better packed
export const STATE_ABBREVIATIONS: ReadonlySet<string> = new Set([
  "al", "ak", "az", "ar", "ca", "co", "ct", "de", "dc", "fl", "ga", "hi", "id", "il", "in", "ia", "ks", "ky", "la",
  "me", "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh", "nj", "nm", "ny", "nc", "nd", "oh", "ok", "or",
  "pa", "ri", "sc", "sd", "tn", "tx", "ut", "vt", "va", "wa", "wv", "wi", "wy", "pr",
]);

/** Traditional (pre-postal) state abbreviations, as in "denver colo." or "boston mass". */
// biome-ignore format: a word list reads better packed
export const STATE_OLD_ABBREVIATIONS: ReadonlySet<string> = new Set([
  "ala", "ariz", "ark", "calif", "cal", "colo", "conn", "del", "fla", "ill", "ind", "kan", "kans", "mass", "mich",
  "minn", "miss", "mont", "neb", "nebr", "nev", "okla", "ore", "oreg", "penn", "penna", "tenn", "tex", "wash",
  "wis", "wisc", "wyo",
]);

/** State names as token sequences ("new york" is two tokens). */
// biome-ignore format: a word list reads better packed
export const STATE_NAMES: readonly string[] = [
  "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware", "florida",
  "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
  "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska", "nevada",
  "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "ohio", "oklahoma",
  "oregon", "pennsylvania", "rhode island", "south carolina", "south dakota", "tennessee", "texas", "utah",
  "vermont", "virginia", "washington", "west virginia", "wisconsin", "wyoming", "puerto rico",
];

/** The last word of every state name, for "… <state> <zip>" checks. */
export const STATE_LAST_WORDS: ReadonlySet<string> = new Set(STATE_NAMES.map((n) => n.split(" ").at(-1)!));

/** Countries and nationality words: "florence italy", "irish bradley", "chilean carlos" are not names. */
// biome-ignore format: a word list reads better packed
export const COUNTRIES_AND_NATIONALITIES: ReadonlySet<string> = new Set([
  "italy", "france", "germany", "spain", "mexico", "canada", "china", "japan", "india", "england", "ireland",
  "scotland", "wales", "britain", "russia", "brazil", "argentina", "chile", "peru", "colombia", "cuba", "jamaica",
  "haiti", "israel", "egypt", "iraq", "iran", "turkey", "greece", "poland", "portugal", "sweden", "norway",
  "denmark", "finland", "holland", "netherlands", "belgium", "switzerland", "austria", "australia", "africa",
  "kenya", "nigeria", "korea", "vietnam", "thailand", "philippines", "america", "usa", "europe", "asia",
  "irish", "italian", "german", "french", "spanish", "mexican", "canadian", "chinese", "japanese", "indian",
  "english", "scottish", "welsh", "british", "russian", "brazilian", "chilean", "peruvian", "cuban", "jamaican",
  "haitian", "israeli", "egyptian", "iraqi", "iranian", "turkish", "greek", "polish", "portuguese", "swedish",
  "norwegian", "danish", "dutch", "swiss", "austrian", "australian", "african", "korean", "vietnamese", "thai",
  "filipino", "american", "european", "asian", "latin", "catalan", "hispanic", "jewish", "christian", "muslim",
]);
