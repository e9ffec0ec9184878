import { readFileSync } from "node:fs";

/** The version of the `nlq` command: `version` of apps/cli/package.json (read once, at start-up). */
export function nlqVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
