// What each provider documents about the structured-output part of a request, as checks over the request body nlq
// sends. Each function returns the problems a provider would refuse the request for (empty: accepted). Used by the
// provider contract tests; the sources are cited beside each rule.

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Calls `visit` on every sub-schema of a JSON Schema (properties, items, anyOf/oneOf/allOf, $defs), with its path. */
function walkSchema(
  schema: unknown,
  visit: (node: JsonObject, path: string, depth: number) => void,
  path = "$",
  depth = 0,
) {
  if (!isObject(schema)) return;
  visit(schema, path, depth);
  if (isObject(schema.properties)) {
    for (const [name, value] of Object.entries(schema.properties))
      walkSchema(value, visit, `${path}.${name}`, depth + 1);
  }
  if (Array.isArray(schema.items)) {
    for (const [index, item] of schema.items.entries()) walkSchema(item, visit, `${path}[${index}]`, depth + 1);
  } else if (schema.items !== undefined) walkSchema(schema.items, visit, `${path}[]`, depth + 1);
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      for (const [index, branch] of branches.entries())
        walkSchema(branch, visit, `${path}.${keyword}[${index}]`, depth);
    }
  }
  for (const keyword of ["$defs", "definitions"]) {
    const definitions = schema[keyword];
    if (isObject(definitions)) {
      for (const [name, value] of Object.entries(definitions))
        walkSchema(value, visit, `${path}.${keyword}.${name}`, depth);
    }
  }
}

function isObjectSchema(node: JsonObject): boolean {
  return (
    node.type === "object" ||
    (Array.isArray(node.type) && node.type.includes("object")) ||
    node.properties !== undefined
  );
}

function keywordProblems(schema: unknown, allowed: ReadonlySet<string>, provider: string): string[] {
  const problems: string[] = [];
  walkSchema(schema, (node, path) => {
    for (const keyword of Object.keys(node)) {
      if (!allowed.has(keyword)) problems.push(`${path}: ${provider} does not support the keyword "${keyword}"`);
    }
  });
  return problems;
}

function closedObjectProblems(schema: unknown, everyPropertyRequired: boolean): string[] {
  const problems: string[] = [];
  walkSchema(schema, (node, path) => {
    if (!isObjectSchema(node)) return;
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    if (!everyPropertyRequired) return;
    const required = Array.isArray(node.required) ? node.required : [];
    for (const property of Object.keys(isObject(node.properties) ? node.properties : {})) {
      if (!required.includes(property)) problems.push(`${path}: property "${property}" is missing from required`);
    }
  });
  return problems;
}

/**
 * Keywords OpenAI's structured outputs accept in strict mode ("Supported schemas",
 * platform.openai.com/docs/guides/structured-outputs#supported-schemas): types, properties/required/
 * additionalProperties, items, enum/const, anyOf, $ref/$defs, descriptions, and the listed constraints — string
 * `pattern`/`format`, number bounds, array `minItems`/`maxItems`. `minLength`, `maxLength`, `allOf`, `not`,
 * `if`/`then`/`else`, `patternProperties`, `uniqueItems`, `contains`, `minProperties`/`maxProperties` are not.
 */
const openAiKeywords = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

/**
 * OpenAI Responses API (`POST /v1/responses`) with strict structured outputs: `text.format` is a `json_schema` with
 * `strict: true` and a name of at most 64 letters, digits, `_` or `-`; the root is an object (not `anyOf`); every
 * object lists every property in `required` (optional = a union with null) and has `additionalProperties: false`;
 * only supported keywords; at most 10 levels of nesting, 5,000 properties and 1,000 enum values. The first two object
 * rules are exactly what the model relay (../shared/tools/model-relay/relay.mjs) refuses with OpenAI's 400.
 */
