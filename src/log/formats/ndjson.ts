/**
 * Newline-delimited JSON, one record per line:
 * `{"user":"17","query":"soccer","time":"2006-03-01 07:33:28","itemRank":1,"clickUrl":"http://fifa.com"}`.
 * `time` may also be a number (seconds since 1970, UTC). `category` and `unit` are carried when present.
 */
import type { LogRecord } from "../record.ts";
import { formatAolTime, MAX_TIME, MIN_TIME, parseAolTime } from "../time.ts";
import { type LineCodec, UnwritableRecord } from "./codec.ts";

export const ndjsonCodec: LineCodec = {
  format: "ndjson",

  parse(line) {
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch (e) {
      return `invalid JSON: ${(e as Error).message}`;
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) return "expected a JSON object";
    const r = o as Record<string, unknown>;
    if (typeof r.user !== "string" || r.user === "") return 'field "user" must be a non-empty string';
    if (typeof r.query !== "string") return 'field "query" must be a string';
    let time: number;
    if (typeof r.time === "number" && Number.isInteger(r.time)) {
      if (r.time < MIN_TIME || r.time > MAX_TIME)
        return `time ${r.time} is outside the years 0000–9999 a log can hold`;
      time = r.time;
    } else if (typeof r.time === "string") time = parseAolTime(r.time);
    else return 'field "time" must be "YYYY-MM-DD HH:MM:SS" or whole seconds since 1970';
    if (Number.isNaN(time)) return `unparsable time ${JSON.stringify(r.time)}: expected YYYY-MM-DD HH:MM:SS`;
    const rec: LogRecord = { user: r.user, query: r.query, time };
    if (r.itemRank !== undefined && r.itemRank !== null) {
      if (typeof r.itemRank !== "number" || !Number.isInteger(r.itemRank) || r.itemRank < 0) {
        return 'field "itemRank" must be a whole number';
      }
      rec.itemRank = r.itemRank;
    }
    for (const key of ["clickUrl", "category", "unit"] as const) {
      const v = r[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== "string") return `field "${key}" must be a string`;
      rec[key] = v;
    }
    // A NUL written as \u0000 is the NUL byte the line reader refuses in any other layout.
    for (const key of ["user", "query", "clickUrl", "category", "unit"] as const) {
      if (rec[key]?.includes("\0")) return `field "${key}" holds a NUL character`;
    }
    return rec;
  },

  toLine(rec) {
    if (rec.user === "") throw new UnwritableRecord("empty user");
    const o: Record<string, unknown> = { user: rec.user, query: rec.query, time: formatAolTime(rec.time) };
    if (rec.itemRank !== undefined) o.itemRank = rec.itemRank;
    if (rec.clickUrl !== undefined) o.clickUrl = rec.clickUrl;
    if (rec.category !== undefined) o.category = rec.category;
    if (rec.unit !== undefined) o.unit = rec.unit;
    return JSON.stringify(o);
  },

  header() {
    return undefined;
  },

  readHeader() {
    return undefined;
  },
};
