/**
 * Query-level rules that run beside Algorithm 1's unit ranking. Each encodes an ODP / labelling-guide
 * convention about a whole query rather than about one word, so the least-referenced unit cannot see it:
 *
 * - **World**: a query written in another language (labelling guide: World = not English). Detected from
 *   function words of the major European languages that are not English words, together with content words
 *   the English vocabulary does not know; or a country-code domain whose name holds no English word. (The
 *   classifier also takes two content words of one foreign dictionary, `KnowledgeBase.foreignLanguages`.)
 * - **Adult**: sexually explicit vocabulary decides the query whatever else it holds ("… pictures", "free …").
 * - **Web addresses**: `.edu` sites are schools (Reference/Education); `.gov` sites are government, Regional
 *   when the host names a US state (`ohio.gov`, `state.nj.us`).
 * - **Place + title word**: a place followed by a newspaper title word is a newspaper (`<city> tribune` →
 *   News); a place followed by a major-league team nickname is a team (`<city> <nickname>` → Sports).
 *
 * Word lists here are general vocabulary (function words, newspaper naming conventions, the nicknames of the
 * North American major-league teams), written from public knowledge, never from evaluation queries.
 */

/**
 * Function words of Spanish, French, German, Portuguese, Italian and Dutch that are not English words and do
 * not start common English names (so "die", "do", "con", "sin" are left out, and "los", "las", "el", "des",
 * "il" — Los Angeles, Las Vegas, El Paso, Des Moines, the Illinois code — are only weak evidence below).
 */
export const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "y para por una unos unas que con sobre entre pero muy mas más también " +
    "les du et pour avec une dans ou où qui mais très sont cette ces " +
    "der das und für fuer zu ist ein eine einen auf nicht oder auch wie bei nach über ueber " +
    "não nao uma também " +
    "della delle degli nel nella gli sono " +
    "het een voor niet ook naar bij zijn"
  ).split(" "),
);

/**
 * Country-code top-level domains whose sites are mostly in a language other than English (the English-speaking
 * ccTLDs — uk, ie, au, nz, ca, us — and the generic-use ones — tv, cc, me, ws, fm, io — are left out).
 */
export const FOREIGN_CCTLDS: ReadonlySet<string> = new Set(
  "ar at be bg bo br cl cn co cz de dk ee es fi fr gr hr hu id il it jp kr lt lv ma mx nl no pe pl pt ro rs ru sa se si sk th tn tr tw ua uy ve vn tc".split(
    " ",
  ),
);

/**
 * Sexually explicit words: any of them makes the query Adult (the labelling guide's Adult = sexually explicit
 * material). Anatomical and identity words that also head medical or social queries ("breast cancer",
 * "gay rights") are not here; they stay ordinary anchors.
 */
export const EXPLICIT_WORDS: ReadonlySet<string> = new Set(
  (
    "porn porno pornography pornographic xxx nude nudes nudity naked erotic erotica fuck fucking fucked " +
    "pussy pussies cock cocks tits titties titty boobs boobies cumshot blowjob blowjobs handjob orgy orgasm " +
    "masturbate masturbating hentai milf milfs shemale shemales tranny slut sluts whore whores stripper " +
    "strippers striptease bdsm fetish bondage upskirt voyeur gangbang threesome incest lesbo dildo dildos " +
    "vibrator horny nympho playboy topless tgp sex"
  ).split(" "),
);

/** Explicit two-word expressions whose words are innocent alone. */
export const EXPLICIT_PAIRS: ReadonlySet<string> = new Set(["blow job", "blow jobs", "oral sex", "hand job"]);

/** Words after "sex" that make it a social, legal or health topic, not explicit material. */
export const SEX_TOPICS: ReadonlySet<string> = new Set(
  "offender offenders offense offenses education ed crimes crime abuse trafficking discrimination change determination therapy therapist drive addiction addict registry predators predator".split(
    " ",
  ),
);

/**
 * Function words that also occur in English names and abbreviations ("de niro", "la quinta", "los angeles",
 * "des moines", "nauvoo il", "non profit"): they count towards World only when most content words of the
 * query are not English.
 */
export const WEAK_FOREIGN_WORDS: ReadonlySet<string> = new Set(
  "de la le da di el los las del des il au est mit von dem non per che dos em es como".split(" "),
);

/**
 * Words of buying intent (labelling guide: Shopping = buying products, retailers, online stores; "cheap new
 * cars" when the intent is to buy), and of marketplaces (for sale, trader, auction, wholesale, classifieds). With
 * one of them, a query about a product is a Shopping query.
 */
export const SHOPPING_WORDS: ReadonlySet<string> = new Set(
  "buy buying purchase cheap cheapest discount discounted store stores shop shops outlet outlets dealer dealers dealership dealerships gift gifts coupon coupons price prices catalog catalogs retailer retailers clearance trader traders sale sales auction auctions classifieds wholesale salvage deals".split(
    " ",
  ),
);

