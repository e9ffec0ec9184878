import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamHost, upstreamUser } from "../proxy-fixture";
import {
  DEMO_CUSTOMERS,
  DEMO_QUESTION,
  DEMO_SQL,
  type ScriptedDemoProxy,
  startScriptedDemoProxy,
} from "../scripted-demo-proxy";
import { runProgram } from "./run-program";

/** Debian's libpostgresql-jdbc-java (`.ci/run` installs it), compiled against with the system javac. */
const driverJar = "/usr/share/java/postgresql.jar";

/**
 * A small JDBC client: one ordinary statement, then the same PreparedStatement executed three times with a row
 * inserted after the second. With prepareThreshold=1 pgjdbc uses a named server-side statement from the first
 * execution: one Parse, then Bind/Execute only.
 */
const javaSource = `
import java.sql.*;

public class NlqJdbcClient {
  public static void main(String[] args) throws Exception {
    try (Connection connection = DriverManager.getConnection(args[0])) {
      try (Statement statement = connection.createStatement();
           ResultSet rows = statement.executeQuery("select 1 as one")) {
        rows.next();
        System.out.println("plain " + rows.getInt("one"));
      }
      try (PreparedStatement question = connection.prepareStatement("/* nl: ${DEMO_QUESTION} */")) {
        for (int execution = 1; execution <= 3; execution++) {
          try (ResultSet rows = question.executeQuery()) {
            String column = rows.getMetaData().getColumnName(1);
            rows.next();
            System.out.println("question " + execution + " " + column + "=" + rows.getLong(1));
          }
          for (SQLWarning warning = question.getWarnings(); warning != null; warning = warning.getNextWarning()) {
            System.out.println("notice " + execution + " " + warning.getMessage());
          }
          question.clearWarnings();
          if (execution == 2) {
            try (Statement statement = connection.createStatement()) {
              statement.executeUpdate("insert into customers values (300, 'Extra', null)");
            }
          }
        }
      }
    }
  }
}
`;

describe("JDBC through the proxy (scripted demo model)", () => {
  let demo: ScriptedDemoProxy;
  const directory = mkdtempSync(path.join(tmpdir(), "nlq-jdbc-"));

  beforeAll(async () => {
    demo = await startScriptedDemoProxy("nlq_compat_jdbc");
    writeFileSync(path.join(directory, "NlqJdbcClient.java"), javaSource);
    const compiled = await runProgram("javac", ["-cp", driverJar, "NlqJdbcClient.java"], directory);
    if (compiled.exitCode !== 0) throw new Error(`javac failed: ${compiled.stderr}`);
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("answers a named prepared question generated once at Parse; re-executions return fresh rows", async () => {
    const url =
      `jdbc:postgresql://${upstreamHost}:${demo.proxy.address.port}/${demo.database.name}` +
      `?user=${encodeURIComponent(upstreamUser)}&prepareThreshold=1&sslmode=disable`;
    const run = await runProgram("java", ["-cp", `${driverJar}${path.delimiter}.`, "NlqJdbcClient", url], directory);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.filter((line) => !line.startsWith("notice"))).toEqual([
      "plain 1",
      `question 1 customers=${DEMO_CUSTOMERS}`,
      `question 2 customers=${DEMO_CUSTOMERS}`,
      `question 3 customers=${DEMO_CUSTOMERS + 1}`,
    ]);
    for (const execution of [1, 2, 3]) expect(lines).toContain(`notice ${execution} nlq: ${DEMO_SQL}`);
    expect(demo.modelCalls()).toBe(1);
  }, 120_000);
});
