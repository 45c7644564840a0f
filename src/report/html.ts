/**
 * report.html: one self-contained file — inline CSS and inline SVG charts, no scripts, no network. Sections:
 * how to read it, the data summary, the privacy–utility frontier, one table per method, the yardsticks with
 * plain-language guidance, and what is needed to reproduce the run.
 */
import { writeFileAtomic } from "../log/atomic.ts";
import { methods } from "../methods/registry.ts";
import { getYardstick } from "../metrics/registry.ts";
import { type Aggregate, aggregate } from "./aggregate.ts";
import {
  barSpec,
  chartsAvailable,
  chartsMissingMessage,
  frontierSpec,
  markFrontier,
  methodColour,
  renderSvg,
} from "./charts.ts";
import { columnOf, esc, fmt, num } from "./format.ts";
import { FRONTIER, INTRO, NA, SEEDS } from "./guidance.ts";
import { pelSection } from "./pel.ts";
import type { ResultRow, RunMeta } from "./results.ts";
import { type Choice, choose, disagreements, type RiskMeasure, risk, riskMeasures } from "./summary.ts";

/** The frontier of every configuration on one risk measure against the utility column. */
async function frontierFigure(
  aggs: readonly Aggregate[],
  measure: RiskMeasure,
  y: string,
  meta: RunMeta,
): Promise<string> {
  const cy = columnOf(y, meta);
  const pts = aggs.flatMap((a) => {
    const privacy = risk(a, measure.id);
    const utility = a.values[y];
    if (privacy === null || typeof utility !== "number") return [];
    return [{ method: a.method, label: `${a.method} ${a.label}`.trim(), privacy, utility }];
  });
  const title = `${measure.label} vs ${cy?.label ?? y}`;
  if (pts.length === 0) {
    return `<p class="note">No configuration has both ${esc(measure.label)} and <code>${esc(y)}</code>; no frontier chart.</p>`;
  }
  const svg = await renderSvg(frontierSpec(markFrontier(pts), measure.label, cy?.label ?? y));
  return `<figure class="chart" data-chart="frontier" data-measure="${esc(measure.id)}">${svg}<figcaption>Privacy–utility frontier: ${esc(title)}.</figcaption></figure>`;
}

async function barFigure(aggs: readonly Aggregate[], col: string, meta: RunMeta): Promise<string> {
  const c = columnOf(col, meta);
  const vals = aggs
    .filter((a) => typeof a.values[col] === "number")
    .map((a) => ({
      config: `${a.method} ${a.label}`.trim(),
      method: a.method,
      value: a.values[col] as number,
      text: num(a.values[col] as number, c?.unit ?? ""),
    }));
  if (vals.length === 0) return "";
  const svg = await renderSvg(barSpec(vals, c?.label ?? col));
  return `<figure class="chart" data-chart="bar" data-col="${esc(col)}">${svg}<figcaption>${esc(c?.label ?? col)} (${c?.better === "lower" ? "lower" : "higher"} is better).</figcaption></figure>`;
}

/** The privacy or the utility columns of one method's configurations; columns n/a for all of them are named below. */
function kindTable(
  kind: "privacy" | "utility",
  aggs: readonly Aggregate[],
  cols: readonly string[],
  meta: RunMeta,
): string {
  const mine = cols.filter((c) => kindOf(c) === kind);
  const shown = mine.filter((c) => aggs.some((a) => typeof a.values[c] === "number"));
  const absent = mine.filter((c) => !shown.includes(c));
  const head = shown.map((c) => `<th title="${esc(c)}">${esc(columnOf(c, meta)?.label ?? c)}</th>`).join("");
  const body = aggs
    .map((a) => {
      const cells = shown
        .map((c) => {
          const col = columnOf(c, meta);
          const v = a.values[c];
          const over = col?.unit === "%" && typeof v === "number" && v > 100;
          return `<td data-col="${esc(c)}"${typeof v === "number" ? ` data-value="${v}"` : ""}>${fmt(v, col?.unit ?? "")}${over ? '<a class="over" href="#over-100">*</a>' : ""}</td>`;
        })
        .join("");
      const audit =
        kind === "privacy"
          ? `<td${a.audit.startsWith("FAIL") ? ' class="error"' : ""}>${esc(a.audit)}</td><td class="guarantee">${esc(a.guarantee)}</td>`
          : "";
      return `<tr data-method="${esc(a.method)}" data-params="${esc(JSON.stringify(a.params))}"><th scope="row">${esc(a.full)}</th>${audit}${cells}</tr>`;
    })
    .join("\n");
  const auditHead =
    kind === "privacy"
      ? '<th title="querymask audit: does the release keep the method\'s promises?">audit</th>' +
        '<th title="the privacy model the release claims by construction; the audit checks it where the files show it">guarantee</th>'
      : "";
  const na = absent.length
    ? `<p class="src">n/a for every configuration here: ${absent.map((c) => esc(columnOf(c, meta)?.label ?? c)).join("; ")}.</p>`
    : "";
  return `<table class="${kind}"><caption>${kind}</caption><thead><tr><th class="params">parameters</th>${auditHead}${head}</tr></thead><tbody>
${body}
</tbody></table>${na}`;
}

