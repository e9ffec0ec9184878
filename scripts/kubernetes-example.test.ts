import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

// No cluster and no Docker engine where the tests run: the Kubernetes example and the compose file are checked
// structurally (docs/deployment.md says what was and was not run).
const repository = path.resolve(import.meta.dirname, "..");

interface EnvironmentEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  env?: EnvironmentEntry[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: unknown;
  livenessProbe?: unknown;
}
interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: { replicas?: number; template?: { spec: { containers: Container[] } } };
}

const resources = parseAllDocuments(readFileSync(path.join(repository, "deploy/kubernetes/nlq.yaml"), "utf8")).map(
  (document) => document.toJSON() as Resource,
);
const byName = (kind: string, name: string) =>
  resources.find((resource) => resource.kind === kind && resource.metadata.name === name);
const containersOf = (resource: Resource | undefined) => resource?.spec?.template?.spec.containers ?? [];
const allContainers = resources.flatMap(containersOf);
/** Names whose values are credentials, or URLs that may carry one. */
const secretName = /PASSWORD|API_KEY|SECRET|TOKEN|DATABASE_URL|METADATA_URL/;
const pinnedImage = /^[\w./-]+:(?!latest$)[\w.-]*\d[\w.-]*$/;

describe("deploy/kubernetes/nlq.yaml", () => {
  it("runs N proxies, the web app, one PostgreSQL metadata store and Qdrant", () => {
    expect(byName("Deployment", "nlq-proxy")?.spec?.replicas).toBeGreaterThanOrEqual(2);
    expect(byName("Deployment", "nlq-web")).toBeDefined();
    expect(byName("StatefulSet", "postgres")?.spec?.replicas).toBe(1);
    expect(byName("StatefulSet", "qdrant")).toBeDefined();
    expect(containersOf(byName("Job", "nlq-index"))[0]?.image).toMatch(/^nlq:/);
    for (const name of ["postgres", "qdrant", "nlq-proxy", "nlq-web"])
      expect(byName("Service", name), name).toBeDefined();
  });

  it("pins every image by version", () => {
    expect(allContainers.length).toBeGreaterThanOrEqual(5);
    for (const container of allContainers) expect(container.image, container.name).toMatch(pinnedImage);
  });

  it("gives every long-running container readiness and liveness probes, the proxy's on /health", () => {
    for (const resource of resources.filter((resource) => ["Deployment", "StatefulSet"].includes(resource.kind))) {
      for (const container of containersOf(resource)) {
        expect(container.readinessProbe, container.name).toBeDefined();
        expect(container.livenessProbe, container.name).toBeDefined();
      }
    }
    expect(JSON.stringify(containersOf(byName("Deployment", "nlq-proxy"))[0]?.readinessProbe)).toContain("/health");
  });

  it("writes no secret inline: secrets come from a Secret created outside the manifest", () => {
    expect(resources.filter((resource) => resource.kind === "Secret")).toEqual([]);
    for (const container of allContainers) {
      for (const entry of container.env ?? []) {
        if (secretName.test(entry.name)) {
          expect(entry.value, `${container.name} ${entry.name}`).toBeUndefined();
          expect(entry.valueFrom?.secretKeyRef?.name, `${container.name} ${entry.name}`).toBe("nlq-secrets");
        }
      }
    }
    for (const [key, value] of Object.entries(byName("ConfigMap", "nlq-config")?.data ?? {})) {
      expect(secretName.test(key), key).toBe(false);
      expect(value, key).not.toMatch(/:\/\/[^/]*:[^/]*@/); // no URL with a password
    }
    for (const name of ["nlq-proxy", "nlq-web"]) {
      const [container] = containersOf(byName("Deployment", name));
      expect(container?.envFrom?.map((source) => source.secretRef?.name ?? source.configMapRef?.name)).toEqual([
        "nlq-config",
        "nlq-secrets",
      ]);
    }
  });
});

describe("docker-compose.yml secrets", () => {
  it("takes every password and key from .env or the shell, with no default written in the file", () => {
    const text = readFileSync(path.join(repository, "docker-compose.yml"), "utf8");
    const compose = parse(text, { merge: true }) as { services: Record<string, unknown> };
    expect(Object.keys(compose.services)).toContain("proxy");
    // `${NAME:-default}` with a non-empty default for a credential would be a secret written inline.
    const inlineDefaults = [...text.matchAll(/\$\{(\w+):-([^}]+)\}/g)].filter(([, name]) => secretName.test(name!));
    expect(inlineDefaults.map(([whole]) => whole)).toEqual([]);
    expect(text).toContain("${POSTGRES_PASSWORD:?");
  });
});
