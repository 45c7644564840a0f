/**
 * Worker thread of the blocked variant: receives the taxonomy once, then blocks of profiles, and answers each
 * with its exact semantic MDAV partition (indices local to the block).
 */
import { parentPort } from "node:worker_threads";
import { CategorySpace } from "../../semantic/category-space.ts";
import type { Profile } from "../../semantic/profile.ts";
import { exactSemanticPartition } from "./partition-exact.ts";

export interface InitMessage {
  readonly type: "init";
  readonly parents: Int32Array;
  readonly depths: Uint8Array;
}
export interface BlockMessage {
  readonly type: "block";
  readonly id: number;
  readonly k: number;
  readonly profiles: Profile[];
}
export interface BlockAnswer {
  readonly id: number;
  readonly clusters: Int32Array[];
}

let space: CategorySpace | undefined;
parentPort?.on("message", (msg: InitMessage | BlockMessage) => {
  if (msg.type === "init") {
    space = new CategorySpace(msg.parents, msg.depths);
    return;
  }
  if (!space) throw new Error("block worker: block before init");
  const answer: BlockAnswer = { id: msg.id, clusters: exactSemanticPartition(space, msg.profiles, msg.k) };
  parentPort!.postMessage(answer);
});
