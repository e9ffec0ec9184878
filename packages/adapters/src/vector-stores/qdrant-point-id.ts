import { createHash } from "node:crypto";

/** Payload field in which the Qdrant backend keeps the caller's string id (Qdrant ids are UUIDs or unsigned integers). */
export const qdrantPointIdField = "nlq_point_id";

/** Fixed namespace of nlq point ids (a random v4 UUID chosen once). */
const namespace = Buffer.from("6f1c2b9e4d7a4e3f9a1b5c8d2e7f0a13", "hex");

/**
 * Maps a caller's string id to a stable RFC 4122 version-5 UUID (SHA-1 of namespace + id), so the
 * same id always addresses the same Qdrant point and upserts replace.
 */
export function qdrantPointId(id: string): string {
  const digest = createHash("sha1").update(namespace).update(id, "utf8").digest();
  digest[6] = (digest[6]! & 0x0f) | 0x50;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
