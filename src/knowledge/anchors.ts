/**
 * Hand-written anchors from general WordNet concepts to ODP categories.
 *
 * ODP labels alone reach few words ("soccer" → Sports/Soccer). WordNet's hypernym chains reach most nouns, but
 * only if the general concepts on those chains ("disease", "vehicle", "garment", "city") are tied to the ODP
 * branch where the Open Directory lists such sites. These anchors are that tie, written from the ODP editors'
 * conventions (what each top level holds), never from evaluation queries. The build walks each synset's
 * hypernym chain upwards and stops at the first anchor or ODP label it meets, so an anchor on a general concept
 * is overridden by a more specific one below it.
 *
 * Keys are WordNet lemmas (lower case, spaces) of the concept; values are ODP paths without `Top/`.
 */
const GROUPS: Record<string, string> = {
  // Arts: entertainment, music, film, literature, visual and performing arts.
  "Arts/Music":
    "music|musician|singer|band|musical group|song|album|musical instrument|musical composition|lyric|rapper|rock star|orchestra|concert|jazz|hip-hop|rap|opera|composer|lyrics|melody",
  "Arts/Movies": "movie|film|film maker|film director|cinema|movie theater|movie star",
  "Arts/Television": "television|television program|television show|broadcast|soap opera|sitcom|cartoon",
  "Arts/Celebrities": "celebrity|entertainer|actor|actress|performer|comedian|model|supermodel",
  "Arts/Literature":
    "literature|novel|poem|poetry|writer|poet|novelist|book|fiction|story|writing|literary composition",
  "Arts/Visual_Arts": "art|painting|painter|sculpture|artist|drawing|photograph|visual art",
  "Arts/Performing_Arts": "dance|dancing|theater|theatre|ballet|drama|play|circus|magic trick",
  "Arts/Animation": "animation|anime|animated cartoon",
  "Arts/Comics": "comic strip|comic book|comics|cartoonist",
  "Arts/Architecture": "architecture|architect",
  // Business: companies, industries, jobs, real estate, finance.
  Business: "company|business|industry|corporation|firm|enterprise|manufacturer|commerce|trade|businessman",
  "Business/Employment":
    "job|employment|occupation|career|employee|salary|wage|resume|recruitment|worker|application form",
  "Business/Real_Estate": "real estate|realty|property|realtor|land|lot|building lot|house for sale",
  "Business/Financial_Services":
    "bank|banking|finance|investment|stock|security|insurance|insurance company|loan|credit|credit card|tax|accountant|stock market|broker",
  "Business/Automotive": "car dealer|dealership|automobile industry",
  "Business/Construction_and_Maintenance": "construction|contractor|builder|plumbing|roofing",
  "Business/Agriculture_and_Forestry": "agriculture|farming|farm|livestock|forestry|crop",
  "Business/Transportation_and_Logistics": "shipping|trucking|freight|transportation|truck",
  "Business/Energy": "energy|oil|petroleum|fuel|electricity|utility|gas",
  "Business/Telecommunications": "telephone|telecommunication|cellular telephone|phone|wireless",
  "Business/Hospitality": "restaurant|catering|hotel industry",
  // Manufactured things people search for are mostly things to buy (labelling convention: Shopping).
  "Business/Industrial_Goods_and_Services": "machinery|industrial equipment",
  "Business/Chemicals": "chemical|plastic",
  // Computers: software, hardware, internet.
  Computers: "computer|computing|computer science",
  "Computers/Software": "software|program|computer program|application|operating system|driver|download",
  "Computers/Hardware": "hardware|computer hardware|printer|monitor|keyboard|computer memory|processor",
  "Computers/Internet":
    "internet|web site|website|web page|email|e-mail|search engine|web|chat room|online|browser|domain|blog|server|network",
  "Computers/Programming": "programming|programming language|code",
  "Computers/Security": "computer virus|virus|spyware|hacker|password",
  // Games: video games, board and card games, gambling, puzzles.
  Games: "game",
  "Games/Video_Games": "video game|computer game|console|playstation|xbox|nintendo",
  "Games/Gambling": "gambling|casino|lottery|poker|bet|wager|slot machine|bingo|sweepstakes",
  "Games/Card_Games": "card game|solitaire",
  "Games/Board_Games": "board game|chess|checkers",
  "Games/Puzzles": "puzzle|crossword puzzle|crossword|sudoku|riddle",
  // Health.
  Health:
    "health|medicine|medical care|medical science|physician|doctor|nurse|hospital|clinic|therapy|treatment|surgery|symptom",
  "Health/Conditions_and_Diseases":
    "disease|illness|disorder|condition|infection|cancer|syndrome|injury|pain|ill health|pathology|tumor|allergy",
  "Health/Pharmacy": "drug|medication|pill|pharmacy|medicine|vitamin|dose",
  "Health/Fitness": "fitness|exercise|weight loss|diet|dieting|physical exercise",
  "Health/Nutrition": "nutrition|nutrient|calorie",
  "Health/Mental_Health": "mental illness|psychiatry|psychotherapy|depression|anxiety|mental disorder",
  "Health/Reproductive_Health": "pregnancy|birth control|contraceptive|abortion|fertility|pregnant",
  "Health/Beauty":
    "cosmetic|makeup|cosmetics|hairdressing|hairstyle|haircut|tattoo|skin care|plastic surgery",
  "Health/Anatomy": "body part|organ|body|anatomy|bone|muscle|tooth|teeth",
  "Health/Dentistry": "dentist|dentistry|orthodontist",
  // Home: cooking, gardening, home improvement, family, personal finance.
  "Home/Cooking":
    "food|dish|recipe|cooking|cookery|baking|meal|dessert|ingredient|sauce|soup|cake|bread|cuisine|nutriment|foodstuff",
  "Home/Gardening": "gardening|garden|plant|flower|shrub|tree|lawn|seed|vegetable garden|herb",
  "Home/Home_Improvement":
    "home improvement|furniture|flooring|floor|kitchen|bathroom|roof|carpet|paint|wallpaper|window|door|room|decoration|fireplace",
  "Home/Family": "family|parent|child|baby|parenting|mother|father|wedding|marriage|kid|infant|toddler",
  "Home/Personal_Finance":
    "mortgage|budget|personal finance|debt|savings|retirement plan|calculator|personal loan|interest rate|credit rating|refinancing",
  "Home/Homemaking": "cleaning|housework|laundry|housekeeping",
  "Home/Consumer_Information": "consumer|warranty|product recall",
  // Kids_and_Teens.
  Kids_and_Teens: "coloring book|nursery rhyme|fairy tale",
  // News.
  News: "news|newspaper|journalism|journalist|magazine|headline|reporter|press",
  "News/Weather": "weather|forecast|weather forecast|storm|hurricane|tornado|rain|snow|temperature",
  // Recreation.
  Recreation: "recreation|hobby|leisure|entertainment|fun|humor|joke|party",
  "Recreation/Travel":
    "travel|trip|vacation|tourism|hotel|motel|resort|cruise|flight|airport|journey|tourist|inn|lodging|beach|airfare|airline",
  "Recreation/Autos":
    "car|automobile|motor vehicle|auto|truck|sport utility|convertible|sedan|engine|auto part|pickup|van|limousine",
  "Recreation/Motorcycles": "motorcycle|bike|motorbike|scooter",
  "Recreation/Pets": "pet|dog|cat|puppy|kitten|animal|bird|fish|horse|breed|reptile|aquarium",
  "Recreation/Outdoors": "camping|hiking|fishing|hunting|outdoors|boat|boating|canoe|camp|park|national park",
  "Recreation/Food": "alcoholic beverage|wine|beer|drink|beverage|liquor|cocktail|brewery|winery",
  "Recreation/Collecting": "collecting|collectible|coin|stamp|antique|doll",
  "Recreation/Humor": "humor|joke|comedy|funny",
  "Recreation/Holidays": "holiday|christmas|halloween|easter|thanksgiving|valentine|birthday",
  "Recreation/Theme_Parks": "amusement park|theme park|roller coaster",
  "Recreation/Aviation": "aircraft|airplane|aviation|pilot|helicopter",
  "Recreation/Boating": "yacht|sailboat|ship",
  "Recreation/Trains_and_Railroads": "train|railroad|railway|locomotive",
  // Reference: dictionaries, encyclopedias, maps, education, libraries, museums.
  Reference: "reference|reference book|information",
  "Reference/Education":
    "school|university|college|education|student|teacher|academy|high school|elementary school|course|degree|class|scholarship|campus|homework",
  "Reference/Dictionaries": "dictionary|definition|word|meaning|glossary|translation|language|thesaurus",
  "Reference/Encyclopedias": "encyclopedia",
  "Reference/Maps": "map|atlas|road map|driving directions|directions|zip code",
  "Reference/Libraries": "library|librarian",
  "Reference/Museums": "museum|gallery|exhibition",
  "Reference/Quotations": "quotation|quote|saying|proverb",
  "Reference/Biography": "biography",
  // Regional: places.
  Regional:
    "location|region|city|town|state|country|county|village|capital|municipality|district|area|neighborhood|province|island|geographical area|american state|city limit|seaport|port|river|lake|mountain|beach resort|street",
  // Science.
  Science:
    "science|scientist|natural science|research|experiment|laboratory|technology|engineering|invention",
  "Science/Biology": "biology|organism|cell|gene|genetics|species|microorganism|bacteria|insect",
  "Science/Math": "mathematics|math|number|equation|geometry|algebra|statistics|calculus",
  "Science/Physics": "physics|physicist|energy|particle|force",
  "Science/Chemistry": "chemistry|chemical element|element|compound|molecule|chemist",
  "Science/Astronomy": "astronomy|star|planet|galaxy|space|solar system|telescope|comet|satellite",
  "Science/Earth_Sciences": "geology|earthquake|volcano|mineral|rock|fossil|ocean|climate|geography",
  "Science/Environment": "environment|pollution|recycling|conservation|global warming|ecology",
  "Science/Social_Sciences": "psychology|sociology|economics|anthropology|linguistics|archaeology|philosophy",
  // Shopping: products, retailers, online stores.
  Shopping:
    "shop|store|shopping|retailer|mall|outlet|sale|coupon|catalog|discount|price|merchandise|product|commodity|consumer goods|brand|device|equipment|tool|machine|implement|container|instrumentality|covering|furnishing",
  "Shopping/Clothing":
    "clothing|garment|apparel|shoe|footwear|dress|shirt|jeans|boot|hat|handbag|bag|swimsuit|lingerie|uniform|jacket|coat|wear|sneaker|costume jewelry|fashion|accessory|costume",
  "Shopping/Jewelry": "jewelry|jewellery|ring|necklace|bracelet|earring|gem|gemstone|diamond|watch",
  "Shopping/Home_and_Garden": "appliance|home appliance|mattress|bedding|lamp|rug|curtain|cookware|grill",
  "Shopping/Consumer_Electronics":
    "electronic equipment|television receiver|camera|cell phone|mp3 player|ipod|stereo|radio|speaker|gps|dvd player",
  "Shopping/Crafts": "craft|sewing|knitting|quilt|quilting|yarn|bead|scrapbook|scrapbooking",
  "Shopping/Flowers": "bouquet|florist|flower arrangement",
  "Shopping/Toys_and_Games": "toy",
  "Shopping/Gifts": "gift|gift basket",
  "Shopping/Sports": "sporting goods|sports equipment",
  "Shopping/Vehicles": "used car",
  "Shopping/Classifieds": "classified ad|classified",
  "Shopping/Auctions": "auction",
  "Shopping/Tobacco": "cigarette|cigar|tobacco",
  "Shopping/Publications": "magazine subscription",
  "Shopping/Tools": "power tool|hand tool",
  "Shopping/Office_Products": "office supplies|stationery|ink cartridge",
  // Society: religion, law, government, people, issues, relationships, history, military.
  Society: "society|association|community",
  "Society/Religion_and_Spirituality":
    "religion|church|god|deity|bible|prayer|faith|christianity|islam|judaism|buddhism|saint|clergyman|spirituality|worship|mosque|temple|angel",
  "Society/Law":
    "law|legal|lawyer|attorney|court|judge|crime|criminal|police|prison|jail|lawsuit|divorce|legislation|statute|warrant|arrest",
  "Society/Government":
    "government|politics|politician|president|senator|election|policy|governor|mayor|congress|department|agency|tax return",
  "Society/People": "person|people|man|woman|genealogy|ancestry|surname|family tree|name",
  "Society/Genealogy/Heraldry": "heraldry|coat of arms|family crest",
  "Society/Relationships":
    "dating|relationship|love|romance|friendship|boyfriend|girlfriend|single|marriage proposal",
  "Society/History": "history|war|battle|historian|ancient|civilization|empire|revolution",
  "Society/Military": "military|army|navy|soldier|air force|marine|veteran|weapon|gun|firearm|rifle",
  "Society/Issues": "issue|discrimination|racism|abuse|poverty|immigration|rights|human rights|gun control",
  "Society/Ethnicity": "ethnic group|ethnicity|race|tribe|native american|indian|people of color",
  "Society/Paranormal": "ghost|paranormal|astrology|horoscope|zodiac|psychic|tarot|dream|ufo|supernatural",
  "Society/Death": "death|funeral|obituary|cemetery|grave|burial|memorial",
  "Society/Organizations": "charity|nonprofit|foundation|volunteer",
  // Sports.
  Sports:
    "sport|athlete|team|player|league|stadium|athletics|coach|tournament|championship|ball|racing|race|olympics|football|baseball|basketball|hockey|soccer|golf|tennis|boxing|wrestling|swimming|bicycle|cycling|skiing|skating|surfing",
  "Sports/Football": "american football|football player|quarterback|touchdown",
  "Sports/Baseball": "baseball player|pitcher|home run",
  "Sports/Basketball": "basketball player",
  "Sports/Soccer": "soccer player|association football",
  "Sports/Golf": "golfer|golf course|golf club",
  "Sports/Motorsports": "auto racing|car racing|racing driver|nascar|drag racing",
  "Sports/Martial_Arts": "martial art|karate|judo|kung fu|taekwondo",
  // Adult: sexually explicit material.
  Adult:
    "sex|sexual activity|pornography|porn|porno|erotica|nudity|nude|genitalia|genitals|penis|vagina|breast|sexual intercourse|prostitute|stripper|fetish|orgasm|masturbation|lesbian|gay|homosexual|erotic|xxx|naked|sexy|hooker|slut|whore|fuck|pussy|tits|boob|boobs|teen sex|shemale|milf|hentai|voyeur|incest|blowjob|cum",
};

/** Anchor lemma → ODP path (without `Top/`). Later groups do not override earlier ones. */
export function anchors(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, words] of Object.entries(GROUPS)) {
    for (const w of words.split("|")) if (!out.has(w)) out.set(w, path);
  }
  return out;
}
