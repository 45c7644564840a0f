/** The experiment's result rows grouped by method and parameters, averaged over seeds, as the report shows them. */
import { describeGuarantee } from "../log/guarantee.ts";
import { paramsChanged, paramsLabel } from "../methods/registry.ts";
import type { Value } from "../metrics/yardstick.ts";
import type { ResultRow } from "./results.ts";

/** Rows of the same method and parameters, averaged over seeds. */
export interface Aggregate {
  readonly method: string;
  /** The parameters given in the config ("k=3"), short, for chart labels; "" when none were given. */
  readonly label: string;
  /** Every parameter the method ran with, defaults included ("k=3 delta=1.2 depth=1 …"). */
  readonly full: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly seeds: number[];
  readonly errors: string[];
  /** The audit's verdicts over the seeds: "pass", or the failed checks (src/audit). */
  readonly audit: string;
  /** The guarantees the seeds' releases claim, one readable line each when they differ ("" without rows). */
  readonly guarantee: string;
  readonly values: Record<string, Value>;
}

export function aggregate(rows: readonly ResultRow[]): Aggregate[] {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const key = `${r.method}\u0000${JSON.stringify(r.params)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((g) => {
    const ok = g.filter((r) => r.status === "ok");
    const values: Record<string, Value> = {};
    for (const r of ok) for (const k of Object.keys(r.values)) values[k] = null;
    for (const k of Object.keys(values)) {
      const xs = ok.map((r) => r.values[k]).filter((v): v is number => typeof v === "number");
      values[k] = xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
    }
    const first = g[0]!;
    return {
      method: first.method,
      label: paramsLabel(paramsChanged(first.method, first.params)),
      full: paramsLabel(first.params) || "no parameters",
      params: first.params,
      seeds: ok.map((r) => r.seed),
      errors: g.filter((r) => r.status === "error").map((r) => `seed ${r.seed}: ${r.error}`),
      audit: auditVerdict(ok),
      guarantee: [...new Set(ok.map((r) => describeGuarantee(r.guarantee)))].join("; "),
      values,
    };
  });
}

/** "pass" when every seed's release passed its audit, else the failed checks of any seed; "" without rows. */
function auditVerdict(rows: readonly ResultRow[]): string {
  const failed = new Set<string>();
  let audited = 0;
  for (const r of rows) {
    if (r.audit === undefined) continue;
    audited++;
    if (r.audit.startsWith("FAIL: ")) for (const name of r.audit.slice(6).split(", ")) failed.add(name);
  }
  if (audited === 0) return "";
  return failed.size === 0 ? "pass" : `FAIL: ${[...failed].join(", ")}`;
}