/**
 * Top-level branches whose topics are not products: a buying word does not move their queries to Shopping
 * ("cheap car insurance" stays Business, "cheap flights" Recreation/Travel — see `shoppingApplies`).
 */
const NOT_PRODUCTS: ReadonlySet<string> = new Set(
  "Business Regional Society News Reference Adult World Kids_and_Teens Shopping".split(" "),
);

/** Whether a buying word moves a query whose main unit is in `path` (an ODP path) to Shopping. */
export function shoppingApplies(path: string): boolean {
  const top = path.split("/")[1] ?? "";
  if (NOT_PRODUCTS.has(top)) return false;
  return !path.startsWith("Top/Recreation/Travel");
}

/**
 * Words that name a kind of page or resource rather than a subject ("… pictures", "… review", "free …
 * download"): like the ODP facet labels (Directories, Resources, Image Galleries), they qualify the topic, so
 * a unit made only of them is held back while another unit places the query.
 */
export const FACET_WORDS: ReadonlySet<string> = new Set(
  (
    "picture pictures pic pics photo photos photograph photographs image images gallery galleries video videos clip clips " +
    "info information review reviews download downloads site sites website websites page pages web online free " +
    "list lists guide guides tip tips help forum forums chat board boards blog blogs archive archives database " +
    "search finder directory listing listings results result item items thing things stuff type types kind kinds " +
    "example examples sample samples"
  ).split(" "),
);

/**
 * Word-formation suffixes of medicine and pharmacology (international nonproprietary name stems, clinical
 * suffixes): an unknown word ending in one is a drug, a condition or a procedure (Health).
 */
export const MEDICAL_SUFFIX =
  /(?:mycin|micin|cillin|cycline|floxacin|azole|prazole|pril|sartan|olol|dipine|statin|triptan|tidine|azepam|barbital|profen|vudine|ciclovir|navir|itis|osis|emia|ectomy|otomy|ostomy|oplasty|oscopy|algia|opathy|plegia|trophy)$/;

/**
 * Endings of bank and lender names written as one word (`…bank`, `…fcu` = federal credit union, `…lending`):
 * an unknown word ending in one names a financial firm (Business).
 */
export const FINANCE_SUFFIX = /(?:bank|fcu|creditunion|lending|mortgage|financial)$/;

/**
 * Words that say what kind of site is wanted whatever the rest of the query names ("<song> lyrics",
 * "<dish> recipe", "<game> cheats", "<illness> symptoms"): the ODP lists such pages under one branch.
 */
export const DECISIVE_WORDS: ReadonlyMap<string, string> = new Map([
  ["lyrics", "Top/Arts/Music"],
  ["lyric", "Top/Arts/Music"],
  ["recipe", "Top/Home/Cooking"],
  ["recipes", "Top/Home/Cooking"],
  ["cheats", "Top/Games/Video_Games"],
  ["walkthrough", "Top/Games/Video_Games"],
  ["walkthroughs", "Top/Games/Video_Games"],
  ["symptoms", "Top/Health/Conditions_and_Diseases"],
  ["soundtrack", "Top/Arts/Music"],
]);

/** Company-form words: a query naming a company by its legal form is about the company (Business). */
export const COMPANY_WORDS: ReadonlySet<string> = new Set(
  "inc inc. llc llc. corp corp. corporation incorporated ltd ltd. plc gmbh".split(" "),
);

/**
 * Property words: with "for sale", "for rent", "to rent" or "rentals" they make a real-estate listing query
 * (labelling guide: Business covers real estate).
 */
export const PROPERTY_WORDS: ReadonlySet<string> = new Set(
  "home homes house houses condo condos condominium condominiums apartment apartments townhouse townhouses land lot lots acreage acres property properties farm farms ranch ranches cabin cabins duplex cottage cottages".split(
    " ",
  ),
);

/**
 * Local services and offices: with a place in the query they make a local search, which ODP files under the
 * place (labelling guide: Regional covers local government and local businesses identified mainly by place;
 * lodging stays Recreation/Travel).
 */
export const LOCAL_WORDS: ReadonlySet<string> = new Set(
  (
    "restaurant restaurants bakery bakeries diner diners pizzeria caterer caterers florist florists dentist " +
    "dentists plumber plumbers court courts courthouse sheriff police assessor clerk " +
    "treasurer municipal township dmv"
  ).split(" "),
);

/** Local offices of two words (see LOCAL_WORDS). */
export const LOCAL_PAIRS: ReadonlySet<string> = new Set([
  "attorney general",
  "city hall",
  "county clerk",
  "secretary of",
]);

