"use client";

/** Ends the session on the server (its connections close) and returns to the sign-in form. */
export function SignOutButton() {
  async function signOut() {
    await fetch("/api/session", { method: "DELETE" }).catch(() => undefined);
    window.location.reload();
  }
  return (
    <button type="button" className="button button-secondary" onClick={() => void signOut()}>
      Sign out
    </button>
  );
}
