#!/usr/bin/env node
// The `nlq` command. Runs the TypeScript sources through tsx's loader (no build step).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
