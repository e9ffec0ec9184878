import { NlqError } from "@nlq/engine";

const knowledgeImportErrorMarker = Symbol.for("nlq.error.KnowledgeImportError");

/**
 * A knowledge file (a dbt `manifest.json`, a YAML file of entries) that cannot be imported: not JSON or YAML, or a
 * field of the wrong shape. Names the file and the JSON path of what is wrong (`$.nodes["model.shop.orders"].columns`,
 * `$.entries[2].kind`). SQLSTATE 22023 (invalid parameter value). Nothing of the file is imported then.
 */
export class KnowledgeImportError extends NlqError {
  readonly [knowledgeImportErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is KnowledgeImportError {
    return NlqError.hasMarker(error, knowledgeImportErrorMarker);
  }

  /** The file as the caller named it. */
  readonly file: string;
  /** Where in the file (`$` for the whole file, `$.entries[2].kind`). */
  readonly path: string;
  constructor(file: string, path: string, problem: string, options: { cause?: unknown } = {}) {
    super(`${file}: ${path}: ${problem}`, { code: "22023", cause: options.cause });
    this.file = file;
    this.path = path;
  }
}

/** `$.nodes["model.shop.orders"].columns[0]` from a zod issue's path: identifiers dotted, other keys quoted. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${text}.${name}` : `${text}[${JSON.stringify(name)}]`;
  }, "$");
}
