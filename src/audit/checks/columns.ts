/**
 * A released record carries only what the method released: its classifier columns (Category, Unit) are those
 * the original gives the same query text (they are a function of the text; a column kept from a text the method
 * changed describes words that are gone), and its click (ItemRank, ClickURL) is one the original logged.
 */
import type { AuditCheck } from "../check.ts";
import { n, Violations } from "../check.ts";
import { show } from "../facts.ts";

export const columns: AuditCheck = {
  name: "columns",
  promise:
    "no column the method does not release: Category/Unit match the released text, clicks come from the input",
  applies: (s) => s.released !== undefined,
  run(s, limit) {
    const v = new Violations(limit);
    const released = s.released!.records;
    const classified = s.original.records.some((r) => r.category !== undefined);
    const colsOf = new Map<string, Set<string>>();
    const clicks = new Set<string>();
    for (const r of s.original.records) {
      if (classified) {
        let set = colsOf.get(r.query);
        if (!set) {
          set = new Set();
          colsOf.set(r.query, set);
        }
        set.add(`${r.category ?? ""}\u0000${r.unit ?? ""}`);
      }
      if (r.clickUrl) clicks.add(`${r.itemRank ?? ""}\u0000${r.clickUrl}`);
    }
    let withColumns = 0;
    let withClicks = 0;
    for (const r of released) {
      const cat = r.category ?? "";
      const unit = r.unit ?? "";
      if (classified && (cat !== "" || unit !== "")) {
        withColumns++;
        if (!colsOf.get(r.query)?.has(`${cat}\u0000${unit}`)) {
          v.add(() => `${show(r)}: the original never gives this text these classifier columns`);
        }
      }
      if (r.clickUrl) {
        withClicks++;
        if (!clicks.has(`${r.itemRank ?? ""}\u0000${r.clickUrl}`)) {
          v.add(() => `${show(r)}: a click the original does not log`);
        }
      }
    }
    if (s.released!.format !== s.original.format) {
      v.add(() => `released in ${s.released!.format}, the input is ${s.original.format}`);
    }
    const what = classified ? `${n(withColumns)} rows with Category/Unit, ` : "";
    return v.outcome(`${what}${n(withClicks)} rows with a click`);
  },
};
