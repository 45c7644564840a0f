/**
 * Small word lists bundled with the generator, written for querymask (not taken from any log): query modifiers
 * that carry no topic, US place names, and the raw material for fake identifiers. They are lower-case and
 * punctuation-free, like AOL's normalized queries. Topic words come from the ODP taxonomy, not from here.
 */

/** Modifiers that go before the topic ("cheap flights", "free games"). */
export const PREFIXES: readonly string[] = (
  "free best cheap new used online discount local top official old vintage kids mens womens custom " +
  "wholesale easy homemade famous natural american small big funny printable black white red blue green " +
  "antique modern professional national international christian family home cool great first public private " +
  "affordable luxury portable digital classic miniature organic amateur indoor outdoor"
).split(" ");

/** Modifiers that go after the topic ("soccer cleats for sale" → "for sale"). */
export const SUFFIXES: readonly string[] = [
  ..."online pictures reviews prices jobs games photos history information info store stores supplies parts company companies tips guide forum club clubs schools classes news directory website com coupons rental rentals services contractors dealers association magazine blog sale catalog videos ideas plans 2006 2005 books products equipment accessories training careers center program locations hours map maps recipes software downloads wallpaper quotes facts definition names list rules schedule tickets events results scores salary requirements symptoms treatment".split(
    " ",
  ),
  "for sale",
  "for kids",
  "in the usa",
  "phone number",
  "home page",
  "web site",
  "for free",
];

/** Question openers ("how to make soap"). */
export const OPENERS: readonly string[] = [
  "how to",
  "what is",
  "where to buy",
  "how do i",
  "who is",
  "why do",
];

/** US places: query modifiers ("plumbers dallas tx") and the cities of fake street addresses. */
export const PLACES: readonly string[] = [
  "dallas",
  "houston",
  "chicago",
  "boston",
  "atlanta",
  "miami",
  "denver",
  "seattle",
  "phoenix",
  "orlando",
  "tampa",
  "detroit",
  "cleveland",
  "columbus ohio",
  "las vegas",
  "los angeles",
  "new york",
  "nyc",
  "san diego",
  "portland",
  "nashville",
  "memphis",
  "charlotte",
  "austin",
  "st louis",
  "kansas city",
  "pittsburgh",
  "philadelphia",
  "baltimore",
  "richmond va",
  "new jersey",
  "nj",
  "ny",
  "texas",
  "florida",
  "california",
  "ohio",
  "michigan",
  "georgia",
  "virginia",
  "north carolina",
  "pennsylvania",
  "illinois",
  "arizona",
  "long island",
  "san antonio",
  "jacksonville",
  "indianapolis",
  "milwaukee",
  "louisville",
];

/** Common US first names (fake identifiers combine them at random with {@link LAST_NAMES}). */
export const FIRST_NAMES: readonly string[] = (
  "james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony " +
  "donald mark paul steven andrew kenneth joshua kevin brian george edward ronald timothy jason jeffrey ryan " +
  "jacob gary nicholas eric jonathan stephen larry justin scott brandon frank benjamin gregory samuel raymond " +
  "patrick alexander jack dennis jerry mary patricia jennifer linda elizabeth barbara susan jessica sarah karen " +
  "nancy lisa betty margaret sandra ashley kimberly emily donna michelle dorothy carol amanda melissa deborah " +
  "stephanie rebecca sharon laura cynthia kathleen amy shirley angela helen anna brenda pamela nicole emma " +
  "samantha katherine christine debra rachel catherine carolyn janet ruth maria heather diane virginia julie"
).split(" ");

/** Common US last names. */
export const LAST_NAMES: readonly string[] = (
  "smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson " +
  "anderson thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis " +
  "robinson walker young allen king wright scott torres nguyen hill flores green adams nelson baker hall " +
  "rivera campbell mitchell carter roberts gomez phillips evans turner diaz parker cruz edwards collins reyes " +
  "stewart morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson bailey reed kelly howard " +
  "ramos kim cox ward richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price alvarez " +
  "castillo sanders patel myers long ross foster jimenez"
).split(" ");

/** Street names for fake addresses ("1234 oak st"). */
export const STREETS: readonly string[] = (
  "oak maple pine cedar elm main park washington lake hill walnut spring north south ridge church highland " +
  "mill sunset forest jefferson lincoln madison jackson franklin river meadow willow chestnut center school " +
  "cherry birch dogwood hickory magnolia laurel valley"
).split(" ");

export const STREET_TYPES: readonly string[] = [
  "st",
  "ave",
  "rd",
  "dr",
  "ln",
  "blvd",
  "ct",
  "way",
  "street",
  "road",
];

/** US area codes for fake phone numbers; the exchange is always 555 and the line 01xx (reserved as fictional). */
export const AREA_CODES: readonly string[] = (
  "212 213 214 215 216 301 302 303 305 310 312 313 314 404 407 410 412 415 469 502 503 504 512 513 602 " +
  "614 615 617 702 703 704 713 714 718 773 786 813 816 817 832 904 916 919 949 972"
).split(" ");

/** Mail providers of the time, written as AOL logged them (punctuation removed: "aol com"). */
export const MAIL_DOMAINS: readonly string[] = [
  "aol com",
  "hotmail com",
  "yahoo com",
  "msn com",
  "comcast net",
  "earthlink net",
  "sbcglobal net",
];

/** Words a person-name query often carries ("john smith obituary"). */
export const NAME_CONTEXT: readonly string[] = [
  "obituary",
  "address",
  "phone number",
  "myspace",
  "arrest",
  "attorney",
  "md",
  "dds",
  "realtor",
  "wedding",
  "email",
  "jr",
];

/** Large sites that get clicks from every topic. */
export const GLOBAL_SITES: readonly string[] = [
  "http://en.wikipedia.org",
  "http://www.amazon.com",
  "http://www.ebay.com",
  "http://www.google.com",
  "http://www.yahoo.com",
  "http://www.mapquest.com",
  "http://www.imdb.com",
  "http://www.myspace.com",
  "http://www.about.com",
  "http://www.answers.com",
  "http://www.geocities.com",
  "http://www.tripod.com",
];

/** Endings of made-up domain names ("soccerworld", "gardenonline"). */
export const DOMAIN_ENDINGS: readonly string[] = [
  "",
  "",
  "",
  "online",
  "world",
  "usa",
  "central",
  "hq",
  "site",
  "4u",
  "direct",
  "zone",
  "net",
  "pro",
  "guide",
  "store",
];

export const OTHER_TLDS: readonly string[] = ["us", "co.uk", "info", "ca", "biz", "tv", "de", "com.au"];

/** ODP labels that say what kind of page, not what about; queries take their parent's topic instead. */
export const GENERIC_LABELS: ReadonlySet<string> = new Set(
  (
    "directories news_and_media organizations chats_and_forums personal_pages education associations resources " +
    "history magazines_and_e-zines employment conferences publications events consulting web_rings " +
    "marketing_and_advertising weblogs education_and_training academic_departments research services " +
    "mailing_lists training marketplaces journals faqs,_help,_and_tutorials products_and_services " +
    "statistics regional reference people"
  ).split(" "),
);
