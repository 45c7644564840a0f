/**
 * Progress for library callers: one optional callback instead of the CLI's bar on stderr. Nothing in the API
 * prints; a caller that wants a bar draws it from these events.
 */
import { type Progress, silentProgress } from "../util/progress.ts";

/** What long work reports: a phase starts (`total` when known), advances, and stops. */
export type ProgressEvent =
  | { readonly type: "start"; readonly label: string; readonly total?: number }
  | { readonly type: "tick"; readonly label: string; readonly done: number; readonly total?: number }
  | { readonly type: "stop"; readonly label: string; readonly done: number };

export type ProgressCallback = (event: ProgressEvent) => void;

/** The internal {@link Progress} that forwards to `onProgress` (silent without one). */
export function progressOf(onProgress: ProgressCallback | undefined): Progress {
  if (onProgress === undefined) return silentProgress;
  let label = "";
  let total: number | undefined;
  let done = 0;
  let open = false;
  return {
    start(l, t) {
      if (open) onProgress({ type: "stop", label, done });
      label = l;
      total = t;
      done = 0;
      open = true;
      onProgress(t === undefined ? { type: "start", label } : { type: "start", label, total: t });
    },
    tick(n = 1) {
      done += n;
      onProgress(total === undefined ? { type: "tick", label, done } : { type: "tick", label, done, total });
    },
    stop() {
      if (!open) return;
      open = false;
      onProgress({ type: "stop", label, done });
    },
  };
}
