import type { Answer, AnswerQuestionOptions, SchemaSelector } from "@nlq/engine";
import { loadSettings } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { withValueRetrieval } from "./with-value-retrieval";

describe("withValueRetrieval", () => {
  const session = { name: "unused", query: async () => ({ fields: [], rows: [], command: "SELECT" }) };

  it("gives a question without a catalog or selector the retrieval selector; a caller's own selector wins", async () => {
    const seen: Array<string | undefined> = [];
    const answer = withValueRetrieval(async (options: AnswerQuestionOptions) => {
      seen.push(options.schemaSelector?.name);
      return {} as Answer;
    });
    const base = { question: "How many stores?", session, settings: loadSettings({}) };
    await answer(base);
    const own: SchemaSelector = { name: "own", select: async ({ catalog }) => ({ catalog }) };
    await answer({ ...base, schemaSelector: own });
    expect(seen).toEqual(["chess-retrieval", "own"]);
  });
});
