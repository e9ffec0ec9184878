import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerMcpCommand } from "./mcp-command";
import { runCommand } from "./run-command.test-helpers";

const fixture = path.resolve(import.meta.dirname, "fixtures/ask-command-model.json");
const main = path.resolve(import.meta.dirname, "main.ts");
const reader = `nlq_mcp_reader_${process.pid}`;
/** A role of its own for the lost-connection test: terminating its backend touches no other test's connection. */
const lostReader = `nlq_mcp_lost_${process.pid}`;
/** An NLQ_HOME without `.nlq/`, so the server never opens the metadata store of the working directory. */
const emptyHome = mkdtempSync(path.join(tmpdir(), "nlq-mcp-home-"));
let database: TestDatabase;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase(
    "nlq_mcp_stdio",
    `CREATE TABLE products (id integer PRIMARY KEY, name text NOT NULL, price numeric(6,2));
     INSERT INTO products VALUES (1, 'Lamp', 12.50), (2, 'Mug', 4.00), (3, 'Blanket', 30.00);
     CREATE TABLE payroll (id integer, salary integer);
     DROP ROLE IF EXISTS ${reader};
     CREATE ROLE ${reader} LOGIN;
     GRANT SELECT ON products TO ${reader};
     DROP ROLE IF EXISTS ${lostReader};
     CREATE ROLE ${lostReader} LOGIN;`,
  );
  // The real command, from its sources, as an MCP client starts it: `nlq mcp --url …` speaking JSON-RPC on stdio.
  const environment = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  client = new Client({ name: "nlq-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", main, "mcp", "--url", database.urlFor(reader)],
      env: { ...environment, NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "fast", NLQ_HOME: emptyHome },
      stderr: "pipe",
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await database?.drop();
  await dropTestRole(reader);
  await dropTestRole(lostReader);
  rmSync(emptyHome, { recursive: true, force: true });
});

async function call(name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: input })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

describe("nlq mcp over stdio", () => {
  it("answers initialize and lists ask, choose_reading, run_sql, search_schema, explain and the knowledge tools", async () => {
    expect(client.getServerVersion()?.name).toBe("nlq");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask",
      "choose_reading",
      "explain",
      "propose_knowledge",
      "read_knowledge",
      "run_sql",
      "search_schema",
    ]);
  });

  it("builds a value index in the background for the unindexed database: a connection of its own besides the session", async () => {
    // Sessions ever established to the test database (pg_stat_database counts each at its login): the server's own
    // connection is open already, so the first question's background build is the one more.
    const observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    try {
      const sessions = async () =>
        Number(
          (await observer.query("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")).rows[0]
            ?.sessions,
        );
      const before = await sessions();
      const result = await call("ask", { question: "Which products cost more than 5?" });
      expect(result.isError, textOf(result)).toBeFalsy();
      await vi.waitFor(async () => expect(await sessions()).toBeGreaterThan(before), { timeout: 10_000 });
    } finally {
      await observer.end();
    }
  });

  it("answers a question through the pipeline as the URL's role", async () => {
    const result = await call("ask", { question: "Which products cost more than 5?" });
    expect(result.isError, textOf(result)).toBeFalsy();
    const answer = JSON.parse(textOf(result));
    expect(answer.sql).toBe("SELECT name, price FROM products WHERE price > 5 ORDER BY name");
    expect(answer.rows).toEqual([
      ["Blanket", "30.00"],
      ["Lamp", "12.50"],
    ]);
    expect(answer.model).toBe(`scripted:${fixture}`);
    expect(answer.scripted).toBe(true);
  });

  it("refuses an ask whose SQL would write, as a tool error", async () => {
    const result = await call("ask", { question: "Drop everything" });
    expect(result.isError).toBe(true);
  });

  it("runs a read-only query and refuses a write and a table the role has no grant on", async () => {
    const rows = await call("run_sql", { sql: "SELECT count(*) AS products FROM products" });
    expect(rows.isError, textOf(rows)).toBeFalsy();
    expect(JSON.parse(textOf(rows)).rows).toEqual([["3"]]);

    const write = await call("run_sql", { sql: "DROP TABLE products" });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/SqlValidationError/);

    const ungranted = await call("run_sql", { sql: "SELECT * FROM payroll" });
    expect(ungranted.isError).toBe(true);
    expect(textOf(ungranted)).toContain("42501");
    expect(textOf(ungranted)).toContain("payroll");
  });

  it("lists only the tables the role may read in search_schema", async () => {
    const result = await call("search_schema", { query: "*" });
    const text = textOf(result);
    expect(text).toContain("public.products");
    expect(text).toContain("Blanket");
    expect(text).not.toContain("payroll");
  });
});

