import { mockTextModel } from "@nlq/engine/testing";

/**
 * A scripted stand-in for the selection models (no language model is involved): each step answers with the object
 * `answer(step)` returns — in the prompt-size benchmark, the question's gold tables and columns (`label` names it in
 * the model id: `scripted:<label>-<step>`). Counts the prompt characters each step was sent.
 */
export function createScriptedSelectionModel(answer: (step: string) => unknown, label = "gold") {
  const promptCharacters: Record<string, number> = {};
  const resolveModel = (step: string) => ({
    id: `scripted:${label}-${step}`,
    scripted: true,
    model: mockTextModel(
      (call) => {
        promptCharacters[step] = (promptCharacters[step] ?? 0) + JSON.stringify(call.prompt).length;
        return JSON.stringify(answer(step));
      },
      { input: 0, output: 0 },
    ),
  });
  return { resolveModel, promptCharacters };
}
