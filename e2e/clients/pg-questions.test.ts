import { createTestDatabase } from "@nlq/adapters/testing";
import { CancelledError, UnanswerableQuestionError } from "@nlq/engine";
import { INTERNAL_ERROR_MESSAGE, type ProxyServer } from "@nlq/proxy";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Answerer,
  answerFrom,
  clientConfig,
  runSqlAnswerer,
  sendCancel,
  startTestProxy,
  textField,
} from "./proxy-fixture";

/** The natural-language path through the proxy, with injected answerers (no language model). */
describe("questions through the proxy (node-postgres)", () => {
  let proxy: ProxyServer;
  let database: { name: string; drop(): Promise<void> };
  let answerer: Answerer;
  const seen: Array<{ question: string; transactionStatus: string | undefined; signal: AbortSignal | undefined }> = [];

  beforeAll(async () => {
    database = await createTestDatabase("nlq_proxy_questions");
    const setup = new pg.Client(clientConfig(database.name, 5432));
    await setup.connect();
    await setup.query(
      "create table orders (id int primary key, amount numeric); insert into orders values (1, 10), (2, 20.5)",
    );
    await setup.end();
    proxy = await startTestProxy((options) => {
      seen.push({
        question: options.question,
        transactionStatus: options.transactionStatus,
        signal: options.abortSignal,
      });
      return answerer(options);
    });
  });

  beforeEach(() => {
    seen.length = 0;
    answerer = runSqlAnswerer("select id, amount from orders order by id");
  });

  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  async function withClient<T>(run: (client: pg.Client, notices: string[]) => Promise<T>): Promise<T> {
    const client = new pg.Client(clientConfig(database.name, proxy.address.port));
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.connect();
    try {
      return await run(client, notices);
    } finally {
      await client.end();
    }
  }

  it("answers a marked query with rows and a NOTICE carrying the SQL", async () => {
    await withClient(async (client, notices) => {
      const result = await client.query("/* nl: how many orders are there? */;");
      expect(result.rows).toEqual([
        { id: 1, amount: "10" },
        { id: 2, amount: "20.5" },
      ]);
      expect(result.command).toBe("SELECT");
      expect(result.rowCount).toBe(2);
      expect(result.fields.map((field) => [field.name, field.dataTypeID])).toEqual([
        ["id", 23],
        ["amount", 1700],
      ]);
      expect(notices).toEqual(["nlq: select id, amount from orders order by id"]);
      expect(seen).toMatchObject([{ question: "how many orders are there?", transactionStatus: "idle" }]);
      // the session is still usable for ordinary SQL
      expect((await client.query("select 41 + 1 as answer")).rows).toEqual([{ answer: 42 }]);
    });
  });

  it("answers the -- form and a Metabase-style prefixed query", async () => {
    await withClient(async (client) => {
      await client.query("-- nl: line form");
      await client.query("-- Metabase:: userID: 1\n/* nl: block after metabase comment */");
    });
    expect(seen.map((entry) => entry.question)).toEqual(["line form", "block after metabase comment"]);
  });

  it("answers the marker in any case with optional spaces, and passes a comment without the colon through", async () => {
    await withClient(async (client) => {
      await client.query("/* NL: upper case */;");
      await client.query("/*nl:no spaces*/");
      await client.query("/*  nl :  spaced */");
      await client.query("-- NL: line upper case");
      const notAQuestion = await client.query("/* nl without a colon */;");
      expect(notAQuestion.rows ?? []).toEqual([]);
      expect((await client.query("/* note: ordinary comment */ select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
    expect(seen.map((entry) => entry.question)).toEqual(["upper case", "no spaces", "spaced", "line upper case"]);
  });

  it("refuses a question over NLQ_MAX_QUESTION_LENGTH with 54000, quoting none of it, and stays usable", async () => {
    await withClient(async (client) => {
      // Under 1 MiB: a longer query asking a question is refused as it streams (packages/proxy large-query.test.ts).
      const question = `${"how many orders are there? ".repeat(30_000)}tail-marker`;
      const error = (await client
        .query(`/* nl: ${question} */`)
        .catch((caught: unknown) => caught)) as pg.DatabaseError;
      expect(error).toMatchObject({ code: "54000" });
      expect(error.message).toMatch(/^the question is \d+ characters long; nlq accepts at most 4000/);
      expect(error.message).not.toContain("orders");
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
    expect(seen).toEqual([]);
  });

  it("says when the answer came from a scripted replay", async () => {
    answerer = runSqlAnswerer("select 1 as one", true);
    await withClient(async (client, notices) => {
      await client.query("/* nl: scripted? */");
      expect(notices[0]).toBe("nlq: select 1 as one");
      expect(notices[1]).toMatch(/scripted replay of recorded responses.*not a language model/);
    });
  });

  it("answers with an ErrorResponse for an NlqError and keeps the connection usable", async () => {
    answerer = async (options) => {
      throw new UnanswerableQuestionError("this database has no weather data", { question: options.question });
    };
    await withClient(async (client) => {
      await expect(client.query("/* nl: weather tomorrow? */")).rejects.toMatchObject({
        code: "22023",
        message: "this database has no weather data",
        severity: "ERROR",
      });
      expect(client.getTransactionStatus()).toBe("I");
      expect((await client.query("select count(*)::int as count from orders")).rows).toEqual([{ count: 2 }]);
    });
  });

  it("forwards the SQLSTATE of a failing statement run on the session", async () => {
    answerer = runSqlAnswerer("select 1 / 0");
    await withClient(async (client) => {
      await expect(client.query("/* nl: divide */")).rejects.toMatchObject({ code: "22012" });
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
  });

  it("never leaks the message of an unexpected exception", async () => {
    answerer = async () => {
      throw new TypeError("secret token sk-123 in internal state");
    };
    await withClient(async (client) => {
      const error = (await client.query("/* nl: boom */").catch((caught: unknown) => caught)) as pg.DatabaseError;
      expect(error.code).toBe("XX000");
      expect(error.message).toBe(INTERNAL_ERROR_MESSAGE);
      expect(JSON.stringify(error)).not.toContain("secret");
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
  });

  it("reports malformed questions as syntax errors", async () => {
    await withClient(async (client) => {
      await expect(client.query("/* nl: */")).rejects.toMatchObject({ code: "42601" });
      // A malformed question among other statements fails the whole query before any of it runs.
      await expect(client.query("select pg_sleep(0); /* nl: */; select 1")).rejects.toMatchObject({ code: "42601" });
      await expect(client.query("/* nl: a */ /* nl: b */; select 1")).rejects.toMatchObject({ code: "42601" });
      await expect(client.query({ name: "mixed", text: "/* nl: a */; select 1" })).rejects.toMatchObject({
        code: "42601",
      });
      expect(seen).toEqual([]);
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
  });

  it("keeps the transaction status T for a question inside a transaction", async () => {
    await withClient(async (client) => {
      await client.query("begin");
      await client.query("insert into orders values (3, 30)");
      const result = await client.query("/* nl: all orders */");
      expect(result.rowCount).toBe(3); // sees the uncommitted row: same session
      expect(client.getTransactionStatus()).toBe("T");
      expect(seen[0]?.transactionStatus).toBe("in-transaction");
      await client.query("rollback");
      expect(client.getTransactionStatus()).toBe("I");
    });
  });

  it("reports the failed-transaction error for a question in a failed transaction and keeps status E", async () => {
    answerer = runSqlAnswerer("select 1");
    await withClient(async (client) => {
      await client.query("begin");
      await expect(client.query("select 1 / 0")).rejects.toMatchObject({ code: "22012" });
      await expect(client.query("/* nl: anything */")).rejects.toMatchObject({ code: "25P02" });
      expect(seen[0]?.transactionStatus).toBe("failed");
      expect(client.getTransactionStatus()).toBe("E");
      await client.query("rollback");
      expect(client.getTransactionStatus()).toBe("I");
    });
  });

  it("generates a named prepared question once, at Parse; a later Bind re-runs its SQL for fresh rows", async () => {
    await withClient(async (client, notices) => {
      const first = await client.query({ name: "question", text: "/* nl: prepared? */", values: [] });
      expect(first.rows).toEqual([
        { id: 1, amount: "10" },
        { id: 2, amount: "20.5" },
      ]);
      // node-postgres binds the already prepared statement without a new Parse: the stored SQL runs again, read-only
      await client.query("insert into orders values (3, 1.5)");
      try {
        const second = await client.query({ name: "question", text: "/* nl: prepared? */", values: [] });
        expect(second.rows).toEqual([
          { id: 1, amount: "10" },
          { id: 2, amount: "20.5" },
          { id: 3, amount: "1.5" },
        ]);
        expect(second.fields.map((field) => field.name)).toEqual(first.fields.map((field) => field.name));
      } finally {
        await client.query("delete from orders where id = 3");
      }
      expect(seen.map((entry) => entry.question)).toEqual(["prepared?"]);
      expect(notices).toEqual([
        "nlq: select id, amount from orders order by id",
        "nlq: select id, amount from orders order by id",
      ]);
      expect((await client.query("select $1::int as value", [7])).rows).toEqual([{ value: 7 }]);
    });
  });

  it("re-runs a prepared question in binary results encoded by PostgreSQL itself, as a direct query returns them", async () => {
    const sql =
      "select id, amount, timestamp '2024-01-02 03:04:05.678' as at, 'é'::text as word, array[id, 2] as numbers, null::int as nothing from orders order by id";
    answerer = runSqlAnswerer(sql);
    const direct = new pg.Client(clientConfig(database.name, 5432));
    await direct.connect();
    try {
      // No parsing: binary values stay the bytes on the wire, text values the text.
      const raw = { getTypeParser: () => (value: unknown) => value };
      // node-postgres supports `binary` (all results in binary format) but its types do not declare it.
      const binary = (name: string, text: string): pg.QueryConfig => {
        const config: pg.QueryConfig & { binary: boolean } = { name, text, values: [], binary: true, types: raw };
        return config;
      };
      const expected = await direct.query(binary("direct", sql));
      expect(expected.fields.every((field) => field.format === "binary")).toBe(true);
      await withClient(async (client) => {
        await client.query({ name: "binary", text: "/* nl: binary */", values: [] });
        const proxied = await client.query(binary("binary", "/* nl: binary */"));
        expect(proxied.rows).toEqual(expected.rows);
        expect(proxied.fields.map((field) => field.format)).toEqual(expected.fields.map((field) => field.format));
      });
    } finally {
      await direct.end();
    }
    expect(seen).toHaveLength(1);
  });

  it("asks again for a re-Parse of the unnamed statement and fails a prepared question whose columns changed", async () => {
    await withClient(async (client) => {
      await client.query({ text: "/* nl: unnamed */", values: [] });
      await client.query({ text: "/* nl: unnamed */", values: [] });
      expect(seen.map((entry) => entry.question)).toEqual(["unnamed", "unnamed"]);
      await client.query("create table changing (a int)");
      try {
        answerer = runSqlAnswerer("select * from changing");
        expect((await client.query({ name: "changing", text: "/* nl: changing */", values: [] })).rows).toEqual([]);
        await client.query("alter table changing add column b int");
        await expect(client.query({ name: "changing", text: "/* nl: changing */", values: [] })).rejects.toMatchObject({
          code: "0A000",
          message: "cached plan must not change result type",
        });
      } finally {
        await client.query("drop table changing");
      }
      expect(seen).toHaveLength(3);
    });
  });

  it("refuses an extended-protocol question with parameters and stays usable", async () => {
    await withClient(async (client) => {
      await client.query("begin");
      await expect(client.query("/* nl: prepared in tx */", [1])).rejects.toMatchObject({ code: "0A000" });
      expect(client.getTransactionStatus()).toBe("T");
      await client.query("rollback");
      expect((await client.query("select $1::text as value", ["ok"])).rows).toEqual([{ value: "ok" }]);
    });
    expect(seen).toEqual([]);
  });

  it("aborts the question when the client sends a CancelRequest", async () => {
    answerer = runSqlAnswerer("select pg_sleep(30)");
    await withClient(async (client) => {
      const started = Date.now();
      const pending = client.query("/* nl: slow */").catch((error: unknown) => error);
      while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const keyed = client as unknown as { processID: number; secretKey: number };
      await sendCancel(proxy.address.port, keyed.processID, keyed.secretKey);
      const error = (await pending) as pg.DatabaseError;
      expect(error.code).toBe("57014");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(seen[0]?.signal?.aborted).toBe(true);
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    });
  });

  it("aborts an answerer that is waiting on a model when the client cancels", async () => {
    answerer = (options) =>
      new Promise((_resolve, reject) => {
        options.abortSignal?.addEventListener("abort", () => reject(new CancelledError()));
      });
    await withClient(async (client) => {
      const pending = client.query("/* nl: waits for a model */").catch((error: unknown) => error);
      while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const keyed = client as unknown as { processID: number; secretKey: number };
      await sendCancel(proxy.address.port, keyed.processID, keyed.secretKey);
      expect(((await pending) as pg.DatabaseError).code).toBe("57014");
    });
  });

  it("aborts the question when the client disconnects", async () => {
    answerer = (options) =>
      new Promise((_resolve, reject) => {
        options.abortSignal?.addEventListener("abort", () => reject(new CancelledError()));
      });
    const client = new pg.Client(clientConfig(database.name, proxy.address.port));
    client.on("error", () => {});
    await client.connect();
    void client.query("/* nl: then hang up */").catch(() => {});
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const deadline = Date.now() + 5_000;
    while (!seen[0]?.signal?.aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen[0]?.signal?.aborted).toBe(true);
  });

  it("keeps concurrent clients apart", async () => {
    answerer = async (options) => {
      const result = await options.session.query({ sql: "select pg_backend_pid()::text as pid" });
      return answerFrom(options.question, "select pg_backend_pid()", result);
    };
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new pg.Client(clientConfig(database.name, proxy.address.port));
        await client.connect();
        return client;
      }),
    );
    try {
      await Promise.all(
        clients.map(async (client, index) => {
          const ownPid = String((await client.query("select pg_backend_pid() as pid")).rows[0].pid);
          for (let round = 0; round < 5; round++) {
            const asked = await client.query(`/* nl: whose session? ${index} */`);
            expect(asked.rows).toEqual([{ pid: ownPid }]);
            expect((await client.query("select $1::int * 2 as doubled", [index])).rows).toEqual([
              { doubled: index * 2 },
            ]);
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it("runs a multi-step answer (several statements on the session) and returns the final rows", async () => {
    answerer = async (options) => {
      await options.session.query({ sql: "select count(*) from orders" });
      await expect(options.session.query({ sql: "select * from no_such_table" })).rejects.toMatchObject({
        code: "42P01",
      });
      const result = await options.session.query({ sql: "select 'ok'::text as status" });
      return answerFrom(options.question, "select 'ok'::text as status", {
        ...result,
        fields: [textField("status")],
      });
    };
    await withClient(async (client, notices) => {
      await client.query("do $$ begin raise notice 'ordinary notice'; end $$");
      const result = await client.query("/* nl: status */");
      expect(result.rows).toEqual([{ status: "ok" }]);
      expect(notices).toEqual(["ordinary notice", "nlq: select 'ok'::text as status"]);
    });
  });
});
