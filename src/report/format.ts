/** How the report writes values: escaped text, numbers with separators, result columns' labels. */
import { getYardstick } from "../metrics/registry.ts";
import type { Column, Value } from "../metrics/yardstick.ts";
import type { RunMeta } from "./results.ts";

/** Text for HTML: the five characters that could open markup or end an attribute, as character references. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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

/** A number as the report writes it: thousands separators, 1–3 decimals by size, tiny values in e-notation. */
export function num(v: number, unit = ""): string {
  if (v === 0) return `0${unit}`;
  if (Math.abs(v) < 0.001) return `${v.toExponential(1)}${unit}`;
  const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 2 : 3;
  return `${v.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits })}${unit}`;
}

export function fmt(v: Value | undefined, unit = ""): string {
  if (v === null || v === undefined) return '<span class="na">n/a</span>';
  return esc(num(v, unit));
}
