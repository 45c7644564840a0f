/**
 * A log's query events and clicks as the log context reads them (./log-context.ts): gathered on a first pass over
 * the log (classify-log.ts `firstPassRows`, self-training.ts `readPool`).
 */
import { hostOf } from "../log/host.ts";
import { grown } from "../util/arrays.ts";

/** Grow a Float64Array column. */
function grownFloat(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/**
 * A log's query events and clicks, gathered on a first pass: each event's user, query text (by id: the distinct
 * texts in order of first sight, {@link texts}) and time; each click row's query and site.
 */
export class QueryEvents {
  private readonly users = new Map<string, number>();
  private readonly ids = new Map<string, number>();
  private readonly hosts = new Map<string, number>();
  /** The distinct query texts, by id. */
  readonly texts: string[] = [];
  user = new Int32Array(1024);
  query = new Int32Array(1024);
  time = new Float64Array(1024);
  /** Events. */
  n = 0;
  clickQuery = new Int32Array(1024);
  clickHost = new Int32Array(1024);
  /** Click rows. */
  clicks = 0;

  /** The id of a query text. */
  private idOf(query: string): number {
    let q = this.ids.get(query);
    if (q === undefined) {
      q = this.texts.length;
      this.ids.set(query, q);
      this.texts.push(query);
    }
    return q;
  }

  /** Add one query event (its first row: a click row of the same event is not another event). */
  add(user: string, query: string, time: number): void {
    let u = this.users.get(user);
    if (u === undefined) {
      u = this.users.size;
      this.users.set(user, u);
    }
    if (this.n === this.user.length) {
      const size = 2 * this.n;
      this.user = grown(this.user, size);
      this.query = grown(this.query, size);
      this.time = grownFloat(this.time, size);
    }
    this.user[this.n] = u;
    this.query[this.n] = this.idOf(query);
    this.time[this.n] = time;
    this.n++;
  }

  /** Add a click row of `query` on `url`; returns the site (`hostOf`; "" when the URL names none: not added). */
  click(query: string, url: string): string {
    const host = hostOf(url);
    if (host === "") return host;
    let h = this.hosts.get(host);
    if (h === undefined) {
      h = this.hosts.size;
      this.hosts.set(host, h);
    }
    if (this.clicks === this.clickQuery.length) {
      this.clickQuery = grown(this.clickQuery, 2 * this.clicks);
      this.clickHost = grown(this.clickHost, 2 * this.clicks);
    }
    this.clickQuery[this.clicks] = this.idOf(query);
    this.clickHost[this.clicks] = h;
    this.clicks++;
    return host;
  }

  /** The id of a query text, if the log has it. */
  id(query: string): number | undefined {
    return this.ids.get(query);
  }

  /** Distinct sites clicked. */
  get sites(): number {
    return this.hosts.size;
  }
}
