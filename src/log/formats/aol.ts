/**
 * The AOL 2006 layout: `AnonID TAB Query TAB QueryTime TAB ItemRank TAB ClickURL`, with a header line. A row
 * without a click leaves the last two fields empty (some copies drop them: 3 fields are accepted). A classified
 * log appends `Category TAB Unit` and says so in its header.
 */
import type { LogRecord } from "../record.ts";
import { formatAolTime, parseAolTime } from "../time.ts";
import { checkTsvField, type LineCodec, UnwritableRecord } from "./codec.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
const HEADER_CLASSIFIED = `${HEADER}\tCategory\tUnit`;

export const aolCodec: LineCodec = {
  format: "aol",

  parse(line, classified) {
    const f = line.split("\t");
    const n = f.length;
    if (classified ? n !== 7 : n !== 5 && n !== 3) {
      return `expected ${classified ? "7" : "5 (or 3)"} tab-separated fields, found ${n}`;
    }
    const user = f[0]!;
    if (user === "") return "empty AnonID";
    const time = parseAolTime(f[2]!);
    if (Number.isNaN(time))
      return `unparsable QueryTime ${JSON.stringify(f[2])}: expected YYYY-MM-DD HH:MM:SS`;
    const rec: LogRecord = { user, query: f[1]!, time };
    if (n > 3) {
      const rank = f[3]!;
      if (rank !== "") {
        const r = Number(rank);
        if (!Number.isInteger(r) || r < 0) return `ItemRank ${JSON.stringify(rank)} is not a whole number`;
        rec.itemRank = r;
      }
      if (f[4] !== "") rec.clickUrl = f[4]!;
      if (rec.itemRank !== undefined && rec.clickUrl === undefined) return "ItemRank given without ClickURL";
    }
    if (classified) {
      rec.category = f[5]!;
      rec.unit = f[6]!;
    }
    return rec;
  },

  toLine(rec, classified) {
    checkTsvField("user", rec.user);
    checkTsvField("query", rec.query);
    if (rec.user === "") throw new UnwritableRecord("empty user");
    let line = `${rec.user}\t${rec.query}\t${formatAolTime(rec.time)}\t${rec.itemRank ?? ""}\t`;
    if (rec.clickUrl !== undefined) {
      checkTsvField("clickUrl", rec.clickUrl);
      line += rec.clickUrl;
    }
    if (classified) {
      const category = rec.category ?? "";
      const unit = rec.unit ?? "";
      checkTsvField("category", category);
      checkTsvField("unit", unit);
      line += `\t${category}\t${unit}`;
    }
    return line;
  },

  header(classified) {
    return classified ? HEADER_CLASSIFIED : HEADER;
  },

  readHeader(line) {
    if (line === HEADER || line === `${HEADER}\t`) return { classified: false };
    if (line === HEADER_CLASSIFIED) return { classified: true };
    return undefined;
  },
};
