"use client";

import { type FormEvent, useEffect, useState } from "react";
import { sessionEndedKey } from "../lib/response-error";

/** Sign in as a PostgreSQL role: the server connects with these credentials and keeps them only in memory. */
export function SignInForm({ dataSource }: { readonly dataSource: string }) {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  /** The chat found the session gone (signed out in another tab, or idle): say so, once. */
  const [sessionEnded, setSessionEnded] = useState(false);
  useEffect(() => {
    try {
      if (window.sessionStorage.getItem(sessionEndedKey)) {
        window.sessionStorage.removeItem(sessionEndedKey);
        setSessionEnded(true);
      }
    } catch {
      // No session storage: no notice.
    }
  }, []);

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
      {sessionEnded ? (
        <p className="notice" role="alert">
          Your session has ended (signed out in another tab, or idle for too long). Sign in again: your question is kept
          and will be back in the box.
        </p>
      ) : null}
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
