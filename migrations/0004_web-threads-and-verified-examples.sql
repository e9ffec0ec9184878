CREATE TABLE "verified_examples" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"data_source" text NOT NULL,
	"question" text NOT NULL,
	"sql" text NOT NULL,
	"source" text NOT NULL,
	"verified_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verified_examples_question_key" UNIQUE("data_source","question")
);
--> statement-breakpoint
CREATE TABLE "web_threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"role" text NOT NULL,
	"data_source" text NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_turns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"sql" text,
	"reply" jsonb NOT NULL,
	"feedback" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_turns_thread_position_key" UNIQUE("thread_id","position")
);
--> statement-breakpoint
ALTER TABLE "web_turns" ADD CONSTRAINT "web_turns_thread_id_web_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."web_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verified_examples_data_source_idx" ON "verified_examples" USING btree ("data_source","updated_at");--> statement-breakpoint
CREATE INDEX "web_threads_owner_idx" ON "web_threads" USING btree ("role","data_source","updated_at");