/**
 * Charts for the report: vega-lite specs compiled and rendered to SVG in-process (vega's headless "none"
 * renderer), so the report carries inline SVG and needs no script or network when opened. vega and vega-lite
 * (~25 MB with their d3 tree) are optional peers, loaded on the first chart: without them the report is written
 * with its tables and a note saying how to install them.
 */
import { readFileSync } from "node:fs";
import type { TopLevelSpec } from "vega-lite";
import { methods } from "../methods/registry.ts";

/** One colour per method, the same in every chart of every report: fixed by the methods registry's order. */
const PALETTE = [
  "#d62728",
  "#1f77b4",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#17becf",
  "#393b79",
  "#637939",
];

/** The colour of `method` (a name not in the registry gets the last, grey-green one). */
export function methodColour(method: string): string {
  const i = methods.findIndex((m) => m.name === method);
  return PALETTE[i >= 0 ? i % PALETTE.length : PALETTE.length - 1]!;
}

/** A colour scale that maps each method present to its fixed colour (same domain order in every chart). */
function colourScale(present: Iterable<string>): { domain: string[]; range: string[] } {
  const names = [...new Set(present)].sort(
    (a, b) => methods.findIndex((m) => m.name === a) - methods.findIndex((m) => m.name === b),
  );
  return { domain: names, range: names.map(methodColour) };
}

/** The packages that draw the charts, optional peers of querymask. */
export const CHART_PACKAGES = ["vega", "vega-lite"] as const;

interface Renderer {
  readonly vega: typeof import("vega");
  readonly vegaLite: typeof import("vega-lite");
}

/** Loaded once; undefined when a chart package is not installed. */
let renderer: Promise<Renderer | undefined> | undefined;

/** Whether `err` says that one of {@link CHART_PACKAGES} itself is not installed (not a package they import). */
function chartPackageMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND") return false;
  const name = /Cannot find package '([^']+)'/.exec((err as Error).message)?.[1];
  return (CHART_PACKAGES as readonly string[]).includes(name ?? "");
}

async function loadRenderer(): Promise<Renderer | undefined> {
  try {
    const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]);
    return { vega, vegaLite };
  } catch (e) {
    if (chartPackageMissing(e)) return undefined;
    throw e;
  }
}

/**
 * Why the report has no charts, when it has none: the packages to install, with the ranges querymask's manifest
 * gives them (`npm install vega@"^6.4.0" vega-lite@"~6.4"`).
 */
export function chartsMissingMessage(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const specs = CHART_PACKAGES.map((p) => {
    const range = manifest.peerDependencies?.[p];
    return range === undefined ? p : `${p}@${JSON.stringify(range)}`;
  });
  return `the report's charts need ${CHART_PACKAGES.join(" and ")}, which are not installed with querymask: npm install ${specs.join(" ")}`;
}

/** Whether the chart packages are installed (loads them, once). */
export async function chartsAvailable(): Promise<boolean> {
  renderer ??= loadRenderer();
  return (await renderer) !== undefined;
}

/** Render a vega-lite spec to an SVG string (see {@link chartsAvailable}: an error without the chart packages). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  renderer ??= loadRenderer();
  const r = await renderer;
  if (r === undefined) throw new Error(chartsMissingMessage());
  const vg = r.vegaLite.compile(spec).spec;
  const view = new r.vega.View(r.vega.parse(vg), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export interface FrontierPoint {
  readonly method: string;
  readonly label: string;
  readonly privacy: number;
  readonly utility: number;
  /** On the privacy–utility frontier (no other point is at least as good on both and better on one). */
  readonly frontier: boolean;
}

/** Mark the non-dominated points: lower privacy risk and higher utility are better. */
export function markFrontier(points: readonly Omit<FrontierPoint, "frontier">[]): FrontierPoint[] {
  return points.map((p) => ({
    ...p,
    frontier: !points.some(
      (q) =>
        q !== p &&
        q.privacy <= p.privacy &&
        q.utility >= p.utility &&
        (q.privacy < p.privacy || q.utility > p.utility),
    ),
  }));
}

/**
 * Where each point's label goes: beside its point, moved down a line at a time while it would overlap a label
 * already placed (swap k=3 and k=10 sit close together). Positions are estimated on the plot's 560×340 px with
 * 9-px text; `labelY` is the label's height in data units.
 */
