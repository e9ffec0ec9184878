import type { AnswerQuestionOptions, KnowledgeEntry, VerifiedExample } from "@nlq/engine";
import { dataSourceKey } from "../audit/data-source-key";
import { knowledgeEntryOf } from "../metadata/knowledge-entry-view";
import { KnowledgeStore } from "../metadata/knowledge-store";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { verifiedExamplesForRole } from "../metadata/verified-examples-for-role";

/** Verified examples a question carries at most (the most similar ones the asking role may be shown). */
export const verifiedExamplesPerQuestion = 3;

/** What people taught nlq that one question may use. */
export interface TaughtForQuestion {
  readonly verifiedExamples?: readonly VerifiedExample[];
  readonly knowledge?: readonly KnowledgeEntry[];
}

/**
 * What was taught for the asking role on its data source (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md,
 * rule 6): the verified examples most similar to the question that the role may be shown (`verifiedExamplesForRole`,
 * checked read-only on the question's own session) and the knowledge entries it may see (its own and administrators'
 * shared ones; the engine keeps only those whose every table and column the role may read). `askingUrl` names the
 * database and role as the session reported them (`askingRoleUrl`). What the question brings itself is not looked up.
 */
export async function taughtForQuestion(
  database: MetadataDatabase,
  askingUrl: string,
  question: AnswerQuestionOptions,
): Promise<TaughtForQuestion> {
  const dataSource = dataSourceKey(askingUrl);
  const role = decodeURIComponent(new URL(askingUrl).username);
  if (role === "") return {};
  const verifiedExamples =
    question.verifiedExamples === undefined
      ? (
          await verifiedExamplesForRole({
            database,
            dataSource,
            role,
            session: question.session,
            ...(question.transactionStatus ? { transactionStatus: question.transactionStatus } : {}),
            question: question.question,
            limit: verifiedExamplesPerQuestion,
            allowedFunctions: question.settings.allowedFunctions,
            statementTimeoutMilliseconds: question.settings.statementTimeoutMilliseconds,
            ...(question.abortSignal ? { abortSignal: question.abortSignal } : {}),
          })
        ).map((example) => ({ question: example.question, sql: example.sql }))
      : undefined;
  const knowledge =
    question.knowledge === undefined
      ? (await new KnowledgeStore(database).visibleTo(dataSource, role)).map(knowledgeEntryOf)
      : undefined;
  return {
    ...(verifiedExamples && verifiedExamples.length > 0 ? { verifiedExamples } : {}),
    ...(knowledge && knowledge.length > 0 ? { knowledge } : {}),
  };
}