export function openAiStrictProblems(body: unknown): string[] {
  if (!isObject(body)) return ["the body is not a JSON object"];
  const format = isObject(body.text) ? body.text.format : undefined;
  if (!isObject(format) || format.type !== "json_schema") return ["text.format is not a json_schema"];
  const problems: string[] = [];
  if (format.strict !== true) problems.push("text.format.strict is not true");
  if (typeof format.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(format.name)) {
    problems.push("text.format.name must be 1-64 letters, digits, _ or -");
  }
  const schema = format.schema;
  if (!isObject(schema) || schema.type !== "object" || schema.anyOf !== undefined) {
    return [...problems, "the root schema must be an object, not anyOf"];
  }
  problems.push(
    ...closedObjectProblems(schema, true),
    ...keywordProblems(schema, openAiKeywords, "OpenAI strict mode"),
  );
  let properties = 0;
  let enumValues = 0;
  walkSchema(schema, (node, path, depth) => {
    if (depth > 10) problems.push(`${path}: more than 10 levels of nesting`);
    if (isObject(node.properties)) properties += Object.keys(node.properties).length;
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
  });
  if (properties > 5000) problems.push(`${properties} properties (at most 5000)`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values (at most 1000)`);
  return problems;
}

/**
 * Keywords Anthropic's structured outputs accept ("JSON Schema limitations",
 * docs.claude.com/en/docs/build-with-claude/structured-outputs): basic types, enum/const, anyOf/allOf, $ref/$defs,
 * default, required, additionalProperties (false only), string formats and simple patterns, `minItems` of 0 or 1.
 * Numeric constraints, `minLength`/`maxLength` and other array constraints are not supported.
 */
const anthropicKeywords = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "default",
  "format",
  "pattern",
  "minItems",
]);

/**
 * Anthropic Messages API (`POST /v1/messages`): `max_tokens` is set; the schema goes either to
 * `output_config.format` (`json_schema`, structured outputs) or, on models without them, to a forced tool's
 * `input_schema`. Every object has `additionalProperties: false`; only supported keywords; `minItems` only 0 or 1.
 */
export function anthropicProblems(body: unknown): string[] {
  if (!isObject(body)) return ["the body is not a JSON object"];
  const problems: string[] = [];
  if (typeof body.max_tokens !== "number" || body.max_tokens < 1) problems.push("max_tokens is missing");
  const outputConfig = isObject(body.output_config) ? body.output_config : undefined;
  const format = outputConfig && isObject(outputConfig.format) ? outputConfig.format : undefined;
  const tool = Array.isArray(body.tools) && isObject(body.tools[0]) ? body.tools[0] : undefined;
  const schema = format?.type === "json_schema" ? format.schema : tool?.input_schema;
  if (!isObject(schema)) return [...problems, "no JSON schema in output_config.format nor in a tool"];
  problems.push(...closedObjectProblems(schema, false), ...keywordProblems(schema, anthropicKeywords, "Anthropic"));
  walkSchema(schema, (node, path) => {
    if (node.minItems !== undefined && node.minItems !== 0 && node.minItems !== 1) {
      problems.push(`${path}: minItems must be 0 or 1`);
    }
  });
  return problems;
}

/**
 * Fields of Gemini's `Schema` (an OpenAPI 3.0 subset, ai.google.dev/api/caching#Schema): no `additionalProperties`,
 * `$schema`, `$ref` or `const`; `nullable` instead of a null type.
 */
const googleFields = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const googleTypes = new Set(["string", "number", "integer", "boolean", "array", "object"]);

/**
 * Gemini `generateContent`: `generationConfig.responseMimeType` is `application/json` and `responseSchema` a Gemini
 * `Schema`: only its fields; `type` one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT (one, not a list; null is
 * `nullable`); an object has properties and `required` names only them; `enum` only on strings.
 */
export function googleProblems(body: unknown): string[] {
  if (!isObject(body)) return ["the body is not a JSON object"];
  const config = isObject(body.generationConfig) ? body.generationConfig : undefined;
  if (config?.responseMimeType !== "application/json")
    return ["generationConfig.responseMimeType is not application/json"];
  const schema = config.responseSchema;
  if (!isObject(schema)) return ["generationConfig.responseSchema is missing"];
  const problems = keywordProblems(schema, googleFields, "Gemini's Schema");
  walkSchema(schema, (node, path) => {
    if (node.anyOf === undefined && (typeof node.type !== "string" || !googleTypes.has(node.type.toLowerCase()))) {
      problems.push(`${path}: type must be one of ${[...googleTypes].join(", ")}`);
    }
    if (node.type === "object") {
      const properties = isObject(node.properties) ? Object.keys(node.properties) : [];
      if (properties.length === 0) problems.push(`${path}: an object needs properties`);
      for (const name of Array.isArray(node.required) ? node.required : []) {
        if (!properties.includes(name)) problems.push(`${path}: required names "${name}", not a property`);
      }
    }
    if (node.enum !== undefined && node.type !== "string") problems.push(`${path}: enum only on strings`);
  });
  return problems;
}

/**
 * Keywords the grammar engines behind OpenAI-compatible servers all compile (Ollama's and llama.cpp's JSON-schema
 * grammar, vLLM's xgrammar/guidance, LM Studio): types, properties/required/additionalProperties, items, enum/const,
 * anyOf, descriptions. Length, count and pattern constraints are not portable across them.
 */
const grammarKeywords = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "title",
]);

/**
 * OpenAI-compatible Chat Completions (`POST …/chat/completions`) on Ollama, vLLM or LM Studio: `response_format` is a
 * `json_schema` carrying the schema (LM Studio refuses `json_object`: "'response_format.type' must be 'json_schema'
 * or 'text'"; Ollama and vLLM constrain decoding to the schema); the schema keeps to the portable grammar keywords.
 * A request without `response_format` must describe the format in a system message (the fallback for servers that
 * refuse `response_format`).
 */
export function chatCompletionsProblems(body: unknown): string[] {
  if (!isObject(body)) return ["the body is not a JSON object"];
  if (!Array.isArray(body.messages) || body.messages.length === 0) return ["messages are missing"];
  const format = body.response_format;
  if (format === undefined) {
    const system = body.messages.find((message) => isObject(message) && message.role === "system");
    return isObject(system) && typeof system.content === "string" && system.content.includes('"type":"object"')
      ? []
      : ["no response_format and no format described in a system message"];
  }
  if (!isObject(format) || format.type !== "json_schema") {
    return [`response_format.type is ${JSON.stringify(isObject(format) ? format.type : format)}, not json_schema`];
  }
  const jsonSchema = isObject(format.json_schema) ? format.json_schema : undefined;
  if (!jsonSchema || !isObject(jsonSchema.schema)) return ["response_format.json_schema.schema is missing"];
  if (typeof jsonSchema.name !== "string" || jsonSchema.name === "")
    return ["response_format.json_schema.name is missing"];
  return [
    ...closedObjectProblems(jsonSchema.schema, true),
    ...keywordProblems(jsonSchema.schema, grammarKeywords, "a portable grammar"),
  ];
}
