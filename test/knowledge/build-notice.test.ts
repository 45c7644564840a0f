/** The first-run knowledge-base build says what it does, that it happens once, and how long it took. */
import assert from "node:assert/strict";
import { it } from "node:test";
import { announceBuild } from "../../src/knowledge/snapshot.ts";
import { stderrOf } from "../helpers/stderr.ts";

it("announces the build before it starts and its time after, on stderr", () => {
  const out: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    out.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    const done = announceBuild("/x/kb.json", "missing");
    assert.equal(out.length, 1, "one line before the build");
    done();
  } finally {
    process.stderr.write = write;
  }
  assert.match(out[0]!, /^kb: building the knowledge base into \/x\/kb\.json \(first run; this happens once/);
  assert.match(out[1]!, /^kb: knowledge base built in \d+\.\ds; saved for later runs\n$/);
});

it("sends the two lines to the caller's notice instead, and nothing to stderr (the library API)", async () => {
  const said: string[] = [];
  const written = await stderrOf(() => announceBuild("/x/kb.json", "stale", (line) => said.push(line))());
  assert.deepEqual(written, []);
  assert.equal(said.length, 2);
  assert.match(said[0]!, /^kb: building the knowledge base into \/x\/kb\.json \(its inputs changed;/);
});
