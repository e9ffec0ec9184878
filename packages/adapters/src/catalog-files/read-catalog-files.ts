import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { ConfigurationError } from "@nlq/engine";
import { decodeTextFile } from "./decode-text-file";
import { combineExternalDescriptions, type ExternalDescriptions } from "./external-descriptions";
import { parseBirdDescription } from "./parse-bird-description";
import { parseDefogDescription } from "./parse-defog-description";

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files.sort();
}

/**
 * Reads external catalog files from a file or a directory (searched recursively): every `*.csv` is a BIRD
 * description of the table named by the file (`database_description/<table>.csv`), every `*.json` with a
 * `table_metadata` object a defog description (its `glossary` returned in `glossaries`). Other files are ignored. Throws `ConfigurationError` when the path
 * does not exist or a JSON file cannot be parsed.
 */
export async function readCatalogFiles(location: string): Promise<ExternalDescriptions> {
  let files: string[];
  try {
    files = (await stat(location)).isDirectory() ? await listFiles(location) : [location];
  } catch (error) {
    throw new ConfigurationError(`catalog files not found: ${location}`, { cause: error });
  }
  const parts: ExternalDescriptions[] = [];
  for (const file of files) {
    const extension = path.extname(file).toLowerCase();
    if (extension !== ".csv" && extension !== ".json") continue;
    const text = decodeTextFile(await readFile(file));
    if (extension === ".csv") {
      parts.push({ tables: [], columns: parseBirdDescription(path.basename(file, path.extname(file)), text) });
      continue;
    }
    try {
      if (!text.includes("table_metadata")) continue;
      parts.push(parseDefogDescription(text, path.basename(file)));
    } catch (error) {
      throw new ConfigurationError(`cannot parse catalog file ${file}: ${(error as Error).message}`, { cause: error });
    }
  }
  return combineExternalDescriptions(parts);
}
