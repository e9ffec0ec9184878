CREATE TABLE "data_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"connection_fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_sources_connection_fingerprint_unique" UNIQUE("connection_fingerprint")
);
--> statement-breakpoint
CREATE TABLE "llm_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"step" text NOT NULL,
	"response" jsonb NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"sql" text,
	"ok" boolean NOT NULL,
	"error_code" text,
	"error_message" text,
	"confidence" real,
	"rows" integer,
	"model" text,
	"scripted" boolean DEFAULT false NOT NULL,
	"candidates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"elapsed_ms" integer NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "query_log_created_at_idx" ON "query_log" USING btree ("created_at");