/** What `nlq start` is running, for the banner. */
export interface StartupSummary {
  /** The database the proxy and web app talk to, without a password. */
  readonly database: {
    readonly url: string;
    readonly embedded: boolean;
    readonly directory?: string;
    readonly loadedDemoData?: boolean;
  };
  readonly proxy: { readonly host: string; readonly port: number };
  /** Where the metadata store lives (URL without password); `embedded` when it is the embedded PostgreSQL's. */
  readonly metadata: { readonly location: string; readonly embedded: boolean };
  /** The web app URL; undefined with --no-web. */
  readonly webUrl: string | undefined;
  /** `NLQ_MODEL` as configured, undefined when none. */
  readonly model: string | undefined;
  /**
   * The embedded PostgreSQL's superuser password: its file (`PGPASSFILE`), and the password itself only on the
   * start that generated it (shown once). Undefined when no embedded PostgreSQL runs.
   */
  readonly embeddedPassword?: { readonly file: string; readonly generated?: string };
}

/** The text printed once everything listens: where each part is and how to connect. */
export function formatStartupBanner(summary: StartupSummary): string {
  const databaseName = databaseNameOf(summary.database.url);
  const proxyUrl = `postgresql://postgres@${summary.proxy.host}:${summary.proxy.port}/${databaseName}`;
  const password = summary.embeddedPassword;
  // The demo's psql example reads the password from the file (libpq's password-file format), never the screen.
  const passwordFilePrefix = password !== undefined && summary.database.embedded ? `PGPASSFILE=${password.file} ` : "";
  const lines = [
    "",
    "nlq is running.",
    "",
    `  database   ${summary.database.url}${summary.database.embedded ? ` (embedded PostgreSQL with demo data, files in ${summary.database.directory})` : " (DATABASE_URL)"}`,
    `  proxy      ${summary.proxy.host}:${summary.proxy.port}`,
    `  metadata   ${summary.metadata.location}${summary.metadata.embedded ? " (embedded PostgreSQL)" : " (NLQ_METADATA_URL)"}`,
    `  web app    ${summary.webUrl ?? "not started (--no-web)"}`,
    "",
    "Ask in SQL through the proxy:",
    `  ${passwordFilePrefix}psql "${proxyUrl}"`,
    `  ${databaseName}=> /* nl: how many customers are there? */;`,
    "",
    ...modelLines(summary.model),
  ];
  if (summary.webUrl !== undefined) {
    lines.push(
      `Or chat in the browser: ${summary.webUrl}` +
        (passwordFilePrefix === "" ? "" : " (sign in as postgres with the password below)"),
      "",
    );
  }
  if (password !== undefined) lines.push(...passwordLines(password));
  if (summary.metadata.embedded) {
    lines.push(
      "nlq ask, nlq index and nlq proxy with the same NLQ_HOME use this metadata store while it runs",
      `(from elsewhere: NLQ_METADATA_URL=${summary.metadata.location}` +
        (password === undefined ? ")." : `, *** being the password in ${password.file}).`),
      "",
    );
  }
  lines.push("Press Ctrl-C to stop (twice to force).", "");
  return lines.join("\n");
}

/** Where the embedded superuser's password is; the password itself only on the start that generated it. */
function passwordLines(password: NonNullable<StartupSummary["embeddedPassword"]>): string[] {
  if (password.generated !== undefined) {
    return [
      `The embedded PostgreSQL's password for postgres, generated now and shown only this once: ${password.generated}`,
      `(kept in ${password.file}, mode 0600; every nlq process with this NLQ_HOME reads it from there).`,
      "",
    ];
  }
  return [`The embedded PostgreSQL's password for postgres is in ${password.file} (mode 0600).`, ""];
}

/** The database a URL names (`postgres` when it names none), for the psql example. */
function databaseNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
  } catch {
    return "postgres";
  }
}

function modelLines(model: string | undefined): string[] {
  if (model === undefined) {
    return [
      "No language model is configured, so questions will fail with instructions. Set NLQ_MODEL and restart, e.g.",
      "  NLQ_MODEL=openai:gpt-4o-mini OPENAI_API_KEY=… npm start",
      "  NLQ_MODEL=ollama:qwen2.5-coder:7b npm start",
      "  NLQ_MODEL=scripted:fixtures/demo-model.json npm start   (offline demo: a scripted replay of recorded answers, not a model)",
      "",
    ];
  }
  if (model.startsWith("scripted:")) {
    return [`Model: ${model} — a scripted replay of recorded answers, not a language model.`, ""];
  }
  return [`Model: ${model}`, ""];
}
