/** The markdown summary docs/results/swap.md, from the TSVs on disk. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { ANCHORS, ANCHORS_EMD, DEANONS, log, OUT, PREFIX, STANDIN } from "./options.ts";
import { H, readTsv } from "./tables.ts";

function anchors(): Map<string, { kf: number; us: number; best: number; bestAlg: string; emdPct?: number }> {
  const out = new Map<string, { kf: number; us: number; best: number; bestAlg: string; emdPct?: number }>();
  if (!existsSync(ANCHORS)) return out;
  for (const line of readFileSync(ANCHORS, "utf8").trim().split("\n").slice(1)) {
    const [alg, k, depth, kf, , , , , , , logTime, , pct] = line.split("\t");
    const key = `${k}/${depth}`;
    const a = out.get(key) ?? { kf: Number.NaN, us: Number.NaN, best: 0, bestAlg: "" };
    if (alg === "SA1") Object.assign(a, { kf: Number(kf), us: Number(logTime) * 1e6 });
    else if (Number(pct) > a.best) Object.assign(a, { best: Number(pct), bestAlg: alg! });
    out.set(key, a);
  }
  if (existsSync(ANCHORS_EMD)) {
    for (const line of readFileSync(ANCHORS_EMD, "utf8").trim().split("\n").slice(1)) {
      const c = line.split("\t");
      const key = `${c[1]}/${c[13]}`;
      const a = out.get(key) ?? { kf: Number.NaN, us: Number.NaN, best: Number.NaN, bestAlg: "" };
      a.emdPct = Number(c[5]);
      out.set(key, a);
    }
  }
  return out;
}

function num(v: unknown, digits = 2): string {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n === "number" && Number.isNaN(n)) return "–";
  return typeof n === "number" && Number.isFinite(n) && v !== "" ? n.toFixed(digits) : String(v ?? "");
}

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

/** Mean and sample standard deviation. */
function meanSd(xs: number[]): [number, number] {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : 0;
  return [m, Math.sqrt(v)];
}

/**
 * Depth across seeds (`--only seeds`): per k and depth, the best attack's mean ± sd over the seeds run with the
 * categories of the input (`categories`, swap-input.tsv); runs of another classifier are left out and counted.
 */
