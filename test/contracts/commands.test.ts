/**
 * Commands agree: every command and subcommand takes `-q`; the commands that run a stream (`serve`, `cluster
 * run`) take a method's parameters as the same kebab-case flags as `anonymize`, each method's own.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Command } from "commander";
import { commands } from "../../src/cli/commands/index.ts";
import { buildProgram } from "../../src/cli/main.ts";
import { flagName } from "../../src/cli/param-flags.ts";
import { streamingMethods } from "../../src/methods/registry.ts";

/** Every command that runs an action: the leaves of the command tree. */
function leaves(c: Command, path: string[] = []): { path: string; cmd: Command }[] {
  if (c.commands.length === 0) return [{ path: path.join(" "), cmd: c }];
  return c.commands.flatMap((s) => leaves(s, [...path, s.name()]));
}

const longFlags = (c: Command) => new Set(c.options.map((o) => o.long));

test("every command and subcommand takes -q, --quiet", async () => {
  for (const entry of commands) {
    const program = await buildProgram(entry.name);
    const top = program.commands.find((c) => c.name() === entry.name)!;
    for (const { path, cmd } of leaves(top, [entry.name])) {
      const q = cmd.options.find((o) => o.long === "--quiet");
      assert.ok(q, `${path} has no --quiet`);
      assert.equal(q.short, "-q", `${path}: --quiet without -q`);
    }
  }
});

test("serve and cluster run take each streaming method's parameters as anonymize's flags", async () => {
  const flagsOf = async (name: string, sub?: string) => {
    const program = await buildProgram(name);
    let c = program.commands.find((x) => x.name() === name)!;
    if (sub) c = c.commands.find((x) => x.name() === sub)!;
    return longFlags(c);
  };
  const anonymize = await flagsOf("anonymize");
  for (const [name, sub] of [["serve"], ["cluster", "run"]] as const) {
    const flags = await flagsOf(name, sub);
    for (const m of streamingMethods) {
      for (const p of m.params.specs) {
        const flag = `--${flagName(p.name)}`;
        assert.ok(flags.has(flag), `${name} ${sub ?? ""}: no ${flag} (${m.name})`);
        assert.ok(anonymize.has(flag), `anonymize: no ${flag}`);
      }
    }
    assert.ok(flags.has("--params"), `${name}: JSON --params stays as an extra`);
  }
});
