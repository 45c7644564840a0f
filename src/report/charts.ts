/**
 * Charts for the report: vega-lite specs compiled and rendered to SVG in-process (vega's headless "none"
 * renderer), so the report carries inline SVG and needs no script or network when opened.
 */
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/** Render a vega-lite spec to an SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const vg = compile(spec).spec;
  const view = new View(parse(vg), { renderer: "none" });
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

/** Scatter of every configuration, coloured by method, with the frontier drawn as a step line. */
export function frontierSpec(points: readonly FrontierPoint[], xTitle: string, yTitle: string): TopLevelSpec {
  const front = points.filter((p) => p.frontier).sort((a, b) => a.privacy - b.privacy);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    height: 340,
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
          color: { field: "method", type: "nominal", title: "method" },
          shape: { field: "method", type: "nominal", title: "method" },
        },
      },
      {
        data: { values: points.map((p) => ({ ...p })) },
        mark: { type: "text", dx: 8, align: "left", fontSize: 9, color: "#444" },
        encoding: {
          x: { field: "privacy", type: "quantitative" },
          y: { field: "utility", type: "quantitative" },
          text: { field: "label", type: "nominal" },
        },
      },
    ],
  };
}

/** Grouped bars: one value per configuration, for one yardstick column. */
export function barSpec(
  values: readonly { config: string; method: string; value: number }[],
  title: string,
): TopLevelSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 560,
    height: Math.max(60, 18 * values.length),
    data: { values: values.map((v) => ({ ...v })) },
    mark: { type: "bar" },
    encoding: {
      y: { field: "config", type: "nominal", title: null, sort: null },
      x: { field: "value", type: "quantitative", title },
      color: { field: "method", type: "nominal", title: "method" },
    },
  };
}
