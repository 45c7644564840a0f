/**
 * Worker-thread side of {@link ClassifyThreads} (./threads.ts): builds its own classifier from the options in
 * `workerData` (no result cache: the main thread keeps the answers), then classifies (or assesses, for the log
 * context) each list of queries it is sent and posts the answers back in the same order, with the request's id.
 */
import { parentPort, workerData } from "node:worker_threads";
import { NameUsers } from "../scrub/name-users.ts";
import {
  classifierOf,
  type ThreadEvidence,
  type ThreadRequest,
  type ThreadResponse,
  type ThreadSettings,
} from "./threads.ts";

let classifier = await classifierOf(workerData as ThreadSettings, 0);
const port = parentPort!;
port.on("message", (req: ThreadRequest | ThreadEvidence) => {
  // (the log's name evidence, counted by the main thread's first pass, arrives before any query)
  if ("nameUsers" in req) {
    classifier = classifier.withNameUsers(NameUsers.fromJSON(req.nameUsers));
    return;
  }
  const results =
    req.kind === "assess"
      ? req.queries.map((q) => classifier.assess(q))
      : req.queries.map((q) => classifier.classify(q, false));
  port.postMessage({ id: req.id, results } satisfies ThreadResponse);
});
port.postMessage({ id: -1, results: [] } satisfies ThreadResponse);
