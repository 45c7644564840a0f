/**
 * report.html: one self-contained file — inline CSS and inline SVG charts, no scripts, no network. Sections:
 * how to read it, the data summary, the privacy–utility frontier, one table per method, the yardsticks with
 * plain-language guidance, and what is needed to reproduce the run.
 */
import { rename, writeFile } from "node:fs/promises";
import type { ResultRow } from "../experiment/run-one.ts";
import type { RunMeta } from "../experiment/runner.ts";
import { methods } from "../methods/registry.ts";
import { getYardstick } from "../metrics/registry.ts";
import type { Column, Value } from "../metrics/yardstick.ts";
import { barSpec, frontierSpec, markFrontier, renderSvg } from "./charts.ts";
import { FRONTIER, INTRO, NA, SEEDS } from "./guidance.ts";
import { pelSection } from "./pel.ts";

/** Rows of the same method and parameters, averaged over seeds. */
export interface Aggregate {
  readonly method: string;
  readonly label: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly seeds: number[];
  readonly errors: string[];
  /** The audit's verdicts over the seeds: "pass", or the failed checks (src/audit). */
  readonly audit: string;
  readonly values: Record<string, Value>;
}

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function label(params: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(params).map(
    ([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`,
  );
  return parts.join(" ");
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
      label: label(first.params),
      params: first.params,
      seeds: ok.map((r) => r.seed),
      errors: g.filter((r) => r.status === "error").map((r) => `seed ${r.seed}: ${r.error}`),
      audit: auditVerdict(ok),
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

/** Label of a result column such as `background.m2.reidentified`. */
export function columnOf(id: string, meta: RunMeta): Column | undefined {
  const dot = id.indexOf(".");
  try {
    const y = getYardstick(id.slice(0, dot));
    return y.columns(meta.options).find((c) => c.key === id.slice(dot + 1));
  } catch {
    return undefined;
  }
}

function fmt(v: Value | undefined, unit = ""): string {
  if (v === null || v === undefined) return '<span class="na">n/a</span>';
  if (v !== 0 && Math.abs(v) < 0.001) return `${v.toExponential(1)}${unit}`;
  const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 2 : 3;
  return `${v.toFixed(digits)}${unit}`;
}

async function frontierFigure(
  aggs: readonly Aggregate[],
  x: string,
  y: string,
  meta: RunMeta,
): Promise<string> {
  const cx = columnOf(x, meta);
  const cy = columnOf(y, meta);
  const pts = aggs
    .filter((a) => typeof a.values[x] === "number" && typeof a.values[y] === "number")
    .map((a) => ({
      method: a.method,
      label: a.label,
      privacy: a.values[x] as number,
      utility: a.values[y] as number,
    }));
  const title = `${cx?.label ?? x} vs ${cy?.label ?? y}`;
  if (pts.length === 0) {
    return `<p class="note">No configuration has both <code>${esc(x)}</code> and <code>${esc(y)}</code>; no frontier chart.</p>`;
  }
  const svg = await renderSvg(frontierSpec(markFrontier(pts), cx?.label ?? x, cy?.label ?? y));
  return `<figure class="chart" data-chart="frontier">${svg}<figcaption>Privacy–utility frontier: ${esc(title)}.</figcaption></figure>`;
}

async function barFigure(aggs: readonly Aggregate[], col: string, meta: RunMeta): Promise<string> {
  const c = columnOf(col, meta);
  const vals = aggs
    .filter((a) => typeof a.values[col] === "number")
    .map((a) => ({
      config: `${a.method} ${a.label}`.trim(),
      method: a.method,
      value: a.values[col] as number,
    }));
  if (vals.length === 0) return "";
  const svg = await renderSvg(barSpec(vals, c?.label ?? col));
  return `<figure class="chart" data-chart="bar">${svg}<figcaption>${esc(c?.label ?? col)} (${c?.better === "lower" ? "lower" : "higher"} is better).</figcaption></figure>`;
}

function methodTable(
  method: string,
  aggs: readonly Aggregate[],
  cols: readonly string[],
  meta: RunMeta,
): string {
  const m = methods.find((x) => x.name === method);
  const head = cols.map((c) => `<th title="${esc(c)}">${esc(columnOf(c, meta)?.label ?? c)}</th>`).join("");
  const body = aggs
    .map((a) => {
      const cells = cols.map((c) => `<td>${fmt(a.values[c], columnOf(c, meta)?.unit ?? "")}</td>`).join("");
      const err = a.errors.length ? `<div class="error">${esc(a.errors.join("; "))}</div>` : "";
      const audit = a.audit.startsWith("FAIL")
        ? `<td class="error">${esc(a.audit)}</td>`
        : `<td>${esc(a.audit)}</td>`;
      return `<tr><th scope="row">${esc(a.label || "(defaults)")}${err}</th><td>${a.seeds.length}</td>${audit}${cells}</tr>`;
    })
    .join("\n");
  return `<section class="method"><h3>${esc(method)}</h3>
<p>${esc(m?.summary ?? "")}${m ? ` <span class="paper">Paper: ${esc(m.paper)}</span>` : ""}</p>
<div class="scroll"><table><thead><tr><th>parameters</th><th>seeds</th><th title="querymask audit: does the release keep the method's promises?">audit</th>${head}</tr></thead><tbody>
${body}
</tbody></table></div></section>`;
}

/** Build the report's HTML text. */
export async function renderReport(rows: readonly ResultRow[], meta: RunMeta): Promise<string> {
  const aggs = aggregate(rows);
  const cols: string[] = [];
  for (const a of aggs) for (const k of Object.keys(a.values)) if (!cols.includes(k)) cols.push(k);
  const figures: string[] = [await frontierFigure(aggs, meta.frontier.privacy, meta.frontier.utility, meta)];
  const alt = { privacy: "background.m1.reidentified", utility: "retention.events" };
  if (alt.privacy !== meta.frontier.privacy || alt.utility !== meta.frontier.utility) {
    if (cols.includes(alt.privacy) && cols.includes(alt.utility)) {
      figures.push(await frontierFigure(aggs, alt.privacy, alt.utility, meta));
    }
  }
  const bars: string[] = [];
  for (const name of meta.yardsticks) {
    const first = cols.find(
      (c) => c.startsWith(`${name}.`) && aggs.some((a) => typeof a.values[c] === "number"),
    );
    if (first) bars.push(await barFigure(aggs, first, meta));
  }
  const byMethod = [...new Set(aggs.map((a) => a.method))];
  const yardstickDocs = meta.yardsticks
    .map((n) => getYardstick(n))
    .map(
      (y) => `<dt>${esc(y.title)} <span class="kind ${y.kind}">${y.kind}</span></dt>
<dd><p>${esc(y.guidance)}</p><p class="src">Columns: ${y
        .columns(meta.options)
        .map((c) => `<code>${esc(`${y.name}.${c.key}`)}</code> ${esc(c.label)}`)
        .join("; ")}. Source: ${esc(y.source)}.</p></dd>`,
    )
    .join("\n");
  const summary: [string, string][] = [
    ["log", meta.log.join(", ")],
    ["format", meta.format],
    ["records (rows)", meta.records.toLocaleString("en")],
    ["query events", meta.events.toLocaleString("en")],
    ["users", meta.users.toLocaleString("en")],
    ["distinct queries", meta.distinctQueries.toLocaleString("en")],
    ["click rows", meta.clicks.toLocaleString("en")],
    ["classified", meta.classified],
  ];
  const repro: [string, string][] = [
    ["config", meta.config],
    ["log SHA-256", meta.logSha256],
    ["seeds", meta.seeds.join(", ")],
    ["querymask version", meta.version],
    ["code version (source hash)", meta.codeVersion],
    ["Node.js", meta.node],
    ["yardstick options", JSON.stringify(meta.options)],
    ["started", meta.started],
    ["combinations computed / from cache", `${meta.computed} / ${meta.cached}`],
    ["run time", `${meta.seconds.toFixed(1)} s`],
  ];
  const kv = (pairs: [string, string][]) =>
    `<table class="kv">${pairs.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>querymask experiment report</title>
<style>${CSS}</style></head>
<body><main>
<h1>querymask experiment report</h1>
<p class="lead">${esc(INTRO)}</p>
${meta.notes.map((n) => `<p class="note">Note: ${esc(n)}</p>`).join("\n")}
<h2 id="data">Data</h2>
${kv(summary)}
<h2 id="frontier">Privacy–utility frontier</h2>
<p>${esc(FRONTIER)}</p>
${figures.join("\n")}
${pelSection(rows)}
<h2 id="yardsticks-charts">Each yardstick</h2>
${bars.join("\n")}
<h2 id="methods">Results by method</h2>
<p>${esc(SEEDS)} ${esc(NA)}</p>
${byMethod
  .map((m) =>
    methodTable(
      m,
      aggs.filter((a) => a.method === m),
      cols,
      meta,
    ),
  )
  .join("\n")}
<h2 id="guidance">How to read each yardstick</h2>
<dl>${yardstickDocs}</dl>
<h2 id="reproduce">Reproducibility</h2>
${kv(repro)}
<p>${
    meta.config.startsWith("(")
      ? "Rerun with <code>npm start</code>"
      : `Rerun with <code>querymask experiment ${esc(meta.config)} --out &lt;dir&gt;</code>`
  }; unchanged combinations are read from the cache.</p>
</main></body></html>
`;
}

/** Write the report atomically; returns its path. */
export async function writeReport(path: string, rows: readonly ResultRow[], meta: RunMeta): Promise<string> {
  const html = await renderReport(rows, meta);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, html);
  await rename(tmp, path);
  return path;
}

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0;background:#fafafa}
main{max-width:1100px;margin:0 auto;padding:1.5rem 2rem;background:#fff}
h1{margin-top:0}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.lead{font-size:1.05rem}.note{background:#fff7e0;border-left:4px solid #e0a800;padding:.4rem .8rem}
table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;vertical-align:top}
thead th{background:#f2f2f2;text-align:center}tbody th,.kv th{text-align:left;font-weight:600}.kv td{text-align:left;font-family:monospace}
.scroll{overflow-x:auto}.na{color:#999}.error{color:#b00;font-weight:normal;font-size:.8rem;max-width:28rem}
figure.chart{margin:1rem 0}figure.chart svg{max-width:100%;height:auto}figcaption{font-size:.85rem;color:#555}
.kind{font-size:.75rem;border-radius:3px;padding:0 .3rem;color:#fff}.kind.privacy{background:#7b3294}.kind.utility{background:#008837}
dt{font-weight:600;margin-top:.8rem}.src{font-size:.8rem;color:#555}.paper{color:#555;font-size:.85rem}
`;
