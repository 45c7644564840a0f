/**
 * Everything the generator derives once per run from the options and the calibration: the topic model, the
 * click-URL model, the small distributions, the period. Built once, then shared read-only by every user.
 */
import { Taxonomy } from "../knowledge/taxonomy.ts";
import { MAX_TIME, parseAolTime } from "../log/time.ts";
import { UsageError } from "../util/errors.ts";
import type { Rng } from "../util/random.ts";
import { type Calibration, defaultCalibration, PII_KINDS, type PiiKind } from "./calibration.ts";
import { PII_CATEGORY } from "./pii.ts";
import { Discrete } from "./sampling.ts";
import { Topics } from "./topics.ts";
import { ClickUrls } from "./urls.ts";

export interface ModelOptions {
  /** First day of the period, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (default 2006-03-01, as AOL). */
  start?: string;
  /** Length of the period in whole days (default 92: AOL's March–May 2006). */
  days?: number;
  /** Share of query events carrying a fake identifier (default: the calibration's). */
  piiShare?: number;
  calibration?: Calibration;
  /** "excite": no click rows, next-page requests logged as an empty query. Default "aol". */
  style?: "aol" | "excite";
  withTruth?: boolean;
}

let bundledTaxonomy: Taxonomy | undefined;

export class Model {
  readonly cal: Calibration;
  readonly start: number;
  readonly end: number;
  readonly days: number;
  readonly piiShare: number;
  readonly excite: boolean;
  readonly truth: boolean;
  readonly taxonomy: Taxonomy;
  readonly topics: Topics;
  readonly urls: ClickUrls;
  readonly hours: Discrete;
  readonly clicks: Discrete;
  readonly ranks: Discrete;
  readonly piiKinds: Discrete;
  /** Category id (or -1) and path of each identifier kind, in {@link PII_KINDS} order. */
  readonly piiCategory: { id: number; path: string }[];
  /** Cumulative shares of the reformulation operations add, drop (replace is the rest). */
  readonly reformAdd: number;
  readonly reformDrop: number;

  constructor(opts: ModelOptions, rng: Rng) {
    this.cal = opts.calibration ?? defaultCalibration();
    const startText = opts.start ?? "2006-03-01";
    this.start = parseAolTime(startText.length === 10 ? `${startText} 00:00:00` : startText);
    if (Number.isNaN(this.start)) {
      throw new UsageError(`start ${JSON.stringify(startText)}: expected YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`);
    }
    this.days = opts.days ?? 92;
    if (!Number.isInteger(this.days) || this.days < 1)
      throw new UsageError("days must be a whole number ≥ 1");
    this.end = this.start + this.days * 86400;
    // A session may run past the last day; a day of margin keeps every time one a log can hold.
    if (this.end + 86400 > MAX_TIME + 1)
      throw new UsageError(
        `days ${this.days} from ${startText} end after 9999-12-31, the last day a log can hold`,
      );
    this.piiShare = opts.piiShare ?? this.cal.pii.share;
    if (!(this.piiShare >= 0 && this.piiShare <= 1)) throw new UsageError("pii share must be in [0, 1]");
    this.excite = opts.style === "excite";
    this.truth = opts.withTruth ?? false;
    bundledTaxonomy ??= Taxonomy.bundled();
    this.taxonomy = bundledTaxonomy;
    // Salts for the pure text and URL functions, drawn from the run's Rng so the seed fixes them.
    this.topics = new Topics(this.taxonomy, this.cal, rng.int(0x7fffffff));
    this.urls = new ClickUrls(this.topics, this.cal, rng.int(0x7fffffff));
    this.hours = new Discrete(this.cal.time.hourOfDay);
    this.clicks = new Discrete(this.cal.clicks.perClickedEvent);
    this.ranks = new Discrete(this.cal.clicks.rank);
    this.piiKinds = new Discrete(PII_KINDS.map((k) => this.cal.pii.kinds[k]));
    this.piiCategory = PII_KINDS.map((k: PiiKind) => ({
      id: this.taxonomy.id(PII_CATEGORY[k]) ?? -1,
      path: PII_CATEGORY[k],
    }));
    const r = this.cal.transitions.reformulation;
    const sum = r.add + r.drop + r.replace || 1;
    this.reformAdd = r.add / sum;
    this.reformDrop = (r.add + r.drop) / sum;
  }

  /** The mean number of rows a user produces, for sizing runs (`--rows` without `--users`). */
  meanRowsPerUser(): number {
    const a = this.cal.activity;
    const events = Math.min(a.max, Math.exp(a.logMean + (a.logSd * a.logSd) / 2));
    if (this.excite) return events;
    let clicksWhenClicked = 0;
    this.cal.clicks.perClickedEvent.forEach((p, i) => {
      clicksWhenClicked += p * (i + 1);
    });
    const s = this.cal.clicks.perClickedEvent.reduce((x, y) => x + y, 0) || 1;
    const noClick = this.cal.clicks.noClick;
    return events * (noClick + (1 - noClick) * (clicksWhenClicked / s));
  }
}
