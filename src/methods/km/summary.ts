/** km's release summary: the method's counts, then paper 003's measures that apply, and the guarantee. */
import type { Release } from "../method.ts";
import type { Retained } from "./measures.ts";
import type { KmParams } from "./meta.ts";

/** The release's counts (the method's, then paper 003's measures that apply) and guarantee. */
export function kmRelease(
  r: { readonly counts: Record<string, number>; readonly retained: Retained },
  params: KmParams,
  held: Pick<Release, "log" | "origin">,
): Release {
  {
    const kept = r.retained;
    const counts: Record<string, number> = { ...r.counts };
    const measures: [string, number | null][] = [
      ["% log size", kept.logSize],
      ["% users", kept.users],
      ["% clicks", kept.clicks],
      ["% impressions", kept.impressions],
      ["% bid", kept.bid],
      ["% revenue", kept.revenue],
    ];
    for (const [name, value] of measures) if (value !== null) counts[name] = value;
    return { ...held, counts, guarantee: { model: "km-anonymity", k: params.k, m: params.m } };
  }
}
