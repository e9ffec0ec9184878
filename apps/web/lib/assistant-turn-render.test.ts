import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AssistantTurn } from "../components/assistant-turn";
import type { NlqUIMessage } from "./chat-message";

const running: NlqUIMessage = {
  id: "reply",
  role: "assistant",
  parts: [
    { type: "data-step", id: "catalog", data: { label: "Read the schema", status: "done" } },
    { type: "data-step", id: "candidate-0", data: { label: "Writing SQL candidate 1", status: "running" } },
  ],
};

describe("AssistantTurn", () => {
  it("shows a reply still being written as working", () => {
    const html = renderToStaticMarkup(createElement(AssistantTurn, { message: running }));
    expect(html).toContain("Working…");
    expect(html).toContain('data-status="running"');
  });

  it("shows a stopped reply as stopped: no spinner, no Working…", () => {
    const html = renderToStaticMarkup(createElement(AssistantTurn, { message: running, stopped: true }));
    expect(html).not.toContain("Working…");
    expect(html).toContain("Stopped after 2 steps");
    expect(html).not.toContain('data-status="running"');
    expect(html).toContain('data-status="stopped"');
  });
});
