/**
 * Context words around a candidate name. Whether "john baker" is a private person depends on the rest of the
 * query: genealogy, obituary or phone-book words point to a private person; lyrics, pictures or movie words
 * point to a public figure; a following "high school", "hospital" or "ford" (a dealer) says the name is part of
 * an institution or business. Word lists written for querymask.
 */

/** Words that make a private person more likely. */
// biome-ignore format: a word list reads better packed
export const PRIVATE_CUES: ReadonlySet<string> = new Set([
  "genealogy", "obituary", "obituaries", "obit", "obits", "ancestry", "ancestors", "descendants", "family",
  "born", "died", "death", "grave", "cemetery", "funeral", "phone", "number", "address", "addresses", "lookup",
  "reverse", "arrest", "arrested", "jail", "inmate", "court", "divorce", "marriage", "married", "wedding",
  "classmates", "reunion", "alumni", "staff", "teacher", "minister", "pastor", "reverend", "rev", "dr", "dds",
  "md", "attorney", "lawyer", "realtor", "doctor", "coach", "email", "missing", "murder", "murdered", "offender",
  "mr", "mrs", "ms", "whereabouts", "locate", "whitepages", "411", "directory", "deceased", "estate", "dentist",
  "professor", "principal", "sheriff", "deputy", "officer", "pta", "resume",
]);

/**
 * Private cues that make a name an identifier even when a public figure bears it: a search for someone's obituary,
 * family tree, arrest record, phone number or address (the labelling guide's personal contexts). With one of them
 * the famous lists do not protect the name.
 */
// biome-ignore format: a word list reads better packed
export const PERSONAL_CONTEXT: ReadonlySet<string> = new Set([
  "obituary", "obituaries", "obit", "obits", "genealogy", "ancestry", "funeral", "arrest", "arrested", "inmate",
  "mugshot", "phone", "address", "addresses", "whitepages", "myspace", "classmates", "reunion",
]);

/** Words that make a public figure (or a work about one) more likely. */
// biome-ignore format: a word list reads better packed
export const PUBLIC_CUES: ReadonlySet<string> = new Set([
  "lyrics", "lyric", "song", "songs", "album", "albums", "cd", "cds", "music", "band", "movie", "movies", "film",
  "films", "tv", "dvd", "video", "videos", "pictures", "pics", "pic", "photos", "photo", "images", "image",
  "wallpaper", "wallpapers", "poster", "posters", "nude", "naked", "sexy", "hot", "bikini", "biography", "bio",
  "quotes", "quote", "poems", "poem", "books", "book", "novel", "novels", "author", "tour", "concert", "tickets",
  "fan", "fans", "official", "actor", "actress", "singer", "rapper", "celebrity", "president", "senator",
  "governor", "congressman", "speech", "wiki", "wikipedia", "fanfic", "fanfiction", "episode", "episodes",
  "cast", "character", "interview", "autograph", "autographs", "playboy", "painting", "paintings", "artist",
  "poet", "band's", "guitar", "tabs", "chords", "mp3", "mp3s", "trailer", "stats", "rookie", "card", "cards",
  "jersey", "nfl", "nba", "mlb", "nhl", "nascar", "wwe", "golf", "football", "basketball", "baseball", "quarterback",
  "fansite", "fansites", "interviews", "mma", "ufc", "boxing", "photographs", "lithograph", "litho", "prints",
  "congressional", "congresswoman", "candidate", "campaign", "election", "senate", "congress", "backgrounds",
  "layouts", "porn", "xxx", "pornstar", "swinger", "model", "modeling", "discography", "filmography", "records",
  "canciones", "musica", "imdb", "gossip", "scandal", "sings", "singing", "dance", "dancing", "comedian",
  "famous", "celebrities", "idol", "anchor", "reporter", "msnbc", "cnn", "espn", "impeach", "artwork",
  "portraits", "portrait", "sculpture", "musician", "composer", "novelist", "director", "producer",
  // awards, what a figure appears in, and how they look or score
  "oscars", "emmys", "grammys", "karaoke", "cartoon", "cartoons", "stills", "soundtrack", "soundtracks", "sitcom",
  "statistics", "athlete", "athletes", "hairstyle", "hairstyles", "hairdos",
]);

/**
 * The public cues a query about a private person uses too ("photos of …", "… video", "… basketball coach"): they
 * count for less than the others ("lyrics", "nude", "senator", "discography").
 */
