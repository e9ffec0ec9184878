"use client";

import { useState } from "react";

export interface SqlBlockProps {
  readonly sql: string;
  /** Caption above the code (default "SQL"). */
  readonly label?: string;
}

/** SQL in monospace with a copy button. */
export function SqlBlock({ sql, label = "SQL" }: SqlBlockProps) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(sql);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied("idle"), 2_000);
  }

  return (
    <figure className="sql">
      <figcaption className="sql-caption">
        <span>{label}</span>
        <button type="button" className="button button-small" onClick={() => void copy()} aria-label={`Copy ${label}`}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
        </button>
      </figcaption>
      <pre className="sql-code">
        <code>{sql}</code>
      </pre>
    </figure>
  );
}
