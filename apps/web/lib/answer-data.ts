import type { Answer } from "@nlq/engine";
import type { AnswerData } from "./chat-message";
import { modelLabel } from "./model-label";

/** A scripted model given an absolute fixture path is sent as the page names it (`modelLabel`): no server path. */
function sentModelId(id: string): string {
  return /^scripted:(?:\/|[A-Za-z]:[\\/]|file:)/.test(id) ? modelLabel(id) : id;
}

/**
 * The JSON the page receives for an answer: the result's rows and column types, no trace internals, and no absolute
 * server path in a model id (`sentModelId`).
 */
export function answerData(answer: Answer, languageModelCalls: number): AnswerData {
  return {
    question: answer.question,
    sql: answer.sql,
    fields: answer.result.fields.map((field) => ({ name: field.name, dataTypeId: field.dataTypeId })),
    rows: answer.result.rows.map((row) => [...row]),
    truncated: answer.truncated,
    ...(answer.truncatedBy === undefined ? {} : { truncatedBy: answer.truncatedBy }),
    ...(answer.confidence === undefined ? {} : { confidence: answer.confidence }),
    confidenceBasis: answer.selection.basis,
    clusters: answer.selection.clusters,
    model: { id: sentModelId(answer.model.id), scripted: answer.model.scripted },
    ...(answer.explanation ? { explanation: answer.explanation } : {}),
    ...(answer.summary
      ? {
          summary: {
            sentence: answer.summary.sentence,
            model: sentModelId(answer.summary.model),
            scripted: answer.summary.scripted,
          },
        }
      : {}),
    elapsedMilliseconds: answer.elapsedMilliseconds,
    candidates: answer.candidates.length,
    languageModelCalls: Math.max(languageModelCalls, answer.calls.length),
    ...(answer.knowledgeUsed && answer.knowledgeUsed.length > 0
      ? { knowledgeUsed: answer.knowledgeUsed.map(({ id, kind, name }) => ({ id, kind, name })) }
      : {}),
    ...((answer.interpretations?.length ?? 0) < 2
      ? {}
      : {
          interpretations: answer.interpretations!.map(({ number, chosen, sql, support, difference, reading }) => ({
            number,
            chosen,
            sql,
            support,
            outOf: answer.selection.candidates,
            difference,
            ...(reading ? { reading } : {}),
          })),
          needsChoice: answer.needsChoice === true,
          ...(answer.choiceBasis === undefined ? {} : { choiceBasis: answer.choiceBasis }),
        }),
  };
}
