/**
 * Measure the synthetic generator's parameters and write src/synth/calibration.json.
 *
 *   node --import tsx scripts/calibrate-synth.ts [--aol ../shared/data/aol-top1000/aol_top1000_users.tsv.gz]
 *                                                [--labels ../shared/data/labels/dev.tsv] [-o src/synth/calibration.json]
 *
 * Only AGGREGATES leave this script: quantiles, shares, histograms and fitted parameters. No AOL row and no
 * query string is written anywhere. Where the 1000-user subset is biased (it keeps only clicked queries of the
 * heaviest users), population totals published in the AOL collection README are used instead, and the JSON's
 * `provenance` says which figure came from where.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import { groupEvents } from "../src/log/events.ts";
import { loadLog } from "../src/log/read.ts";
import type { Calibration } from "../src/synth/calibration.ts";
import { checkCalibration } from "../src/synth/calibration.ts";

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const root = fileURLToPath(new URL("..", import.meta.url));
const aolPath = arg("--aol", `${root}../shared/data/aol-top1000/aol_top1000_users.tsv.gz`);
const labelsPath = arg("--labels", `${root}../shared/data/labels/dev.tsv`);
const outPath = arg("-o", `${root}src/synth/calibration.json`);

/** AOL collection README, "Basic Collection Statistics" (whole 3-month log, 657,426 users). */
const README = {
  lines: 36_389_567,
  newQueries: 21_011_340,
  nextPage: 7_887_022,
  clicks: 19_442_629,
  noClick: 16_946_938,
  unique: 10_154_742,
  users: 657_426,
};
const SESSION_CUT = 1800;

if (!existsSync(aolPath)) {
  process.stderr.write(
    `calibrate-synth: ${aolPath} not found; nothing to calibrate (the committed JSON stays)\n`,
  );
  process.exit(0);
}

const log = await loadLog([aolPath], { format: "aol", keepSource: false });
const events = groupEvents(log.records);
const words = (q: string) => q.split(" ").filter((w) => w !== "");

