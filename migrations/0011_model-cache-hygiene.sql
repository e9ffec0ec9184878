CREATE TABLE "llm_cache_answers" (
	"answer_key" text NOT NULL,
	"cache_key" text NOT NULL,
	"data_source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "llm_cache_answers_answer_key_cache_key_pk" PRIMARY KEY("answer_key","cache_key")
);
--> statement-breakpoint
CREATE INDEX "llm_cache_answers_data_source_idx" ON "llm_cache_answers" USING btree ("data_source");--> statement-breakpoint
CREATE INDEX "llm_cache_answers_created_at_idx" ON "llm_cache_answers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "llm_cache_created_at_idx" ON "llm_cache" USING btree ("created_at");