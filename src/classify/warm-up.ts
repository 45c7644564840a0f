/**
 * The classifier loads parts of itself on its first queries (~1.7 CPU-s): a long-running process (a classify
 * worker, the service) pays that before it takes work.
 */
import type { Categorize } from "./categorize.ts";

/** Queries that take the classifier down its lazily loaded paths (place names, spelling, the language model). */
const WARM_UP = ["weather in new york", "john smith", "britney spears lyrics", "cheap flihgts to paris"];

export function warmUp(categorize: Categorize): void {
  for (const query of WARM_UP) categorize({ user: "", query, time: 0 });
}
