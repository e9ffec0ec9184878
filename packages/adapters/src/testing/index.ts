// Test support of @nlq/adapters (`@nlq/adapters/testing`): throwaway databases, the vector-store contract suite and
// a fake Qdrant server.

export { uncheckedAuditEntries } from "../audit/audit-entries";
export {
  type AuthMethod,
  type AuthTestServer,
  authLookupQuery,
  authLookupRole,
  authTestRoles,
  startAuthTestServer,
} from "./auth-test-server";
export {
  type PlantedCodeOptions,
  type PlantedCodeWorld,
  plantCode,
  plantedCodeSql,
} from "./planted-code-world";
export { createTestCertificates, type TestCertificates } from "./test-certificates";
export { createTestDatabase, dropTestRole, type TestDatabase, testServerUrl } from "./test-database";
export { runVectorStoreContract } from "./vector-store-contract";
