/**
 * Every command takes `-q, --quiet` (the README says so): each command a user can run — every leaf of the command
 * tree, `kb build` and `cluster worker classify` as much as `stats` — declares it, and parses it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Command } from "commander";
import { commands } from "../../src/cli/commands/index.ts";
import { buildProgram } from "../../src/cli/main.ts";

/** The commands of `c`'s tree that run something (no subcommands of their own), by their full names. */
function leaves(c: Command, path: string[] = []): { name: string; command: Command }[] {
  const here = [...path, c.name()];
  if (c.commands.length === 0) return [{ name: here.join(" "), command: c }];
  return c.commands.flatMap((s) => leaves(s, here));
}

test("every command a user can run declares -q, --quiet", async () => {
  const missing: string[] = [];
  let checked = 0;
  for (const entry of commands) {
    const program = await buildProgram(entry.name);
    const top = program.commands.find((c) => c.name() === entry.name);
    assert.ok(top, entry.name);
    for (const { name, command } of leaves(top)) {
      checked++;
      const q = command.options.find((o) => o.short === "-q");
      if (q?.long !== "--quiet") missing.push(name);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(checked > commands.length, `${checked} commands checked`);
});

test("and parses it: -q is never an unknown option", async () => {
  for (const entry of commands) {
    const program = await buildProgram(entry.name);
    const top = program.commands.find((c) => c.name() === entry.name)!;
    for (const { command } of leaves(top)) {
      // Parse the options alone (no action runs): an unknown -q would throw here.
      command.exitOverride();
      const parsed = command.parseOptions(["-q"]);
      assert.deepEqual(parsed.unknown, [], `${command.name()}: -q unknown`);
      assert.equal(command.opts().quiet, true, command.name());
    }
  }
});
