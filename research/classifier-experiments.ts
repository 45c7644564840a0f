/**
 * Reproduces the figures of the learned layer's experiments that were measured and not kept (docs/classifier.md,
 * sessions 9–13): each adds one signal to the shipped features and reports 5-fold cross-validated accuracy on
 * ../shared/data/labels/train.tsv (same folds as `npm run eval:classifier`, seed 1), mean ± sd over folds.
 *
 *   node --import tsx scripts/classifier-experiments.ts <name>… [--no-regional]
 *
 * Experiments, in the order they run (one file each under scripts/classifier-experiments/, whose doc comment
 * says what it measures; the registry is scripts/classifier-experiments/index.ts): baseline, prototypes, weak
 * (`--no-regional`), knn, classweights, seeds, clicks, sessions, confusion, names, namevectors, depth2, namedf,
 * selftrain (SELFTRAIN_CONFIGS), hidden (HIDDEN_UNITS), maxpool (MAXPOOL_SCALES), clickprop (CLICKPROP_CONFIGS),
 * clickrounds, sessionprop (SESSIONPROP_MINUTES), …, hostprop (HOSTPROP_CONFIGS), hostfeat. An
 * unknown name exits 2 with the list.
 *
 * Reads ../shared/data at run time only and prints figures; it writes nothing. Labelled queries are never shown.
 */
import { main } from "./classifier-experiments/index.ts";

process.exitCode = await main(process.argv.slice(2));
