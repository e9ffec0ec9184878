CREATE TABLE "knowledge_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"data_source" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"text" text NOT NULL,
	"sql" text,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reading" jsonb,
	"origin" text NOT NULL,
	"external_id" text,
	"provenance" text,
	"author" text NOT NULL,
	"shared_with_all_roles" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"suggested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"data_source" text NOT NULL,
	"action" text NOT NULL,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"entry" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verified_examples" ADD COLUMN "provenance" text;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_entries_owner_name_idx" ON "knowledge_entries" USING btree ("data_source","author","kind","name_key") WHERE "knowledge_entries"."status" = 'active';--> statement-breakpoint
CREATE INDEX "knowledge_entries_data_source_idx" ON "knowledge_entries" USING btree ("data_source","status","updated_at");--> statement-breakpoint
CREATE INDEX "knowledge_history_entry_idx" ON "knowledge_history" USING btree ("entry_id","changed_at");--> statement-breakpoint
CREATE INDEX "knowledge_history_data_source_idx" ON "knowledge_history" USING btree ("data_source","changed_at");