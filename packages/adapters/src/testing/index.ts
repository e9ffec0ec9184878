// Test support of @nlq/adapters (`@nlq/adapters/testing`): throwaway databases, the vector-store contract suite and
// a fake Qdrant server.

export { createTestDatabase, dropTestRole, type TestDatabase, testServerUrl } from "./test-database";
export { runVectorStoreContract } from "./vector-store-contract";
