/**
 * Whether a release has the shape an attack was designed for. The de-anonymizers of paper 000 model the swap
 * release: the same users as the original, each with as many query events as they issued (the swap moves events
 * between users of a bucket, one for one). On a release of another shape — an mdav cluster log, a thresholded or
 * suppressed log — their figure measures something else, and the command says so.
 */
import { groupEvents } from "../log/events.ts";
import type { LogRecord } from "../log/record.ts";

export interface ReleaseShape {
  /** Users of the original log. */
  readonly users: number;
  /** Users of the original whose number of query events in the release equals the original's. */
  readonly sameEventCount: number;
  /** Users of the release who are not users of the original. */
  readonly foreignUsers: number;
}

function eventsPerUser(records: readonly LogRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of groupEvents(records)) out.set(e.user, (out.get(e.user) ?? 0) + 1);
  return out;
}

export function releaseShape(original: readonly LogRecord[], released: readonly LogRecord[]): ReleaseShape {
  const before = eventsPerUser(original);
  const after = eventsPerUser(released);
  let same = 0;
  for (const [user, n] of before) if ((after.get(user) ?? 0) === n) same++;
  let foreign = 0;
  for (const user of after.keys()) if (!before.has(user)) foreign++;
  return { users: before.size, sameEventCount: same, foreignUsers: foreign };
}

/**
 * Why a release does not look like a swap release, or undefined when it does: no foreign users and at least
 * 95% of the users with their own number of events (the end-of-stream suppression may shorten a few).
 */
export function notSwapShaped(shape: ReleaseShape): string | undefined {
  if (shape.foreignUsers > 0)
    return `${shape.foreignUsers.toLocaleString("en")} released users are not users of the original`;
  if (shape.sameEventCount < 0.95 * shape.users) {
    return `only ${shape.sameEventCount.toLocaleString("en")} of ${shape.users.toLocaleString("en")} users keep their number of query events`;
  }
  return undefined;
}
