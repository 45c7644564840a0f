import assert from "node:assert/strict";
import { test } from "node:test";
import { groupEvents } from "../../src/log/events.ts";
import { defaultCalibration } from "../../src/synth/calibration.ts";
import { generateLog } from "../../src/synth/generate.ts";

/** AOL README: 7,887,022 next-page requests of 28,898,362 query events. */
const AOL_NEXT_PAGE_SHARE = 7_887_022 / (21_011_340 + 7_887_022);

test("a generated log reproduces the calibrated AOL aggregates", () => {
  const cal = defaultCalibration();
  const records = generateLog({ seed: 1, users: 1000 }).records;
  const events = groupEvents(records);
  const users = new Set(records.map((r) => r.user)).size;
  const near = (got: number, want: number, tol: number, what: string) =>
    assert.ok(
      Math.abs(got - want) <= tol,
      `${what}: got ${got.toFixed(3)}, want ${want.toFixed(3)} ± ${tol}`,
    );

  const meanEvents = Math.exp(cal.activity.logMean + cal.activity.logSd ** 2 / 2);
  near(events.length / users / meanEvents, 1, 0.2, "query events per user (relative)");
  near(events.filter((e) => e.nextPage).length / events.length, AOL_NEXT_PAGE_SHARE, 0.03, "next-page share");
  near(
    events.filter((e) => e.clicks === 0).length / events.length,
    cal.clicks.noClick,
    0.03,
    "no-click share",
  );
  const clicked = events.filter((e) => e.clicks > 0);
  const wantClicks = cal.clicks.perClickedEvent.reduce((s, p, i) => s + p * (i + 1), 0);
  near(
    clicked.reduce((s, e) => s + e.clicks, 0) / clicked.length,
    wantClicks,
    0.1,
    "clicks per clicked event",
  );
  const fresh = events.filter((e) => !e.nextPage);
  const wantWords = cal.queries.lengthWords.reduce((s, p, i) => s + p * (i + 1), 0);
  near(
    fresh.reduce((s, e) => s + e.query.split(" ").length, 0) / fresh.length,
    wantWords,
    0.5,
    "words per query",
  );
  const distinct = new Set(events.map((e) => e.query)).size / events.length;
  assert.ok(distinct > 0.2 && distinct < 0.6, `distinct/total ${distinct}`);
});