function placeLabels(points: readonly FrontierPoint[], maxX: number): (FrontierPoint & { labelY: number })[] {
  const maxY = Math.max(1e-9, ...points.map((p) => p.utility));
  const sx = 560 / Math.max(1e-9, maxX);
  const sy = 340 / maxY;
  const placed: { x0: number; x1: number; y: number }[] = [];
  const order = [...points].sort((a, b) => b.utility - a.utility || a.privacy - b.privacy);
  const at = new Map<FrontierPoint, number>();
  for (const p of order) {
    const width = 5 * p.label.length + 8;
    const px = p.privacy * sx;
    const right = p.privacy > 0.66 * maxX;
    const x0 = right ? px - width : px;
    const x1 = right ? px : px + width;
    let y = (maxY - p.utility) * sy;
    while (placed.some((q) => q.x0 < x1 && x0 < q.x1 && Math.abs(q.y - y) < 10)) y += 10;
    placed.push({ x0, x1, y });
    at.set(p, maxY - y / sy);
  }
  return points.map((p) => ({ ...p, labelY: at.get(p)! }));
}

/** Scatter of every configuration, coloured by method, with the frontier drawn as a step line. */
export function frontierSpec(points: readonly FrontierPoint[], xTitle: string, yTitle: string): TopLevelSpec {
  const front = points.filter((p) => p.frontier).sort((a, b) => a.privacy - b.privacy);
  const maxX = Math.max(0, ...points.map((p) => p.privacy));
  const labelled = placeLabels(points, maxX);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    height: 340,
    config: { legend: { orient: "bottom" } },
    layer: [
      {
        data: { values: front.map((p) => ({ ...p })) },
        mark: { type: "line", interpolate: "step-after", color: "#999", strokeDash: [4, 3] },
        encoding: {
          x: { field: "privacy", type: "quantitative", title: xTitle },
          y: { field: "utility", type: "quantitative", title: yTitle },
        },
      },
      {
        data: { values: points.map((p) => ({ ...p })) },
        mark: { type: "point", filled: true, size: 90, opacity: 0.85 },
        encoding: {
          x: { field: "privacy", type: "quantitative", title: xTitle },
          y: { field: "utility", type: "quantitative", title: yTitle },
          color: {
            field: "method",
            type: "nominal",
            title: "method",
            scale: colourScale(points.map((p) => p.method)),
          },
          shape: { field: "method", type: "nominal", title: "method" },
        },
      },
      // Labels left of the point in the right third of the plot, so that none runs past the edge.
      ...[true, false].map((right) => ({
        data: { values: labelled.filter((p) => p.privacy > 0.66 * maxX === right) },
        mark: {
          type: "text" as const,
          dx: right ? -8 : 8,
          align: right ? ("right" as const) : ("left" as const),
          fontSize: 9,
          color: "#444",
        },
        encoding: {
          x: { field: "privacy", type: "quantitative" as const },
          y: { field: "labelY", type: "quantitative" as const },
          text: { field: "label", type: "nominal" as const },
        },
      })),
    ],
  };
}

/**
 * Horizontal bars: one value per configuration, for one yardstick column, each with its value written at the
 * bar's end, so a zero is a visible "0" (and a tick) rather than a missing bar.
 */
export function barSpec(
  values: readonly { config: string; method: string; value: number; text: string }[],
  title: string,
): TopLevelSpec {
  const y = { field: "config", type: "nominal" as const, title: null, sort: null, axis: { labelLimit: 320 } };
  const x = { field: "value", type: "quantitative" as const, title };
  const colour = {
    field: "method",
    type: "nominal" as const,
    title: "method",
    scale: colourScale(values.map((v) => v.method)),
  };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 480,
    height: Math.max(60, 20 * values.length),
    data: { values: values.map((v) => ({ ...v })) },
    layer: [
      { mark: { type: "bar" }, encoding: { y, x, color: colour } },
      {
        transform: [{ filter: "datum.value === 0" }],
        mark: { type: "tick", orient: "vertical", thickness: 2 },
        encoding: { y, x, color: { ...colour, legend: null } },
      },
      {
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#222" },
        encoding: { y, x, text: { field: "text", type: "nominal" } },
      },
    ],
  };
}