describe("nlq mcp when the client closes stdin", () => {
  it("answers the calls already sent, then exits 0", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", main, "mcp", "--url", database.urlFor(reader)], {
      env: { ...process.env, NLQ_HOME: emptyHome },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "run_sql", arguments: { sql: "SELECT 41 + 1" } } },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
    expect(await exited).toBe(0);
    const answers = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result: { content: Array<{ text: string }> } });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(JSON.parse(answers[1]?.result.content[0]?.text ?? "{}").rows).toEqual([["42"]]);
  });
});

describe("nlq mcp when the connection to PostgreSQL is lost", () => {
  it("says so on stderr and exits 1, so the client can start it again", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", main, "mcp", "--url", database.urlFor(lostReader)], {
      env: { ...process.env, NLQ_HOME: emptyHome },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await vi.waitFor(() => expect(output).toContain('"serverInfo"'), { timeout: 30_000, interval: 100 });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [lostReader]);
    } finally {
      await admin.end();
    }
    expect(await exited).toBe(1);
    expect(output).toContain("nlq mcp: the connection to PostgreSQL was lost");
  });
});

describe("nlq mcp --http", () => {
  it("serves Streamable HTTP on loopback to a client logged in as its own role, and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", main, "mcp", "--http", "0", "--url", database.url, "--allow-trust-auth"],
      { env: { ...process.env, NLQ_HOME: emptyHome }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      let stderr = "";
      const endpoint = await new Promise<string>((resolve, reject) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const listening = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (listening?.[1]) resolve(listening[1]);
        });
        child.once("exit", () => reject(new Error(`nlq mcp exited: ${stderr}`)));
      });
      const unauthenticated = await fetch(endpoint, { method: "POST", body: "{}" });
      expect(unauthenticated.status).toBe(401);
      const http = new Client({ name: "nlq-test", version: "1.0.0" });
      await http.connect(
        new StreamableHTTPClientTransport(new URL(endpoint), {
          requestInit: { headers: { Authorization: `Bearer ${reader}:any-password` } },
        }),
      );
      const result = (await http.callTool({
        name: "run_sql",
        arguments: { sql: "SELECT current_user" },
      })) as CallToolResult;
      expect(JSON.parse(textOf(result)).rows).toEqual([[reader]]);
      const ungranted = (await http.callTool({
        name: "run_sql",
        arguments: { sql: "SELECT * FROM payroll" },
      })) as CallToolResult;
      expect(ungranted.isError).toBe(true);
      await http.close();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});

describe("nlq mcp input", () => {
  it("refuses a missing database URL and a bad --http address before any work (exit 2)", async () => {
    const noUrl = await runCommand(registerMcpCommand, ["mcp"], { environment: { NLQ_HOME: emptyHome } });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toContain("no database");
    const badHttp = await runCommand(registerMcpCommand, ["mcp", "--url", database.url, "--http", "here"], {
      environment: { NLQ_HOME: emptyHome },
    });
    expect(badHttp.exitCode).toBe(2);
    expect(badHttp.stderr).toContain("--http");
  });
});