function kindOf(col: string): "privacy" | "utility" | undefined {
  try {
    return getYardstick(col.slice(0, col.indexOf("."))).kind;
  } catch {
    return undefined;
  }
}

function methodTable(
  method: string,
  aggs: readonly Aggregate[],
  cols: readonly string[],
  meta: RunMeta,
): string {
  const m = methods.find((x) => x.name === method);
  const seeds = [...new Set(aggs.map((a) => a.seeds.length))].join(" / ");
  const errs = aggs.flatMap((a) => a.errors.map((e) => `${a.full}: ${e}`));
  return `<section class="method" style="border-left-color:${methodColour(method)}"><h3>${esc(method)}</h3>
<p>${esc(m?.summary ?? "")}${m ? ` <span class="paper">Paper: ${esc(m.paper)}</span>` : ""} Seeds per configuration: ${esc(seeds)}.</p>
${errs.map((e) => `<p class="error">${esc(e)}</p>`).join("\n")}
${kindTable("privacy", aggs, cols, meta)}
${kindTable("utility", aggs, cols, meta)}
</section>`;
}

/** The top of the report: what to ship for the risk budget and why (two sentences), and disagreements. */
function decision(all: readonly Aggregate[], measures: readonly RiskMeasure[], meta: RunMeta): string {
  const { budget, utility } = meta.frontier;
  // Only a release is something to ship; a simulation (clientside) is shown as a what-if beside it.
  const kindOf = (method: string) => methods.find((m) => m.name === method)?.kind ?? "release";
  const aggs = all.filter((a) => kindOf(a.method) === "release");
  const simulations = all.filter((a) => kindOf(a.method) === "simulation");
  const chosen = measures.find((m) => m.id === meta.frontier.privacy) ?? {
    id: meta.frontier.privacy,
    label: columnOf(meta.frontier.privacy, meta)?.label ?? meta.frontier.privacy,
  };
  const uLabel = columnOf(utility, meta)?.label ?? utility;
  const name = (c: Choice<Aggregate>) => `<strong>${esc(c.config.method)}</strong> (${esc(c.config.full)})`;
  const onOne = choose(aggs, [chosen], utility, budget);
  const anyAudit = choose(
    aggs.map((a) => ({ ...a, audit: "" })),
    [chosen],
    utility,
    budget,
  );
  const others = measures.filter((m) => m.id !== chosen.id);
  const onAll = choose(aggs, [chosen, ...others], utility, budget);
  const budgetText = `${esc(String(budget))}% on ${esc(chosen.label)}`;
  let first: string;
  let second: string;
  if (!onOne) {
    first = `No configuration whose audit passes stays within a risk budget of ${budgetText}.`;
    second = "Raise the budget (frontier.budget in the config) or add stronger settings to the grid.";
  } else {
    first = `For a risk budget of ${budgetText}, ship ${name(onOne)}: it keeps ${esc(num(onOne.utility, "%"))} on ${esc(uLabel)}, the most of any configuration within that budget whose audit does not fail, at ${esc(num(onOne.risk, "%"))} risk.`;
    const worst = measures
      .map((m) => ({ m, v: risk(onOne.config, m.id) }))
      .filter((x): x is { m: RiskMeasure; v: number } => x.v !== null)
      .sort((a, b) => b.v - a.v)[0];
    const failed =
      anyAudit && anyAudit.utility > onOne.utility
        ? aggs.find((a) => a.method === anyAudit.config.method && a.full === anyAudit.config.full)
        : undefined;
    if (failed) {
      second = `${name({ ...anyAudit!, config: failed })} would keep more (${esc(num(anyAudit!.utility, "%"))}) but its audit fails (${esc(failed.audit.replace(/^FAIL: /, ""))}): fix that first (its table and results.json name the violations).`;
    } else if (!worst || worst.v <= budget) {
      second = `Every other privacy measure agrees: its worst is ${worst ? `${esc(num(worst.v, "%"))} (${esc(worst.m.label)})` : "n/a"}, within the budget.`;
    } else if (onAll) {
      second = `But ${esc(worst.m.label)} puts it at ${esc(num(worst.v, "%"))}; within ${esc(String(budget))}% on every privacy measure, the best is ${name(onAll)}, keeping ${esc(num(onAll.utility, "%"))}.`;
    } else {
      second = `But ${esc(worst.m.label)} puts it at ${esc(num(worst.v, "%"))}, and no configuration stays within ${esc(String(budget))}% on every privacy measure.`;
    }
  }
  const whatIf =
    simulations.length === 0 ? "" : ` ${whatIfText(simulations, chosen, utility, budget, budgetText)}`;
  return `<section id="decision" class="decision"><h2>What to ship</h2><p>${first} ${second}${whatIf}</p></section>`;
}

