/** What a person sees of progress on a pipe (periodic lines): always a label, never "0 done", separators. */
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import { consoleProgress, countText } from "../../src/util/progress.ts";

/** Lines `work` writes to stderr (the line form: stderr is not a terminal under the test runner). */
function stderrOf(work: () => void): string[] {
  const out: string[] = [];
  const write = process.stderr.write;
  const tty = process.stderr.isTTY;
  process.stderr.isTTY = false;
  process.stderr.write = ((chunk: string) => {
    out.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    work();
  } finally {
    process.stderr.write = write;
    process.stderr.isTTY = tty;
  }
  return out.join("").split("\n").filter(Boolean);
}

it("a count outside any phase still has a label and a real rate (was ': 8,192 (0/s)')", () => {
  const lines = stderrOf(() => consoleProgress({ intervalMs: 0 }).tick(8192));
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^working: 8,192 \([\d,]+\/s\)$/);
  assert.doesNotMatch(lines[0]!, /\(0\/s\)/);
});

it("a phase that counted nothing ends with 'done', not '0 done'", () => {
  const lines = stderrOf(() => {
    const p = consoleProgress();
    p.start("dp");
    p.stop();
  });
  assert.match(lines[0]!, /^dp: done in \d+\.\ds$/);
});

it("counts carry thousands separators", () => {
  const lines = stderrOf(() => {
    const p = consoleProgress({ intervalMs: 0 });
    p.start("read", 1_234_567);
    p.tick(1_000_000);
    p.stop();
  });
  assert.match(lines[0]!, /^read: 1,000,000 of 1,234,567 \(/);
  assert.match(lines[1]!, /^read: 1,000,000 done in /);
});

it("counts read as Intl prints them, without loading Intl", () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constant(-0)), (n) => {
      assert.equal(countText(n), n.toLocaleString("en"));
    }),
    { numRuns: 2000 },
  );
});
