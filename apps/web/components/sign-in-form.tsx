"use client";

import { type FormEvent, useState } from "react";

/** Sign in as a PostgreSQL role: the server connects with these credentials and keeps them only in memory. */
export function SignInForm({ dataSource }: { readonly dataSource: string }) {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      const response = await fetch("/api/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ user, password }),
      });
      if (response.ok) {
        window.location.reload();
        return;
      }
      const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      setFailure(body?.error?.message ?? `Sign-in failed (HTTP ${response.status}).`);
    } catch {
      setFailure("The server cannot be reached. Check the connection and try again.");
    }
    setBusy(false);
  }

  return (
    <form className="sign-in" onSubmit={onSubmit} aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Sign in with your database role</h2>
      <p className="sign-in-note">
        Questions run as this PostgreSQL role on <code>{dataSource}</code>, so you see exactly what it may read. The
        password is checked by PostgreSQL and never stored.
      </p>
      <label htmlFor="sign-in-user">PostgreSQL user</label>
      <input
        id="sign-in-user"
        name="user"
        autoComplete="username"
        required
        value={user}
        onChange={(event) => setUser(event.target.value)}
      />
      <label htmlFor="sign-in-password">Password</label>
      <input
        id="sign-in-password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {failure ? (
        <p className="error-box" role="alert">
          {failure}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={busy || user.trim() === ""}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
