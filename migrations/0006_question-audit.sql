CREATE TABLE "question_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"data_source" text NOT NULL,
	"role" text NOT NULL,
	"surface" text NOT NULL,
	"client_address" text,
	"application_name" text,
	"question" text NOT NULL,
	"sql" text,
	"ok" boolean NOT NULL,
	"error_code" text,
	"error_message" text,
	"confidence" real,
	"confidence_basis" text,
	"rows" integer,
	"truncated" boolean,
	"interpretations" jsonb,
	"model" text,
	"elapsed_ms" integer
);
--> statement-breakpoint
CREATE INDEX "question_audit_role_idx" ON "question_audit" USING btree ("data_source","role","asked_at");--> statement-breakpoint
CREATE INDEX "question_audit_asked_at_idx" ON "question_audit" USING btree ("data_source","asked_at");