/** Newspaper title words (US and Commonwealth naming conventions: "<place> Tribune", "<place> Herald"). */
export const NEWSPAPER_WORDS: ReadonlySet<string> = new Set(
  (
    "times post herald tribune journal gazette chronicle sun examiner courier ledger observer dispatch " +
    "register bulletin inquirer enquirer press telegraph telegram mirror globe sentinel independent " +
    "republican democrat citizen beacon messenger argus advocate advertiser statesman mercury monitor " +
    "reporter courant banner clarion intelligencer picayune guardian gleaner newspaper newspapers news " +
    "daily weekly"
  ).split(" "),
);

/**
 * Nicknames of the North American major-league teams (MLB, NFL, NBA, NHL; 2006 line-up), in the plural form
 * used after the city. Nicknames that are also everyday words after a place ("jazz", "blues", "magic",
 * "heat", "wild", "stars", "lightning", "thunder") are left out.
 */
export const TEAM_NICKNAMES: ReadonlySet<string> = new Set(
  (
    "diamondbacks braves orioles cubs reds indians rockies tigers marlins astros royals angels dodgers " +
    "brewers twins mets yankees athletics phillies pirates padres giants mariners cardinals rays rangers " +
    "jays nationals sox falcons ravens bills panthers bears bengals browns cowboys broncos lions packers " +
    "texans colts jaguars chiefs dolphins vikings patriots saints jets raiders eagles steelers chargers " +
    "49ers niners seahawks rams buccaneers bucs titans redskins hawks celtics bobcats bulls cavaliers cavs " +
    "mavericks mavs nuggets pistons warriors rockets pacers clippers lakers grizzlies bucks timberwolves " +
    "nets hornets knicks sonics supersonics suns blazers kings spurs raptors wizards 76ers sixers ducks " +
    "thrashers bruins sabres flames hurricanes blackhawks avalanche jackets oilers canadiens habs predators " +
    "devils islanders senators flyers coyotes penguins sharks canucks capitals"
  ).split(" "),
);

/** US state names and postal codes, for `.gov` / `.us` hosts that name a state. */
const US_STATES =
  "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada newhampshire newjersey newmexico newyork northcarolina northdakota ohio oklahoma oregon pennsylvania rhodeisland southcarolina southdakota tennessee texas utah vermont virginia washington westvirginia wisconsin wyoming al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc";
const STATE_SET: ReadonlySet<string> = new Set(US_STATES.split(" "));

/**
 * A year of the past written out (1000–1979): with a place and nothing else placed, the query asks about the
 * place's history (Society/History), not the place today. Later years are as often model years or recent
 * events.
 */
export function isPastYear(word: string): boolean {
  if (word.length !== 4) return false;
  const y = Number(word);
  return Number.isInteger(y) && y >= 1000 && y < 1980;
}

/** True when the words (lower case) name a US state or its postal code: `ohio`, `new york`, `ny`. */
export function isUsState(words: readonly string[]): boolean {
  return words.length <= 2 && STATE_SET.has(words.join(""));
}

/** A web address in a query: the host's labels (`www` dropped) and its top-level domain. */
export interface Site {
  /** Host labels without `www`, e.g. `["state", "nj", "us"]`. */
  readonly labels: readonly string[];
  /** Last label, e.g. `gov`, `edu`, `tr`. */
  readonly tld: string;
}

const SPACED_SITE = /^(?:www\s*\.\s*)?([a-z0-9][a-z0-9 -]*?)\s*\.\s*(com|net|org)$/;

/** A site name written with spaces before its domain, `dictionary . com` → `["dictionary", "com"]`. */
export function spacedSite(query: string): { name: string; tld: string } | undefined {
  if (!query.includes(".")) return undefined; // the pattern needs a dot; most queries have none
  const m = SPACED_SITE.exec(query.toLowerCase().trim());
  return m === null ? undefined : { name: m[1]!.trim(), tld: m[2]! };
}

const HOST = /^(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,6})(?:[/:]\S*)?$/;

/** The first word of the (lower-case) query that is a host name with a dot, e.g. `www.in.gov`. */
export function findSite(query: string): Site | undefined {
  if (!query.includes(".")) return undefined; // every host has a dot; most queries have none
  for (const w of query.toLowerCase().split(/\s+/)) {
    if (!w.includes(".")) continue;
    const m = HOST.exec(w);
    if (m === null) continue;
    const labels = m[1]!.split(".").filter((l, i) => !(i === 0 && /^www\d?$/.test(l)));
    if (labels.length < 2) continue;
    return { labels, tld: labels[labels.length - 1]! };
  }
  return undefined;
}

/** What a host's top-level domain says on its own, as an ODP path; undefined when it says nothing. */
export function siteCategory(site: Site): string | undefined {
  const { labels, tld } = site;
  if (tld === "edu") return "Top/Reference/Education";
  const stateHost = labels.slice(0, -1).some((l) => STATE_SET.has(l.replace(/-/g, "")));
  if (tld === "gov") return stateHost ? "Top/Regional" : "Top/Society/Government";
  if (tld === "us" && labels.length >= 3 && stateHost) return "Top/Regional";
  return undefined;
}
