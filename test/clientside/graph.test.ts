import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { readEdgeList } from "../../src/clientside/edge-list.ts";
import {
  edgeCount,
  generateGraph,
  type SocialGraph,
  scaleFree,
  smallWorld,
} from "../../src/clientside/graph.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { InputError } from "../../src/util/errors.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

function assertSimple(g: SocialGraph): void {
  g.adj.forEach((nbrs, a) => {
    assert.ok(!nbrs.includes(a), `self-loop at ${a}`);
    assert.equal(new Set(nbrs).size, nbrs.length, `duplicate neighbour at ${a}`);
    for (const b of nbrs) assert.ok(g.adj[b]!.includes(a), `edge ${a}-${b} not symmetric`);
    assert.deepEqual(
      [...nbrs],
      [...nbrs].sort((x, y) => x - y),
    );
  });
}

test("graph generation is deterministic for a seed and differs across seeds", () => {
  for (const model of ["small-world", "scale-free"] as const) {
    const spec = { model, nodes: 300, degree: 6, rewire: 0.3 };
    const a = generateGraph(spec, Rng.fromSeed(42));
    const b = generateGraph(spec, Rng.fromSeed(42));
    const c = generateGraph(spec, Rng.fromSeed(43));
    assert.deepEqual(a, b, model);
    assert.notDeepEqual(a.adj, c.adj, model);
  }
});

test("generated graphs are simple and symmetric with the asked mean degree (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 1, max: 8 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer(),
      (n, degree, rewire, seed) => {
        const sw = smallWorld(n, degree, rewire, Rng.fromSeed(seed));
        const sf = scaleFree(n, degree, Rng.fromSeed(seed));
        assertSimple(sw);
        assertSimple(sf);
        const half = Math.max(1, Math.floor(degree / 2));
        // Rewiring moves edges, never adds or drops them: n·k/2 edges on a ring, all pairs when n ≤ k.
        assert.equal(edgeCount(sw), n <= 2 * half ? (n * Math.max(0, n - 1)) / 2 : n * half);
        const m = Math.max(1, Math.round(degree / 2));
        const seedNodes = Math.min(n, m + 1);
        let expected = (seedNodes * Math.max(0, seedNodes - 1)) / 2;
        for (let v = seedNodes; v < n; v++) expected += Math.min(m, v);
        assert.equal(edgeCount(sf), expected);
      },
    ),
    { numRuns: 60 },
  );
});

test("a small world without rewiring is the ring lattice", () => {
  const g = smallWorld(10, 4, 0, Rng.fromSeed(1));
  assert.deepEqual(g.adj[0], [1, 2, 8, 9]);
  assert.deepEqual(g.adj[5], [3, 4, 6, 7]);
});

const edgeFile = (text: string) => {
  const f = join(tempDir(), "edges.txt");
  writeFileSync(f, text);
  return f;
};

test("an edge list is read with names, comments, blank lines and duplicates", async () => {
  const f = edgeFile("# friends\nalice bob\n\nbob\tcarol\nbob alice\n  carol   dave  \n");
  const r = await readEdgeList(f);
  assert.deepEqual(r.graph.labels, ["alice", "bob", "carol", "dave"]);
  assert.deepEqual(r.graph.adj, [[1], [0, 2], [1, 3], [2]]);
  assert.equal(r.duplicates, 1);
  assert.equal(r.rejected, 0);
});

test("an edge list with bad lines is rejected with the line number", async () => {
  const f = edgeFile("alice bob\nalice bob carol\nbob carol\n");
  await assert.rejects(readEdgeList(f), (e: unknown) => {
    assert.ok(e instanceof InputError);
    assert.equal(e.message, `${f}:2: expected two node names separated by whitespace, got 3 fields`);
    return true;
  });
  const loop = edgeFile("alice bob\n\n# x\nbob bob\n");
  await assert.rejects(
    readEdgeList(loop),
    new RegExp(`^InputError: ${loop}:4: node "bob" is joined to itself`),
  );
  await assert.rejects(readEdgeList(edgeFile("# nothing\n")), /no edges/);
});

test("with --lenient, bad edge lines are set aside and counted", async () => {
  const f = edgeFile("alice bob\nalice\nbob carol\ncarol carol\ndave alice\n");
  const out = join(tempDir(), "rejects.tsv");
  const sink = new RejectSink(out);
  const r = await readEdgeList(f, sink);
  await sink.close();
  assert.equal(r.rejected, 2);
  assert.equal(edgeCount(r.graph), 3);
  assert.deepEqual(
    sink.kept.map((k) => k.line),
    [2, 4],
  );
});
