/**
 * confusion: how often the label is among the shipped layer's best 2 and 3 branches, and the most frequent
 * confusions (counts only).
 */
import { TOP_LEVELS } from "../../src/classify/labels.ts";
import { trainModel } from "../../src/classify/train.ts";
import type { ExperimentContext } from "./setup.ts";

export default async function confusion(ctx: ExperimentContext): Promise<void> {
  const { rows, fold } = ctx;
  const n = rows.length;
  const confusions = new Map<string, number>();
  let top2 = 0;
  let top3 = 0;
  for (let f = 0; f < 5; f++) {
    const m = trainModel(
      rows.filter((_, i) => fold[i] !== f).map((r) => r.ex),
      {},
    );
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      const s = m.scores(rows[i]!.ex.features);
      const rank = [...s.keys()].sort((a, b) => s[b]! - s[a]!);
      const label = rows[i]!.ex.label;
      if (rank.slice(0, 2).includes(label)) top2++;
      if (rank.slice(0, 3).includes(label)) top3++;
      if (rank[0] !== label) {
        const key = `${TOP_LEVELS[label]} → ${TOP_LEVELS[rank[0]!]}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      }
    }
  }
  console.log(
    `label among the best 2 branches: ${((100 * top2) / n).toFixed(1)}%, best 3: ${((100 * top3) / n).toFixed(1)}%`,
  );
  for (const [k, c] of [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${c}\t${k}`);
}
