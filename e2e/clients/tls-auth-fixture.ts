import { spawn } from "node:child_process";
import { Socket } from "node:net";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser";

export interface PsqlRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
}

/**
 * Runs the real psql (`-X`, `-At`) with a libpq connection string and one `-c` per command; `password` goes in PGPASSWORD.
 * PGSSLMODE and friends come only from the connection string.
 */
export function psqlWith(connection: string, commands: readonly string[], password?: string): Promise<PsqlRun> {
  return new Promise((resolve, reject) => {
    const environment: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: "10" };
    for (const name of ["PGPASSWORD", "PGSSLMODE", "PGSSLROOTCERT", "PGCHANNELBINDING", "PGUSER", "PGHOST", "PGPORT"])
      delete environment[name];
    if (password !== undefined) environment.PGPASSWORD = password;
    const child = spawn("psql", ["-X", "-At", "-d", connection, ...commands.flatMap((command) => ["-c", command])], {
      env: environment,
    });
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
    child.stdin.end();
  });
}

/**
 * The authentication request a server (or the proxy) sends first to a plaintext StartupMessage for `user`, by
 * pg-protocol's message name (`authenticationOk`, `authenticationCleartextPassword`, `authenticationMD5Password`,
 * `authenticationSASL` with its mechanisms).
 */
export function firstAuthenticationRequest(
  host: string,
  port: number,
  user: string,
): Promise<{ name: string; mechanisms?: string[] }> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const parser = new Parser();
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) =>
      parser.parse(chunk, (message) => {
        socket.destroy();
        resolve(message as unknown as { name: string; mechanisms?: string[] });
      }),
    );
    socket.connect(port, host, () => socket.write(serialize.startup({ user, database: "postgres" })));
  });
}
