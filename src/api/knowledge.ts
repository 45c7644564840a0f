/**
 * The knowledge service the API uses when a caller gives none: one per process, so the knowledge base and the
 * classifier (about a second and a few hundred MB to load) are loaded once however many calls need them. Its
 * first-use build notice is dropped: the API prints nothing (pass a service of your own to hear it).
 */
import { createKnowledgeService, type KnowledgeService } from "../classify/service.ts";

let shared: KnowledgeService | undefined;

export function knowledgeOr(given: KnowledgeService | undefined): KnowledgeService {
  if (given) return given;
  shared ??= createKnowledgeService(undefined, () => {});
  return shared;
}