// --- per-user activity (clicked query events: the subset has only those) ---
const perUser = new Map<string, number>();
for (const e of events) perUser.set(e.user, (perUser.get(e.user) ?? 0) + 1);
const counts = [...perUser.values()].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** Inverse standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
function probit(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (k: number[], x: number) => k.reduce((s, v) => s * x + v, 0);
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - 0.02425) return -probit(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

// Population: clicked events per user have mean m = (events − no-click events) / users. The subset's median user
// ranks ~500th of 657,426 by clicked queries, so a log-normal through both facts has
//   mu + z·sigma = ln(median_subset),   mu + sigma²/2 = ln(m),   z = probit(1 − 500.5/users).
const popEvents = README.newQueries + README.nextPage;
const noClickShare = README.noClick / popEvents;
const clickedMean = (popEvents - README.noClick) / README.users;
const z = probit(1 - (counts.length / 2 + 0.5) / README.users);
const lnMed = Math.log(quantile(counts, 0.5));
const lnMean = Math.log(clickedMean);
// sigma²/2 − z·sigma + (lnMed − lnMean) = 0, smaller root.
const sigma = z - Math.sqrt(z * z - 2 * (lnMed - lnMean));
const allMean = popEvents / README.users;
const activityLogMean = Math.log(allMean) - (sigma * sigma) / 2;

// --- sessions, gaps, transitions ---
let sessions = 0;
let inSession = 0;
const gapLogs: number[] = [];
const npGapLogs: number[] = [];
let tNext = 0;
let tRepeat = 0;
let tAdd = 0;
let tDrop = 0;
let tReplace = 0;
let tNew = 0;
let startRepeat = 0;
const hourCounts = new Array<number>(24).fill(0);
const lengthCounts = new Array<number>(10).fill(0);
let prevUser = "";
let prevTime = 0;
let prevQuery = "";
let seen = new Set<string>();
for (const e of events) {
  hourCounts[Math.floor((e.time % 86400) / 3600)]!++;
  if (e.user !== prevUser) {
    seen = new Set();
    prevUser = e.user;
    prevTime = -Infinity;
    prevQuery = "";
  }
  const gap = e.time - prevTime;
  const sameQuery = e.query === prevQuery;
  if (!sameQuery) lengthCounts[Math.min(words(e.query).length, 10) - 1]!++;
  if (gap >= SESSION_CUT) {
    sessions++;
    if (seen.has(e.query)) startRepeat++;
  } else {
    inSession++;
    if (gap > 0) (sameQuery ? npGapLogs : gapLogs).push(Math.log(gap));
    if (sameQuery) tNext++;
    else if (seen.has(e.query)) tRepeat++;
    else {
      const a = new Set(words(prevQuery));
      const b = words(e.query);
      const shared = b.filter((w) => a.has(w)).length;
      if (shared === 0) tNew++;
      else if (shared === a.size && b.length > a.size) tAdd++;
      else if (shared === b.length && b.length < a.size) tDrop++;
      else tReplace++;
    }
  }
  seen.add(e.query);
  prevTime = e.time;
  prevQuery = e.query;
}
const meanSd = (xs: number[]) => {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  const v = xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  return { logMean: m, logSd: Math.sqrt(v) };
};
const meanEvents = (sessions + inSession) / sessions;
// Next page: population share of all events (README), converted to a share of the non-first events of a session.
const nextPageShareAll = README.nextPage / popEvents;
const nonFirst = 1 - 1 / meanEvents;
const pNext = Math.min(0.8, nextPageShareAll / nonFirst);
// The subset's other within-session transitions, re-scaled to the probability left after next page.
const otherTransitions = inSession - tNext;
const scale = (1 - pNext) / otherTransitions;
const refs = tAdd + tDrop + tReplace;

// --- queries: popularity, length ---
const freq = new Map<string, number>();
for (const e of events) freq.set(e.query, (freq.get(e.query) ?? 0) + 1);
const byFreq = [...freq.values()].sort((a, b) => b - a);
/** Least-squares slope of ln(frequency) on ln(rank) over the head (ranks 1..1000). */
function zipfSlope(f: number[]): number {
  const n = Math.min(1000, f.length);
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let r = 1; r <= n; r++) {
    const x = Math.log(r);
    const y = Math.log(f[r - 1]!);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return -(n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// --- clicks ---
const clickHist = new Array<number>(10).fill(0);
for (const e of events) if (e.clicks > 0) clickHist[Math.min(e.clicks, 10) - 1]!++;
const tlds = new Map<string, number>();
let clicks = 0;
let wordInDomain = 0;
for (const r of log.records) {
  if (r.clickUrl === undefined) continue;
  clicks++;
  const host = r.clickUrl.replace(/^[a-z]+:\/\//, "").replace(/\/.*$/, "");
  const tld = host.slice(host.lastIndexOf(".") + 1);
  const key = ["com", "org", "net", "edu", "gov"].includes(tld) ? tld : "other";
  tlds.set(key, (tlds.get(key) ?? 0) + 1);
  const bare = host.replace(/^www\./, "");
  if (words(r.query).some((w) => w.length >= 3 && bare.includes(w))) wordInDomain++;
}

// --- topics: top-level mix from the bundled taxonomy priors ---
const tax = Taxonomy.bundled();
const mix = new Map<string, number>();
let priorTotal = 0;
for (const id of tax.ids()) {
  if (tax.depth(id) === 0) continue;
  const top = tax.label(tax.ancestorAt(id, 1));
  mix.set(top, (mix.get(top) ?? 0) + tax.prior(id));
  priorTotal += tax.prior(id);
}

// --- identifiers: share of hand-labelled distinct queries with any PII (aggregate only) ---
let piiShare = 0.02;
let piiSource = "default 0.02 (labels file absent)";
if (existsSync(labelsPath)) {
  const rows = readFileSync(labelsPath, "utf8")
    .split("\n")
    .slice(1)
    .filter((l) => l.trim() !== "");
  const withPii = rows.filter((l) => (l.split("\t")[3] ?? "none") !== "none").length;
  piiShare = withPii / rows.length;
  piiSource = `share of ${rows.length} hand-labelled distinct AOL queries whose pii column is not 'none' (labels/dev.tsv)`;
}

const norm = (xs: number[]) => {
  const s = xs.reduce((a, b) => a + b, 0);
  return xs.map((x) => x / s);
};
const round = (x: number) => Number(x.toPrecision(5));
const roundAll = (xs: number[]) => xs.map(round);
const sub = `AOL 1000-user subset (${log.records.length} rows, ${events.length} clicked query events)`;

const cal: Calibration = {
  version: 1,
  provenance: {
    script: "scripts/calibrate-synth.ts; aggregates only, no rows or query strings",
    activity: `log-normal through the AOL README mean of ${round(allMean)} events/user and the subset median (${quantile(counts, 0.5)} clicked events) read as the population's rank-500 user`,
    session: `${sub}, 30-minute cut`,
    transitions: `next page: README share ${round(nextPageShareAll)} of all events over the non-first events of a session; the rest: ${sub}`,
    clicks: `no-click share from the AOL README; clicks per clicked event, TLDs, domain/query overlap: ${sub}; ItemRank: default (the subset has none), a typical web-search click-by-rank curve, about 45% at rank 1`,
    queries: `length, Zipf slope (ranks 1..1000), distinct ratio: ${sub}; vocabulary: README unique queries`,
    time: `hour of day: ${sub}`,
    topics: "top-level mix: bundled ODP skeleton priors; offProfile: default",
    pii: `share: ${piiSource}; kinds and own-identifier share: defaults`,
  },
  activity: {
    logMean: round(activityLogMean),
    logSd: round(sigma),
    max: 20_000,
    subsetQuantiles: Object.fromEntries(
      [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99].map((q) => [`p${Math.round(q * 100)}`, quantile(counts, q)]),
    ),
  },
  session: {
    cutSeconds: SESSION_CUT,
    meanEvents: round(meanEvents),
    interQuery: (({ logMean, logSd }) => ({ logMean: round(logMean), logSd: round(logSd) }))(meanSd(gapLogs)),
    nextPageGap: (({ logMean, logSd }) => ({ logMean: round(logMean), logSd: round(logSd) }))(
      meanSd(npGapLogs),
    ),
  },
  transitions: {
    nextPage: round(pNext),
    reformulate: round(refs * scale),
    repeatWithin: round(tRepeat * scale),
    repeatAtStart: round(startRepeat / sessions),
    sameTopic: 0.5,
    reformulation: { add: round(tAdd / refs), drop: round(tDrop / refs), replace: round(tReplace / refs) },
  },
  clicks: {
    noClick: round(noClickShare),
    perClickedEvent: roundAll(norm(clickHist)),
    rank: roundAll(norm([0.42, 0.12, 0.085, 0.065, 0.055, 0.047, 0.04, 0.036, 0.034, 0.036])),
    queryWordInDomain: round(wordInDomain / clicks),
    tld: Object.fromEntries([...tlds].sort().map(([k, v]) => [k, round(v / clicks)])),
  },
  queries: {
    lengthWords: roundAll(norm(lengthCounts)),
    zipfExponent: round(zipfSlope(byFreq)),
    vocabulary: README.unique,
    distinctRatio: round(freq.size / events.length),
  },
  time: { hourOfDay: roundAll(norm(hourCounts)) },
  topics: {
    topLevelMix: Object.fromEntries([...mix].sort().map(([k, v]) => [k, round(v / priorTotal)])),
    offProfile: 0.15,
  },
  pii: {
    share: round(piiShare),
    kinds: { person_name: 0.55, street_address: 0.15, phone: 0.12, email: 0.1, id_number: 0.08 },
    own: 0.6,
  },
};
checkCalibration(cal, "computed calibration");
writeFileSync(outPath, `${JSON.stringify(cal, null, 2)}\n`);
process.stderr.write(
  `calibrate-synth: wrote ${outPath} from ${events.length} events of ${perUser.size} users ` +
    `(${tNew} in-session topic changes); run \`npx biome format --write ${outPath}\` to keep lint clean\n`,
);