/** The sentence on simulated protections (clientside): what the engine would see, not a release to ship. */
function whatIfText(
  simulations: readonly Aggregate[],
  chosen: RiskMeasure,
  utility: string,
  budget: number,
  budgetText: string,
): string {
  const best = choose(simulations, [chosen], utility, budget);
  const what =
    "is not a release a data team can apply to a log it holds: it is what the engine would see if its users ran the protocol";
  if (!best)
    return `What-if: client-side protection ${what}, and no setting of it stays within ${budgetText}.`;
  return `What-if: client-side protection ${what}; within ${budgetText}, <strong>${esc(best.config.method)}</strong> (${esc(best.config.full)}) would keep ${esc(num(best.utility, "%"))} at ${esc(num(best.risk, "%"))} risk.`;
}

function disagreementList(
  aggs: readonly Aggregate[],
  measures: readonly RiskMeasure[],
  budget: number,
): string {
  const ds = disagreements(aggs, measures, budget);
  if (ds.length === 0) {
    return `<p>The privacy measures agree: no configuration is within ${esc(String(budget))}% on one and over it on another.</p>`;
  }
  const item = (d: (typeof ds)[number]) => {
    const a = d.config;
    const list = (xs: typeof d.safe) =>
      xs.map((x) => `${esc(x.measure.label)} ${esc(num(x.value, "%"))}`).join(", ");
    return `<li><strong>${esc(a.method)}</strong> ${esc(a.label || a.full)}: within the budget on ${list(d.safe)}; over it on ${list(d.unsafe)}.</li>`;
  };
  return `<div class="disagree"><p><strong>The measures disagree</strong> (budget ${esc(String(budget))}%): a configuration that looks safe on one measure is not safe on another; trust the highest.</p><ul>${ds.map(item).join("")}</ul></div>`;
}

/** One frontier per risk measure, chosen with radio buttons (CSS only: the report runs no script). */
function frontierTabs(measures: readonly RiskMeasure[], figures: readonly string[], chosen: string): string {
  if (measures.length === 0) return figures.join("\n");
  const tabs = measures
    .map(
      (m, i) =>
        `<input type="radio" name="frontier" id="fr-${i}"${m.id === chosen || (i === 0 && !measures.some((x) => x.id === chosen)) ? " checked" : ""}><label for="fr-${i}">${esc(m.label)}</label>`,
    )
    .join("");
  const panes = figures.map((f, i) => `<div class="pane" id="pane-${i}">${f}</div>`).join("\n");
  const css = measures
    .map((_, i) => `#fr-${i}:checked~.panes #pane-${i}{display:block}#fr-${i}:checked+label{background:#ddd}`)
    .join("");
  return `<style>${css}</style><div class="tabs"><p class="src">Privacy measure on the horizontal axis:</p>${tabs}<div class="panes">${panes}</div></div>`;
}

const OVER_100 =
  "A percentage over 100 (marked *) is not an error. The ad measures of Burghardt et al. 2010 sum, over users, the value of the " +
  "distinct terms in each user's history; a method that moves queries between users (swap) spreads a term over " +
  "users who never typed it, so the same term is counted in more histories than in the original. Above 100% " +
  "means the release would overstate ad value per user, not that it holds more data.";

/** The frontier charts, one per risk measure (tabs), and one bar chart per yardstick. */
async function charts(
  aggs: readonly Aggregate[],
  cols: readonly string[],
  measures: readonly RiskMeasure[],
  meta: RunMeta,
): Promise<{ frontier: string; bars: string }> {
  const frontiers: string[] = [];
  for (const m of measures) frontiers.push(await frontierFigure(aggs, m, meta.frontier.utility, meta));
  if (measures.length === 0) {
    const id = meta.frontier.privacy;
    frontiers.push(
      await frontierFigure(aggs, { id, label: columnOf(id, meta)?.label ?? id }, meta.frontier.utility, meta),
    );
  }
  const bars: string[] = [];
  for (const name of meta.yardsticks) {
    const first = cols.find(
      (c) => c.startsWith(`${name}.`) && aggs.some((a) => typeof a.values[c] === "number"),
    );
    if (first) bars.push(await barFigure(aggs, first, meta));
  }
  return { frontier: frontierTabs(measures, frontiers, meta.frontier.privacy), bars: bars.join("\n") };
}

