/**
 * Worker-thread side of the experiment runner: receives the prepared input once (in `workerData`), then runs
 * the combinations it is sent one at a time and posts each {@link ResultRow} back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type Categorizer, loadClassifier } from "../classify/categorize.ts";
import { createKnowledgeService } from "../classify/service.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import type { YardstickOptions } from "../metrics/yardstick.ts";
import type { Combination } from "./config.ts";
import { type PreparedInput, runCombination } from "./run-one.ts";

export interface WorkerInit {
  readonly records: LogRecord[];
  readonly format: QueryLog["format"];
  readonly classified: boolean;
  /** The logs of the other preparations (`records` absent: the same as `records` above). */
  readonly prepared: readonly {
    readonly key: string;
    readonly records?: LogRecord[];
    readonly classified: boolean;
  }[];
  readonly useClassifier: boolean;
  readonly yardsticks: readonly string[];
  readonly options: YardstickOptions;
  /** The allow list's phrases (`AllowList.entries`), when the config has one. */
  readonly allow?: readonly string[];
}

export interface WorkerTask {
  readonly combo: Combination;
  readonly key: string;
}

async function start(): Promise<void> {
  const init = workerData as WorkerInit;
  let loading: Promise<Categorizer | undefined> | undefined;
  const allow =
    init.allow === undefined ? undefined : (await import("../scrub/allow-list.ts")).AllowList.of(init.allow);
  const knowledge = createKnowledgeService(undefined, undefined, allow);
  const log: QueryLog = { records: init.records, format: init.format, classified: init.classified };
  const input: PreparedInput = {
    log,
    prepared: new Map(
      init.prepared.map((p) => [
        p.key,
        p.records === undefined ? log : { records: p.records, format: init.format, classified: p.classified },
      ]),
    ),
    categorizer: init.useClassifier
      ? () => {
          loading ??= loadClassifier(knowledge).then((c) => c.categorize);
          return loading;
        }
      : undefined,
    knowledge,
  };
  parentPort!.on("message", async (task: WorkerTask | null) => {
    if (task === null) {
      parentPort!.close();
      return;
    }
    const row = await runCombination(input, task.combo, task.key, init.yardsticks, init.options);
    parentPort!.postMessage(row);
  });
  parentPort!.postMessage("ready");
}

void start();
