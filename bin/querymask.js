#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the package works straight from a checkout (`npm ci` then
// `npx querymask …`). `npm run build` compiles to dist/ for anyone who prefers plain JavaScript.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv);
