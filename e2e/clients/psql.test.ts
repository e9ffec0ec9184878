import { spawn } from "node:child_process";
import { createTestDatabase } from "@nlq/adapters/testing";
import type { ProxyServer } from "@nlq/proxy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Answerer,
  runSqlAnswerer,
  startTestProxy,
  upstreamHost,
  upstreamPort,
  upstreamUser,
} from "./proxy-fixture";

interface PsqlRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
}

/** Spawns the real psql (`-X`: no ~/.psqlrc) against host/port, with optional script on stdin. */
function psql(port: number, database: string, args: string[], stdin = ""): Promise<PsqlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "psql",
      ["-X", "-h", upstreamHost, "-p", String(port), "-U", upstreamUser, "-d", database, ...args],
      {
        env: { ...process.env, PGSSLMODE: "prefer", PGCONNECT_TIMEOUT: "10" },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (exitCode) => resolve({ stdout, stderr, exitCode }));
    child.stdin.end(stdin);
  });
}

const script = `
create table items (id int primary key, name text);
insert into items values (1, 'one'), (2, 'two');
copy items from stdin;
3\tthree
4\t\\N
\\.
copy items to stdout;
copy (select id from items where id > 2) to stdout with (format csv, header);
select * from items order by id;
begin;
insert into items values (5, 'five');
select * from missing;
select 1;
rollback;
select count(*) from items;
do $$ begin raise notice 'hello from %', 'plpgsql'; end $$;
select 1 as a; select 2 as b;
prepare by_id(int) as select name from items where id = $1;
execute by_id(2);
copy items from stdin;
bad line without tab
\\.
select 'é' as accent, null as nothing;
\\echo done
`;

describe("psql through the proxy", () => {
  let proxy: ProxyServer;
  let direct: { name: string; drop(): Promise<void> };
  let proxied: { name: string; drop(): Promise<void> };
  let answerer: Answerer = runSqlAnswerer("select 42 as answer");
  const questions: string[] = [];

  beforeAll(async () => {
    proxy = await startTestProxy((options) => {
      questions.push(options.question);
      return answerer(options);
    });
    direct = await createTestDatabase("nlq_psql_direct");
    proxied = await createTestDatabase("nlq_psql_proxied");
  });

  afterAll(async () => {
    await proxy?.close();
    await direct?.drop();
    await proxied?.drop();
  });

  it("behaves exactly as direct for a script with COPY in and out, errors, transactions and notices", async () => {
    const directRun = await psql(upstreamPort, direct.name, [], script);
    const proxiedRun = await psql(proxy.address.port, proxied.name, [], script);
    expect(directRun.stdout).toContain("3\tthree");
    expect(directRun.stdout).toContain("done");
    expect(directRun.stderr).toContain('relation "missing" does not exist');
    expect(directRun.stderr).toContain("hello from plpgsql");
    expect(directRun.stderr).toContain("invalid input syntax");
    expect(proxiedRun).toEqual(directRun);
  });

  it("answers a question sent with -c", async () => {
    questions.length = 0;
    const run = await psql(proxy.address.port, proxied.name, ["-c", "-- nl: what is the answer?"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("answer");
    expect(run.stdout).toContain("42");
    expect(run.stdout).toContain("(1 row)");
    expect(run.stderr).toContain("NOTICE:  nlq: select 42 as answer");
    expect(questions).toEqual(["what is the answer?"]);
  });

  it("answers block-comment questions typed on stdin, between ordinary statements", async () => {
    questions.length = 0;
    answerer = runSqlAnswerer("select count(*) as items from items");
    const run = await psql(
      proxy.address.port,
      proxied.name,
      ["-A", "-t"],
      "select 'before';\n/* nl: how many items are there? */;\nselect 'after';\n/* nl: */;\nselect 'still fine';\n",
    );
    expect(run.stdout.trim().split("\n")).toEqual(["before", "4", "after", "still fine"]);
    expect(run.stderr).toContain("nlq: select count(*) as items from items");
    expect(run.stderr).toContain("ERROR:  empty natural-language question");
    expect(questions).toEqual(["how many items are there?"]);
  });

  it("keeps psql's transaction state across a question", async () => {
    answerer = runSqlAnswerer("select count(*) as items from items");
    const run = await psql(
      proxy.address.port,
      proxied.name,
      ["-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
      "begin;\ninsert into items values (9, 'nine');\n/* nl: how many now? */;\nrollback;\nselect count(*) from items;\n",
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(["5", "4"]);
  });
});
