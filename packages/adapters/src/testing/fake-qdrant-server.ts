/**
 * Test helper: a minimal in-process Qdrant REST server (node:http, port 0) implementing the documented
 * request/response shapes of the endpoints the Qdrant backend uses, with exact cosine search. It is
 * strict: a body that does not match the documented shape is answered 400 and recorded in `violations`,
 * so tests prove the client sends what a real Qdrant expects. Not a substitute for a live Qdrant.
 *
 * Endpoints (https://api.qdrant.tech/api-reference):
 *   GET    /collections/{name}/exists          → { result: { exists } }
 *   PUT    /collections/{name}                 { vectors: { size, distance } } → { result: true }
 *   GET    /collections/{name}                 → { result: { status, config: { params: { vectors } }, points_count, ... } }
 *   DELETE /collections/{name}                 → { result: true | false }
 *   PUT    /collections/{name}/index?wait=     { field_name, field_schema } → { result: { operation_id, status } }
 *   PUT    /collections/{name}/points?wait=    { points: [{ id, vector, payload }] } → { result: { operation_id, status } }
 *   POST   /collections/{name}/points/query    { query: number[], limit, filter?, with_payload } → { result: { points: [{ id, version, score, payload }] } }
 *   POST   /collections/{name}/points/delete   { points: id[] } | { filter } → { result: { operation_id, status } }
 *   POST   /collections/{name}/points/count    { filter?, exact } → { result: { count } }
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dotProductAt, normalizeVector } from "@nlq/engine";
import type { Schemas } from "@qdrant/js-client-rest";

export type RecordedQdrantRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
};

type StoredPoint = { id: string | number; vector: Float32Array; payload: Record<string, unknown> };
type FakeCollection = {
  size: number;
  distance: Schemas["Distance"];
  points: Map<string, StoredPoint>;
  payloadIndexes: Map<string, string>;
};

export type FakeQdrantServer = {
  url: string;
  requests: RecordedQdrantRequest[];
  /** Requests that did not match the documented shapes (answered 400). */
  violations: string[];
  /** Payload indexes per collection (field → schema), as created through `PUT /collections/{name}/index`. */
  payloadIndexes(collection: string): Record<string, string>;
  close(): Promise<void>;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type FakeQdrantServerOptions = {
  /** Answer `POST /points/query` with a bare 404, as Qdrant servers older than 1.10 (no Query API) do. Default: false. */
  readonly withoutQueryApi?: boolean;
};

