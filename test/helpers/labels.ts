/** Made-up labelled queries for the learned layer's tests (never real log rows), written to a file. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const LABELS = [
  "id\tquery\tlabel",
  ...["soccer ball", "tennis racket", "golf clubs", "baseball scores", "hockey team", "football league"].map(
    (q, i) => `${i}\t${q}\tSports`,
  ),
  ...[
    "flu symptoms",
    "diabetes diet",
    "back pain",
    "cancer treatment",
    "allergy medicine",
    "heart disease",
  ].map((q, i) => `${10 + i}\t${q}\tHealth`),
  ...["pasta recipe", "garden tools", "home loans", "cleaning tips", "baby names", "house plants"].map(
    (q, i) => `${20 + i}\t${q}\tHome`,
  ),
  "30\tasdf qwer\tUnclassifiable",
].join("\n");

/** Writes the made-up labels file (18 labelled rows: 6 Sports, 6 Health, 6 Home; 1 Unclassifiable) into `dir`. */
export function writeLabels(dir: string): string {
  const path = join(dir, "labels.tsv");
  writeFileSync(path, `${LABELS}\n`);
  return path;
}
