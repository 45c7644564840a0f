/**
 * Input preparation, as a method declares it (src/methods/method.ts `InputDeclaration`): the text as typed, or
 * scrubbed as `querymask scrub` scrubs it, or scrubbed and classified as `querymask classify` does; the rules
 * that decide about one record from the others (a URL clicked by one user only) only where the method allows
 * cross-user evidence. The audit prepares the original it compares a release with by the same function.
 */
import type { KnowledgeService } from "../classify/service.ts";
import type { TextDomain } from "../log/declared.ts";
import type { QueryLog } from "../log/record.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import type { ScrubCounts } from "../scrub/scrub-log.ts";
import type { Progress } from "../util/progress.ts";

export interface Prepared {
  readonly log: QueryLog;
  /** What scrubbing did, when the log was scrubbed here. */
  readonly scrub?: ScrubCounts;
}

/** How `text` is reached from a log: "classified", "scrubbed", or "as-read" (raw, or already classified). */
export type Preparation = "classified" | "scrubbed" | "as-read";

/** The log prepared to `as` (see the module comment). */
export async function prepareLog(
  log: QueryLog,
  as: Preparation,
  opts: {
    readonly crossUser: boolean;
    readonly allow?: AllowList | undefined;
    /** Needed for "classified" (its classifier; its allow list wins over `allow`). */
    readonly knowledge?: KnowledgeService | undefined;
    readonly progress?: Progress;
  },
): Promise<Prepared> {
  if (as === "as-read") return { log };
  if (as === "scrubbed") {
    const [{ scrubLog }, { createScrubber }, { ClickUsers }] = await Promise.all([
      import("../scrub/scrub-log.ts"),
      import("../scrub/scrubber.ts"),
      import("../scrub/click-url.ts"),
    ]);
    opts.progress?.start("scrubbing identifiers");
    try {
      // The cross-user evidence (each clicked URL's users, each name's) only where the method allows it.
      const clicks = opts.crossUser ? new ClickUsers().add(log.records) : undefined;
      const r = await scrubLog(log, createScrubber({ allow: opts.allow, nameUsers: clicks?.names }), {
        singleUserClicks: opts.crossUser,
        ...(clicks !== undefined ? { clicks } : {}),
      });
      return { log: r.log, scrub: r.counts };
    } finally {
      opts.progress?.stop();
    }
  }
  // Classifying drops single-user clicks and reads each name's users, as `querymask classify` does: cross-user.
  if (!opts.crossUser)
    throw new Error("a classified input is prepared with cross-user evidence; this method allows none");
  const { classifyLog } = await import("../classify/classify-log.ts");
  const knowledge =
    opts.knowledge ??
    (await import("../classify/service.ts")).createKnowledgeService(undefined, undefined, opts.allow);
  return { log: classifyLog(await knowledge.classifier(), log, opts.progress).log };
}

/** The preparation a method declaring `text` gets for `log` (a classified log is already scrubbed). */
export function preparationFor(text: TextDomain, log: { readonly classified?: boolean }): Preparation {
  if (log.classified || text === "raw") return "as-read";
  return text;
}