// biome-ignore format: a word list reads better packed
export const WEAK_PUBLIC_CUES: ReadonlySet<string> = new Set([
  "song", "songs", "music", "band", "movie", "movies", "film", "films", "tv", "dvd", "video", "videos", "pictures",
  "pics", "pic", "photos", "photo", "images", "image", "poster", "posters", "books", "book", "author", "tour",
  "official", "card", "cards", "jersey", "golf", "football", "basketball", "baseball", "boxing", "mma", "stats",
  "rookie", "guitar", "records", "dance", "dancing", "model", "modeling", "artist", "painting", "paintings",
  "artwork", "portraits", "portrait", "sculpture", "photographs", "prints", "director", "producer", "anchor",
  "reporter", "interview", "interviews", "quotes", "quote", "poems", "poem", "speech", "candidate", "campaign",
  "election", "hot", "sexy",
]);

/** Words after a name that make it the name of an institution, a place or a business. */
// biome-ignore format: a word list reads better packed
export const INSTITUTION_AFTER: ReadonlySet<string> = new Set([
  "school", "elementary", "middle", "high", "academy", "university", "college", "hospital", "center", "centre",
  "park", "library", "foundation", "stadium", "arena", "airport", "bridge", "hall", "museum", "institute",
  "county", "city", "township", "street", "st", "ave", "avenue", "road", "rd", "blvd", "boulevard", "drive",
  "lake", "river", "creek", "mountain", "company", "co", "inc", "corp", "corporation", "llc", "realty", "homes",
  "motors", "ford", "chevrolet", "chevy", "toyota", "honda", "dodge", "nissan", "buick", "pontiac", "law",
  "firm", "insurance", "agency", "photography", "designs", "design", "studio", "studios", "salon", "restaurant",
  "bakery", "orchestra", "show", "fund", "trust", "associates", "group", "enterprises", "construction",
  "plumbing", "chapel", "church", "ministries", "memorial", "award", "awards", "prize", "scholarship", "square",
  "plaza", "mall", "building", "tower", "theater", "theatre", "auditorium", "field", "gym",
  "trail", "beach", "island", "valley", "heights", "village", "hills", "falls", "springs", "harbor",
  "landing", "station", "shoes", "clothing", "jewelry", "jewelers", "furniture", "auto", "cars", "toys",
  "products", "cosmetics", "hotel", "hotels", "inn", "resort", "casino", "winery", "brewery", "cafe", "grill",
  "steakhouse", "pizza", "bbq", "clinic", "dental", "pharmacy", "foods", "farm", "farms", "ranch", "gallery",
  "medical", "univ", "health", "regional", "general", "community", "state", "rescue", "rescues", "yacht",
  "brokerage", "mls", "ad", "ads", "coupon", "coupons", "sale", "sales", "store", "stores", "outlet", "catalog",
  "online", "shop", "shops", "com", "net", "org", "cosmetics", "collection", "boutique", "wines", "realtors",
  "wellness", "women's", "children's", "market", "markets", "jeans", "galleries", "supply", "supplies", "communications", "mortgage", "company's",
  "builders", "homebuilders", "industries", "international", "partners", "services", "solutions", "systems", "technologies", "properties",
  // what a business named after its owner sells ("… interiors", "… auctions", "… garage doors", "… porsche")
  "technology", "staffing", "recruiting", "fabric", "fabrics", "doors", "windows", "interiors", "auction",
  "auctions", "marine", "loans", "tours", "travel", "coins", "bridal", "gowns", "handbags", "purses", "perfume",
  "fragrances", "watches", "cookware", "rugs", "lighting", "flooring", "cabinets", "kitchens", "pools", "spas",
  "pianos", "boats", "trucks", "trailers", "motorcycles", "porsche", "hyundai", "kia", "mazda", "subaru",
  "volkswagen", "vw", "bmw", "audi", "lexus", "acura", "infiniti", "cadillac", "chrysler", "jeep", "gmc", "volvo",
  "saab", "mitsubishi", "isuzu", "suzuki", "jaguar", "hummer", "kawasaki", "yamaha", "harley",
  // newspapers and media named after a place or a person
  "journal", "times", "news", "post", "herald", "tribune", "gazette", "observer", "guardian", "daily", "register",
  "courier", "press", "sentinel", "chronicle", "dispatch", "examiner", "inquirer", "telegraph", "record", "star",
  "radio", "magazine",
]);

/** Words before a name that make it part of a place or institution name ("st john", "fort wayne"). */
// biome-ignore format: a word list reads better packed
export const INSTITUTION_BEFORE: ReadonlySet<string> = new Set([
  "st", "saint", "fort", "ft", "mount", "mt", "lake", "port", "camp", "cape", "san", "santa", "los", "las", "el",
  "la", "de", "del", "uss", "hms", "the", "lady", "sir", "king", "queen", "prince", "princess", "pope", "hurricane",
  "tropical", "storm",
]);