function seedsSection(all: string[][], categories: string | undefined): string[] {
  const at = H.seeds.indexOf("categories");
  const rows = all.filter((r) => r[at] === categories);
  if (rows.length === 0) return [];
  const stale = all.length - rows.length;
  const cells = new Map<string, string[][]>();
  for (const r of rows) {
    const key = `${r[0]}/${r[1]}`;
    cells.set(key, [...(cells.get(key) ?? []), r]);
  }
  return [
    "**Depth across seeds** (`--only seeds`, the subset stream; the seed drives the swap, the attacks' own seed",
    "is fixed). Best attack = the best of deanon1–4 for each seed; mean ± sample sd over the seeds. Every run",
    `here has the categories above (swap-input.tsv)${stale > 0 ? `; ${stale} run${stale === 1 ? "" : "s"} of another classifier ${stale === 1 ? "is" : "are"} left out (re-run \`--only seeds\` with their seeds)` : ""}.`,
    "",
    ...table(
      [
        "k",
        "depth",
        "seeds",
        "best attack % (mean ± sd)",
        "min–max",
        "final k",
        "profile EMD %",
        "suppressed rows (max over seeds)",
        "change from depth − 1, paired by seed (mean ± se; seeds where it rose)",
      ],
      [...cells.values()].map((c) => {
        const best = c.map((r) => Number(r[4]));
        const [m, sd] = meanSd(best);
        // Paired by seed with the same k one depth up: does this depth let the attack gain?
        const above = new Map(
          (cells.get(`${c[0]![0]}/${Number(c[0]![1]) - 1}`) ?? []).map((r) => [r[2]!, Number(r[4])]),
        );
        const diffs = c.filter((r) => above.has(r[2]!)).map((r) => Number(r[4]) - above.get(r[2]!)!);
        const [dm, dsd] = meanSd(diffs);
        const paired =
          diffs.length > 1
            ? `${dm >= 0 ? "+" : "−"}${Math.abs(dm).toFixed(3)} ± ${(dsd / Math.sqrt(diffs.length)).toFixed(3)} (${diffs.filter((d) => d > 0).length} of ${diffs.length})`
            : "–";
        return [
          c[0]![0]!,
          c[0]![1]!,
          c.map((r) => r[2]).join(","),
          c.length > 1 ? `${m.toFixed(2)} ± ${sd.toFixed(2)}` : `${m.toFixed(2)} (one seed)`,
          `${Math.min(...best).toFixed(2)}–${Math.max(...best).toFixed(2)}`,
          meanSd(c.map((r) => Number(r[3])))[0].toFixed(2),
          meanSd(c.map((r) => Number(r[10])))[0].toFixed(2),
          String(Math.max(...c.map((r) => Number(r[11])))),
          paired,
        ];
      }),
    ),
    "",
  ];
}

export function report(): void {
  const input = new Map((readTsv("swap-input.tsv")?.rows ?? []).map((r) => [r[0]!, r[1]!]));
  const fig6 = readTsv("swap-fig6-matching.tsv")?.rows ?? [];
  const fig7 = readTsv("swap-fig7-deanon.tsv")?.rows ?? [];
  const grid = readTsv("swap-saps-grid.tsv")?.rows ?? [];
  /** Best attack % of a grid cell (k = 3), as text. */
  const bestAt = (stream: string, depth: number) =>
    num(grid.find((g) => g[0] === stream && Number(g[1]) === 3 && Number(g[2]) === depth)?.[6], 1);
  const bestAt2 = (stream: string, k: number, depth: number) =>
    num(grid.find((g) => g[0] === stream && Number(g[1]) === k && Number(g[2]) === depth)?.[6], 2);
  const delta = readTsv("swap-delta.tsv")?.rows ?? [];
  const prof = readTsv("swap-profile-equality.tsv")?.rows ?? [];
  const res = readTsv("swap-resources.tsv")?.rows ?? [];
  const fk = readTsv("swap-finalk.tsv")?.rows ?? [];
  const st = readTsv("swap-finalk-streaks.tsv")?.rows ?? [];
  const anchor = anchors();
  const ks = [...new Set(fig7.map((r) => r[0]!))];
  const md: string[] = [
    `# Swap anonymizer (Pàmies-Estrems et al. 2016) — evaluation on the shared AOL subset${STANDIN ? " (STAND-IN categories)" : ""}`,
    "",
    `Generated by \`npm run eval:swap\` (parts: \`--only fig|grid|delta|finalk|profile|report\`), ${new Date().toISOString().slice(0, 10)}.`,
    `Input: ../shared/data/aol-top1000 (the 1000 heaviest AOL users), ${num(input.get("rows_classified"), 0)} of ${num(input.get("rows"), 0)} rows classified and kept (${num(input.get("classified_pct"), 1)}%; unclassified queries discarded, as in the paper §4.2.1), ${num(input.get("users"), 0)} users.`,
    `**Categories: ${input.get("categories") ?? "?"}.** Events fed in time order, δ = 1.2, seed 1 unless stated.`,
    "Linked % = released rows attributed to their true author (ground truth from `origin`). Aggregate figures only.",
    "",
    "## Fig. 6 — matching records (matcher), depth 1",
    "",
    ...table(
      ["k", "A(NR) identical %", "A identical %", "A(NR) ignoring time %", "A ignoring time %"],
      ks.map((k) => {
        const g = (v: string, c: number) => num(fig6.find((r) => r[0] === k && r[1] === v)?.[c]);
        return [k, g("A(NR)", 2), g("A", 2), g("A(NR)", 3), g("A", 3)];
      }),
    ),
    "",
    "A(NR) = the paper's ablation (own author allowed, no k growth, original times); A = the default swap (never",
    "under its author, release time). A(NR)'s records left under their own author fall roughly as 1/k, as in",
    "the paper's Fig. 6. A's matches are coincidences, not re-linked events: another user's",
    "identical query text (navigational queries) released to a user who searched that text too — and, with",
    "time, at the very second of that user's own search, since the release time is the time of the arriving",
    "event.",
    "",
    "## Fig. 7 — de-anonymizers 1–4 (% of released rows linked to their true author), depth 1",
    "",
    ...table(
      ["k", ...DEANONS, "final k (anonymizer)"],
      ks.map((k) => [
        k,
        ...DEANONS.map((d) => num(fig7.find((r) => r[0] === k && r[1] === d)?.[2])),
        num(fig7.find((r) => r[0] === k)?.[5]),
      ]),
    ),
    "",
    "Paper: ≈ 1.89% at its lowest k (full AOL, 36.4M logs, 650k users, its own classifier); saps-qls' later",
    "attacks on the full log: 13.2% at k = 3, 5.3% at k = 10, 2.3% at k = 30 (grid below). Ours falls with k like",
    "both; at k = 3 it lies between them, at k = 10 and 30 above saps-qls on this sparse subset (and below it on the",
    "day-folded stream, grid). For k ≤ 10 the curve is flat because on this sparse stream every bucket's k grows",
    'to ≈ 14–16 anyway (last column; see "Final k"). deanon2–4 beat the random deanon1 by a third; 3 and 4',
    '(history) add little over 2, as the paper found ("all performed in a similar way").',
    "",
    "## saps-qls grid — ours vs the authors' Go implementation (27.2M AOL logs)",
    "",
    ...table(
      [
        "stream",
        "k",
        "depth",
        "final k",
        "anchor K_F",
        "best attack % (ours)",
        "anchor best attack %",
        "profile EMD % of max (ours)",
        "anchor emd_tpc %",
        "suppressed % of rows (ours)",
        "µs/record CPU (ours, batch)",
        "anchor µs/log",
      ],
      [...grid.filter((g) => g[0] === "subset"), ...grid.filter((g) => g[0] !== "subset")].map((g) => {
        const a = anchor.get(`${g[1]}/${g[2]}`);
        return [
          g[0]!,
          g[1]!,
          g[2]!,
          num(g[3]),
          num(a?.kf),
          `${num(g[6])} (${g[7]})`,
          a?.bestAlg ? `${num(a.best)} (${a.bestAlg})` : "–",
          num(g[13]),
          num(a?.emdPct),
          num((100 * Number(g[14])) / Number(input.get("rows_classified") ?? Number.NaN), 3),
          num(g[5]),
          num(a?.us),
        ];
      }),
    ),
    "",
    "Streams: `subset` = the 1000-user subset as it is (0.04 events/s); `day-folded` = the same events with every",
    "user-day made a user of its own and all 92 days laid over one (3.5 events/s, the density of the full log the",
    "anchors ran on; an attack is right there only if it names the right user-day).",
    "",
    "Depth: our ODP skeleton has three levels below Top, so depth 3 is the deepest bucket (anchor rows at depth",
    "≥ 3 are comparable to it: their 3/5/7 give 7.61–6.81% at k = 3, 2.19–2.23% at k = 10). The anchor's µs/log is",
    "the streaming anonymizer alone; ours here is the batch run (event grouping, time sort, released copy) — see",
    "bench/swap.bench.ts for the stage's speed. The anchors have no depth-2 attack rows.",
    "",
    `**Deeper buckets.** The anchors' attacks lose power with depth (13.2% → 7.6% at k = 3), and so do ours: at k = 3,`,
    `${bestAt("subset", 1)}% → ${bestAt("subset", 2)}% → ${bestAt("subset", 3)}% on the subset and ${bestAt("day-folded", 1)}% → ${bestAt("day-folded", 2)}% → ${bestAt("day-folded", 3)}% day-folded (depth 1 → 2 → 3).`,
    `At k = 10: ${bestAt2("subset", 10, 1)}% → ${bestAt2("subset", 10, 2)}% → ${bestAt2("subset", 10, 3)}%; at k = 30: ${bestAt2("subset", 30, 1)}% → ${bestAt2("subset", 30, 2)}% → ${bestAt2("subset", 30, 3)}% (subset). The depth`,
    'rule (docs/methods/swap.md, "Depth"): a bucket below the top level releases only when it holds k + 1 events of k + 1',
    "distinct users, and hands everything to its parent as soon as an arriving event's author already holds a slot",
    "there; so a released event always has at least k other candidate authors at a fine level, where the top level",
    "needs 2; the attackers replay the same rule. Two earlier rules: a node open for good once it had seen k users",
    "gave 10.2% → 14.0% → 14.6% on the subset (k = 3; 11.4% → 13.0% day-folded), final k up to 286 and 0.75% of",
    "rows suppressed at depth 3; one that waited for k + 1 events before handing a bucket with a repeated user up",
    "let the attack rise from depth 2 to 3 at k = 30 (2.55% → 2.57%, 10 seeds). The price is profile",
    "detail below the top level: a fine category that is not busy enough swaps its events in the coarser bucket",
    "sooner than under the waiting rule, so the EMD is larger at k = 10 and 30 (subset, k = 30, depth 3: 9.7%",
    `under the waiting rule, ${num(grid.find((g) => g[0] === "subset" && Number(g[1]) === 30 && Number(g[2]) === 3)?.[13], 1)}% now), though still below depth 1's. Final k here is the mean over all`,
    "buckets, deeper ones included, which never grow.",
    "",
    ...seedsSection(readTsv("swap-depth-seeds.tsv")?.rows ?? [], input.get("categories")),
    "**EMD.** saps_emd.tsv gives an earth mover's distance between original and anonymized user profiles",
    "(`calc_emd` / `max_emd` = `emd_tpc`) without defining the ground distance or the maximum; its `tree_depth`",
    "column runs 1–13 and the distance falls to 0 at depth 13, i.e. profiles are compared at full category depth",
    "and a deeper bucket distorts them less. Ours: per user, tree EMD with unit edges between the original and",
    "released distributions over full ODP paths, mean over users, as % of its maximum (2 × 3 levels). Same idea,",
    "different tree (3 levels vs ODP's 13) and normalisation: **compare the trend with depth, not the values.**",
    "At depth 1 both keep the top-level profile exactly (the §4.5 property); what moves is the finer levels.",
    "",
    "## δ (Figs. 4–5)",
    "",
    ...table(
      [
        "k",
        "δ",
        "CPU µs/record",
        "final k mean",
        "final k max",
        "buckets grown / buckets",
        "k growths",
        "suppressed rows",
      ],
      delta.map((d) => [d[0]!, d[1]!, num(d[3]), num(d[4]), num(d[5]), `${d[7]} / ${d[6]}`, d[8]!, d[10]!]),
    ),
    "",
    "Larger δ → fewer growths and a larger final k (the paper's Fig. 5 direction); time is not affected (Fig. 4).",
    "",
    "## Final k — why ours is above the anchor's",
    "",
    "Our δ rule is the paper's (Algorithm 2: k ← k·δ when every user stored in the category set is the same;",
    `model-tested in test/swap/core.test.ts). The gap to saps-qls' K_F (k = 3: ${num(grid.find((g) => g[0] === "subset" && Number(g[1]) === 3 && Number(g[2]) === 1)?.[3], 1)} vs 3.38) is the stream, not`,
    "the rule: the 1000-user subset spreads 302k events over 92 days (0.04 events/s), so a heavy user's run of",
    `searches in one category is rarely interleaved with anyone else's — ${num(st.find((r) => Number(r[0]) === 3)?.[2], 1)}% of events complete a single-user`,
    "run of 3 in their category — and each run longer than the bucket's k grows it, until k exceeds the longest",
    "runs. Fewer users (sparser still) change that little down to 100; a stream as dense as the full log does: laid over one day,",
    "the same events (3.5 events/s vs the full log's 3.4–4.6) give final k 3.00 at k = 3 — no bucket ever holds",
    'one user only, as the paper expected ("very unlikely ... due to the huge quantity of queries"). K_F values',
    "look like means of integer k over 16 buckets (3.375 = 54/16, e.g. ten at 3 and six at 4); at k = 10, 30 saps-qls",
    "still grows (11.75, 42.7) where the paper's rule on the dense stream does not, so its trigger is probably",
    "broader than Algorithm 2's; its README does not define it.",
    "",
    "The same anonymizer (δ = 1.2, depth 1) on the first N users of the subset (by id), and on denser streams",
    "made from the whole subset by folding time (each user-week or user-day becomes a user of its own, all laid",
    "over one week or one day):",
    "",
    ...table(
      [
        "stream",
        "k",
        "users",
        "events",
        "events/s",
        "final k mean",
        "final k max",
        "buckets grown / buckets",
        "k growths",
      ],
      [...fk]
        .sort((x, y) => Number(x[4]) - Number(y[4]) || Number(x[1]) - Number(y[1]))
        .map((r) => [
          r[0]!,
          r[1]!,
          r[2]!,
          r[3]!,
          num(r[4], 3),
          num(r[5]),
          num(r[6]),
          `${r[8]} / ${r[7]}`,
          r[9]!,
        ]),
    ),
    "",
    "Share of events that arrive when the previous k − 1 events of their top-level category (time order) were all",
    "by their own author — the moment a bucket of size k can hold one user only:",
    "",
    ...table(
      ["k", "events", "events completing a single-user run of k %"],
      st.map((r) => [r[0]!, r[1]!, num(r[2], 3)]),
    ),
    "",
    "## §4.5 — profile equality",
    "",
    ...table(
      ["k", "depth", "users", "top-level profile rows original", "released", "identical", "suppressed rows"],
      prof.map((r) => r.map(String)),
    ),
    "",
    "## Tables 2–3 — resources on the subset (batch runs; CPU time, heap growth during the run)",
    "",
    ...table(
      ["component", "CPU µs/record", "heap growth MiB", "max held events"],
      res.map((r) => [r[0]!, num(r[1]), num(r[2]), r[3] ?? ""]),
    ),
    "",
    "The anonymizer's heap growth here is the released copy of the log kept for the attacks; its own state is the",
    "held events (column 4). The stage's speed and flat memory at 10M rows: bench/swap.bench.ts.",
    "",
  ];
  writeFileSync(`${OUT}${PREFIX}.md`, md.join("\n"));
  log(`eval-swap: wrote ${OUT}${PREFIX}.md`);
}
