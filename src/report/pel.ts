/**
 * The report's profile exposure level (PEL) section: client-side protection (paper 002) is on the frontier as
 * a method whose release is the engine's view; this table puts the distribution of its per-user PEL beside it
 * (mean, quantiles, and the share of users whose uncertainty 100 − PEL is above the paper's 70% and 80%), averaged over seeds.
 * Rows come from any method whose counts carry `meanPel` (today: `clientside`). Empty when there is none.
 */
import { paramsChanged, paramsLabel } from "../methods/registry.ts";
import type { ResultRow } from "./results.ts";

const COLUMNS: readonly [key: string, label: string][] = [
  ["pelUsers", "users with a PEL"],
  ["meanPel", "mean"],
  ["pelP10", "p10"],
  ["pelP25", "p25"],
  ["pelP50", "median"],
  ["pelP75", "p75"],
  ["pelP90", "p90"],
  ["uncertaintyAbove70", "% users, uncertainty > 70"],
  ["uncertaintyAbove80", "% users, uncertainty > 80"],
  ["forwarded", "% queries forwarded"],
  ["meanLatencyMs", "added latency, ms"],
];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function pelSection(rows: readonly ResultRow[]): string {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    if (r.status !== "ok" || typeof r.counts.meanPel !== "number") continue;
    const key = `${r.method} ${paramsLabel(paramsChanged(r.method, r.params))}`.trim();
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  if (groups.size === 0) return "";
  const body = [...groups]
    .map(([label, g]) => {
      const cells = COLUMNS.map(([k]) => {
        const xs = g.map((r) => r.counts[k]).filter((v): v is number => typeof v === "number");
        return `<td>${xs.length === 0 ? '<span class="na">n/a</span>' : (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)}</td>`;
      }).join("");
      return `<tr><th scope="row">${esc(label)}</th><td>${g.length}</td>${cells}</tr>`;
    })
    .join("\n");
  return `<h3 id="pel">Profile exposure level (client-side protection)</h3>
<p>For client-side protection the release is the engine's view. PEL = I(X;Y)/H(X) × 100 per user, between her real
category profile X and the profile the engine builds for her id Y: 100 = fully exposed, 0 = nothing exposed. Lower is
better. Paper 002 counts the users whose uncertainty, 100 − PEL, is above 70% and 80%: higher is better. Users whose queries all fall in one category have no PEL.</p>
<div class="scroll"><table><thead><tr><th>configuration</th><th>seeds</th>${COLUMNS.map(([, l]) => `<th>${esc(l)}</th>`).join("")}</tr></thead><tbody>
${body}
</tbody></table></div>`;
}