export async function startFakeQdrantServer(options: FakeQdrantServerOptions = {}): Promise<FakeQdrantServer> {
  const collections = new Map<string, FakeCollection>();
  const requests: RecordedQdrantRequest[] = [];
  const violations: string[] = [];
  let operationId = 0;

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    const body = await readJson(request);
    requests.push({
      method: request.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body,
    });
    try {
      route(request.method ?? "", url.pathname, body, response);
    } catch (error) {
      const message = error instanceof ShapeError ? error.message : String(error);
      violations.push(`${request.method} ${url.pathname}: ${message}`);
      reply(response, 400, { status: { error: `Format error in JSON body: ${message}` }, time: 0 });
    }
  });

  function route(method: string, path: string, body: unknown, response: ServerResponse): true {
    const match = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (match === null) throw new ShapeError(`unknown path ${path}`);
    const name = decodeURIComponent(match[1]!);
    const rest = match[2] ?? "";
    const collection = collections.get(name);
    const notFound = () =>
      reply(response, 404, { status: { error: `Not found: Collection \`${name}\` doesn't exist!` }, time: 0 });
    const ok = (result: unknown) => reply(response, 200, { result, status: "ok", time: 0.0001 });
    // Results are typed with the client's Schemas (generated from Qdrant's OpenAPI document), so the
    // compiler checks the fake answers in the documented shapes.
    const completed = (): Schemas["UpdateResult"] => ({ operation_id: ++operationId, status: "completed" });

    if (method === "GET" && rest === "/exists") {
      const existence: Schemas["CollectionExistence"] = { exists: collection !== undefined };
      return ok(existence);
    }
    if (method === "PUT" && rest === "") {
      const vectors = field(object(body, "body"), "vectors", "object") as Record<string, unknown>;
      const size = field(vectors, "size", "number") as number;
      const distance = field(vectors, "distance", "string") as Schemas["Distance"];
      if (!["Cosine", "Dot", "Euclid", "Manhattan"].includes(distance))
        throw new ShapeError(`bad distance ${distance}`);
      if (collection !== undefined) {
        return reply(response, 400, { status: { error: `Wrong input: Collection \`${name}\` already exists!` } });
      }
      collections.set(name, { size, distance, points: new Map(), payloadIndexes: new Map() });
      return ok(true);
    }
    if (method === "DELETE" && rest === "") return ok(collections.delete(name));
    if (collection === undefined) return notFound();
    if (method === "GET" && rest === "") {
      const info: Schemas["CollectionInfo"] = {
        status: "green",
        optimizer_status: "ok",
        segments_count: 1,
        points_count: collection.points.size,
        indexed_vectors_count: 0,
        config: {
          params: { vectors: { size: collection.size, distance: collection.distance }, shard_number: 1 },
          hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
          optimizer_config: {
            deleted_threshold: 0.2,
            vacuum_min_vector_number: 1000,
            default_segment_number: 0,
            flush_interval_sec: 5,
          },
          wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
        },
        payload_schema: Object.fromEntries(
          [...collection.payloadIndexes].map(([key, type]) => [
            key,
            { data_type: type as Schemas["PayloadSchemaType"], points: 0 },
          ]),
        ),
      };
      return ok(info);
    }
    if (method === "PUT" && rest === "/index") {
      const request = object(body, "body");
      const fieldName = field(request, "field_name", "string") as string;
      const fieldSchema = field(request, "field_schema", "string") as string;
      if (!["keyword", "integer", "float", "bool", "geo", "datetime", "text", "uuid"].includes(fieldSchema)) {
        throw new ShapeError(`bad field_schema ${fieldSchema}`);
      }
      collection.payloadIndexes.set(fieldName, fieldSchema);
      return ok(completed());
    }
    if (method === "PUT" && rest === "/points") {
      const points = field(object(body, "body"), "points", "array") as unknown[];
      const stored = points.map((raw) => {
        const point = object(raw, "point");
        const id = pointId(point.id);
        const vector = field(point, "vector", "array") as unknown[];
        if (!vector.every((component) => typeof component === "number")) throw new ShapeError("vector must be numbers");
        if (vector.length !== collection.size) {
          throw new ShapeError(`Vector dimension error: expected dim: ${collection.size}, got ${vector.length}`);
        }
        const payload = point.payload === undefined ? {} : object(point.payload, "payload");
        return { id, vector: normalizeVector(vector as number[]), payload };
      });
      for (const point of stored) collection.points.set(String(point.id), point);
      return ok(completed());
    }
    if (method === "POST" && rest === "/points/query" && options.withoutQueryApi === true) {
      response.writeHead(404);
      response.end();
      return true;
    }
    if (method === "POST" && rest === "/points/query") {
      const query = object(body, "body");
      const vector = field(query, "query", "array") as number[];
      if (vector.length !== collection.size) throw new ShapeError(`query vector has ${vector.length} dims`);
      const limit = field(query, "limit", "number") as number;
      if (query.with_payload !== true) throw new ShapeError("expected with_payload: true");
      const predicate = compileFilter(query.filter);
      const unitQuery = normalizeVector(vector);
      const points = [...collection.points.values()]
        .filter((point) => predicate(point.payload))
        .map((point) => ({
          id: point.id,
          version: 0,
          score: dotProductAt(unitQuery, point.vector, 0),
          payload: point.payload,
        }))
        .sort((left, right) => right.score - left.score || String(left.id).localeCompare(String(right.id)))
        .slice(0, limit);
      return ok({ points });
    }
    if (method === "POST" && rest === "/points/delete") {
      const selector = object(body, "body");
      if (Array.isArray(selector.points)) {
        for (const id of selector.points) collection.points.delete(String(pointId(id)));
      } else if (selector.filter !== undefined) {
        const predicate = compileFilter(selector.filter);
        for (const [key, point] of collection.points) if (predicate(point.payload)) collection.points.delete(key);
      } else {
        throw new ShapeError("delete needs points or filter");
      }
      return ok(completed());
    }
    if (method === "POST" && rest === "/points/count") {
      const countRequest = object(body ?? {}, "body");
      const predicate = compileFilter(countRequest.filter);
      const counted: Schemas["CountResult"] = {
        count: [...collection.points.values()].filter((point) => predicate(point.payload)).length,
      };
      return ok(counted);
    }
    throw new ShapeError(`unsupported ${method} ${path}`);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    payloadIndexes: (collection) => Object.fromEntries(collections.get(collection)?.payloadIndexes ?? []),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

class ShapeError extends Error {}

/** Filters as documented: { must?: Condition[] } with Condition = { key, match: { value } | { any } }. */
function compileFilter(raw: unknown): (payload: Record<string, unknown>) => boolean {
  if (raw === undefined || raw === null) return () => true;
  const filter = object(raw, "filter");
  for (const key of Object.keys(filter)) if (key !== "must") throw new ShapeError(`unsupported filter clause ${key}`);
  const must = (filter.must ?? []) as unknown[];
  if (!Array.isArray(must)) throw new ShapeError("must must be an array");
  const conditions = must.map((rawCondition) => {
    const condition = object(rawCondition, "condition");
    const key = field(condition, "key", "string") as string;
    const match = field(condition, "match", "object") as Record<string, unknown>;
    if ("value" in match) return (payload: Record<string, unknown>) => payload[key] === match.value;
    if (Array.isArray(match.any))
      return (payload: Record<string, unknown>) => (match.any as unknown[]).includes(payload[key]);
    throw new ShapeError("match needs value or any");
  });
  return (payload) => conditions.every((condition) => condition(payload));
}

function pointId(raw: unknown): string | number {
  if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
  if (typeof raw === "string" && uuidPattern.test(raw)) return raw.toLowerCase();
  throw new ShapeError(`Unable to parse point id ${JSON.stringify(raw)}: must be an unsigned integer or a UUID`);
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ShapeError(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function field(value: Record<string, unknown>, key: string, type: "object" | "array" | "number" | "string"): unknown {
  const found = value[key];
  const ok =
    type === "array"
      ? Array.isArray(found)
      : type === "object"
        ? typeof found === "object" && found !== null
        : typeof found === type;
  if (!ok) throw new ShapeError(`field ${key} must be a ${type}`);
  return found;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function reply(response: ServerResponse, status: number, body: unknown): true {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
  return true;
}
