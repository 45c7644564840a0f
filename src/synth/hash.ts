/**
 * Small integer hashes for the generator's pure functions (query text from (salt, category, rank), result URLs
 * from (salt, query, rank)). They are not randomness sources: their inputs carry salts drawn from the run's Rng.
 */

export { hashString } from "../util/hash.ts";
