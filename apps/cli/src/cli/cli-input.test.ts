import { describe, expect, it } from "vitest";
import { checkDatabaseUrl, redactedUrl, UsageError } from "./cli-input";

describe("checkDatabaseUrl", () => {
  it("accepts postgres:// and postgresql:// URLs with a host", () => {
    for (const url of [
      "postgresql://postgres@127.0.0.1:5432/postgres",
      "postgres://user:secret@db.example.com/app?sslmode=require",
      "postgresql://%2Fvar%2Frun%2Fpostgresql/db",
      "postgresql:///db?host=/var/run/postgresql",
    ]) {
      expect(checkDatabaseUrl(url, "--url")).toBe(url);
    }
  });

  it.each([
    ["not-a-url", '--url must be a postgresql://user@host:port/database URL, got "not-a-url"'],
    ["http://example.com/db", '--url must be a postgresql://user@host:port/database URL, got "http://example.com/db"'],
    ["postgresql:///db", '--url names no host: "postgresql:///db" (e.g. postgresql://user@127.0.0.1:5432/db)'],
  ])("refuses %j with a message naming it", (url, message) => {
    expect(() => checkDatabaseUrl(url, "--url")).toThrow(UsageError);
    expect(() => checkDatabaseUrl(url, "--url")).toThrow(message);
  });

  it("never shows a password", () => {
    expect(() => checkDatabaseUrl("mysql://admin:hunter2@db/app", "DATABASE_URL")).toThrow(
      'DATABASE_URL must be a postgresql://user@host:port/database URL, got "mysql://admin:***@db/app"',
    );
    expect(redactedUrl("admin:hunter2@db")).toBe('"admin:***@db"');
  });
});