/**
 * Build the report's HTML text. Without the chart packages (optional peers) the report has its tables and, in
 * place of the charts, a note saying how to install them; `warn` gets the same line.
 */
export async function renderReport(
  rows: readonly ResultRow[],
  meta: RunMeta,
  warn?: (line: string) => void,
): Promise<string> {
  const aggs = aggregate(rows);
  const cols: string[] = [];
  for (const a of aggs) for (const k of Object.keys(a.values)) if (!cols.includes(k)) cols.push(k);
  const measures = riskMeasures(aggs, meta.options.backgroundM, (id) => columnOf(id, meta)?.label ?? id);
  let figures: { frontier: string; bars: string };
  if (await chartsAvailable()) figures = await charts(aggs, cols, measures, meta);
  else {
    const missing = chartsMissingMessage();
    warn?.(`report: no charts: ${missing}`);
    figures = {
      frontier: `<p class="note" id="no-charts">No charts: ${esc(missing)}. The tables below hold every figure.</p>`,
      bars: `<p class="note">No charts (see <a href="#no-charts">above</a>).</p>`,
    };
  }
  const over100 = aggs.some((a) =>
    Object.entries(a.values).some(
      ([c, v]) => typeof v === "number" && v > 100 && columnOf(c, meta)?.unit === "%",
    ),
  );
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
${decision(aggs, measures, meta)}
<p class="lead">${esc(INTRO)}</p>
${meta.notes.map((n) => `<p class="note">Note: ${esc(n)}</p>`).join("\n")}
<h2 id="data">Data</h2>
${kv(summary)}
<h2 id="frontier">Privacy–utility frontier</h2>
<p>${esc(FRONTIER)}</p>
${disagreementList(aggs, measures, meta.frontier.budget)}
${figures.frontier}
${pelSection(rows)}
<h2 id="yardsticks-charts">Each yardstick</h2>
${figures.bars}
<h2 id="methods">Results by method</h2>
<p>${esc(SEEDS)} ${esc(NA)}</p>
${over100 ? `<p class="note" id="over-100">${esc(OVER_100)}</p>` : ""}
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

/** Write the report atomically; returns its path. `warn`: see {@link renderReport}. */
export async function writeReport(
  path: string,
  rows: readonly ResultRow[],
  meta: RunMeta,
  warn?: (line: string) => void,
): Promise<string> {
  const html = await renderReport(rows, meta, warn);
  await writeFileAtomic(path, html);
  return path;
}

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0;background:#fafafa}
main{max-width:1100px;margin:0 auto;padding:1.5rem 2rem;background:#fff}
h1{margin-top:0}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.lead{font-size:1.05rem}.note{background:#fff7e0;border-left:4px solid #e0a800;padding:.4rem .8rem}
table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;vertical-align:top}
thead th{background:#f2f2f2;text-align:center}tbody th,.kv th{text-align:left;font-weight:600}.kv td{text-align:left;font-family:monospace}
.scroll{overflow-x:auto}table.privacy,table.utility{width:100%;table-layout:fixed;margin:.6rem 0}
table caption{text-align:left;font-weight:600;color:#555}th.params{width:17%}tbody th{overflow-wrap:anywhere;font-weight:normal;font-family:monospace;font-size:.78rem}
thead th{overflow-wrap:break-word;hyphens:auto;font-size:.75rem;font-weight:600}section.method{border-left:6px solid #ccc;padding-left:.8rem}
.decision{background:#eef6ee;border-left:4px solid #008837;padding:.2rem 1rem;margin-bottom:1rem}.decision h2{margin-top:.6rem;border:0}
.disagree{background:#fdecea;border-left:4px solid #b00;padding:.2rem 1rem}.over{text-decoration:none;color:#b00}
.tabs input{position:absolute;opacity:0}.tabs label{display:inline-block;border:1px solid #ccc;border-radius:3px;padding:.1rem .5rem;margin:0 .3rem .3rem 0;cursor:pointer;font-size:.85rem}
.panes .pane{display:none}.na{color:#999}.error{color:#b00;font-weight:normal;font-size:.8rem;max-width:28rem}
figure.chart{margin:1rem 0}figure.chart svg{max-width:100%;height:auto}figcaption{font-size:.85rem;color:#555}
.kind{font-size:.75rem;border-radius:3px;padding:0 .3rem;color:#fff}.kind.privacy{background:#7b3294}.kind.utility{background:#008837}
dt{font-weight:600;margin-top:.8rem}.src{font-size:.8rem;color:#555}.paper{color:#555;font-size:.85rem}
`;
