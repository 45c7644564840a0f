/**
 * The Excite 1997 layout: `user TAB YYMMDDHHMMSS TAB query`, no header, no clicks. An empty query is a request
 * for the next page of results of the user's previous query.
 */
import type { LogRecord } from "../record.ts";
import { fitsExcite, formatExciteTime, parseExciteTime } from "../time.ts";
import {
  checkTsvField,
  firstTsvField,
  type LineCodec,
  strayCarriageReturn,
  UnwritableRecord,
} from "./codec.ts";

export const exciteCodec: LineCodec = {
  format: "excite",
  userOf: firstTsvField,

  parse(line) {
    const f = line.split("\t");
    if (f.length !== 3)
      return `expected 3 tab-separated fields (user, YYMMDDHHMMSS, query), found ${f.length}`;
    if (f[0] === "") return "empty user id";
    const cr = strayCarriageReturn(line);
    if (cr !== undefined) return cr;
    const time = parseExciteTime(f[1]!);
    if (Number.isNaN(time)) return `unparsable time ${JSON.stringify(f[1])}: expected YYMMDDHHMMSS`;
    const rec: LogRecord = { user: f[0]!, query: f[2]!, time };
    return rec;
  },

  toLine(rec, classified) {
    if (classified)
      throw new UnwritableRecord("the Excite layout has no columns for categories; use aol or ndjson");
    if (rec.clickUrl !== undefined || rec.itemRank !== undefined) {
      throw new UnwritableRecord("the Excite layout cannot carry clicks; use aol or ndjson");
    }
    if (!fitsExcite(rec.time))
      throw new UnwritableRecord("time outside 1970–2069 cannot be written as YYMMDDHHMMSS");
    if (rec.user === "") throw new UnwritableRecord("empty user");
    checkTsvField("user", rec.user);
    checkTsvField("query", rec.query);
    return `${rec.user}\t${formatExciteTime(rec.time)}\t${rec.query}`;
  },

  header() {
    return undefined;
  },

  readHeader() {
    return undefined;
  },
};
