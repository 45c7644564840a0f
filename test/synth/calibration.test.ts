import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  type Calibration,
  checkCalibration,
  DEFAULT_CALIBRATION_PATH,
  defaultCalibration,
} from "../../src/synth/calibration.ts";
import { generateLog, newStats } from "../../src/synth/generate.ts";

describe("calibration", () => {
  test("the committed calibration is valid and holds numbers only (no query text)", () => {
    const cal = defaultCalibration();
    assert.doesNotThrow(() => checkCalibration(cal));
    const strings: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (typeof v === "string") strings.push(path);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    const { provenance: _, ...rest } = JSON.parse(
      readFileSync(DEFAULT_CALIBRATION_PATH, "utf8"),
    ) as Calibration;
    walk(rest, "");
    assert.deepEqual(strings, []);
  });

  test("bad calibrations are refused with the field named", () => {
    const cal = structuredClone(defaultCalibration());
    cal.transitions.nextPage = 0.9;
    assert.throws(() => checkCalibration(cal), /transitions/);
    const cal2 = structuredClone(defaultCalibration()) as unknown as Record<string, unknown>;
    delete cal2.clicks;
    assert.throws(() => checkCalibration(cal2), /clicks/);
  });

  test("a custom calibration changes the log (no clicks at all)", () => {
    const cal = structuredClone(defaultCalibration());
    cal.clicks.noClick = 1;
    const stats = newStats();
    generateLog({ seed: 1, users: 50, calibration: cal }, stats);
    assert.equal(stats.clicks, 0);
    assert.equal(stats.rows, stats.events);
  });
});
