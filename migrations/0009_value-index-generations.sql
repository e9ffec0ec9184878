CREATE TABLE "value_index_buckets" (
	"generation_id" integer NOT NULL,
	"band" smallint NOT NULL,
	"bucket_key" integer NOT NULL,
	"value_numbers" integer[] NOT NULL,
	CONSTRAINT "value_index_buckets_generation_id_band_bucket_key_pk" PRIMARY KEY("generation_id","band","bucket_key")
);
--> statement-breakpoint
CREATE TABLE "value_index_generations" (
	"id" serial PRIMARY KEY NOT NULL,
	"index_key" text NOT NULL,
	"data_source_id" uuid,
	"parameters_key" text NOT NULL,
	"status" text NOT NULL,
	"source_stamp" text DEFAULT '' NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"incomplete_columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"value_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "value_index_leases" (
	"index_key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "value_index_values" (
	"generation_id" integer NOT NULL,
	"value_number" integer NOT NULL,
	"value" text NOT NULL,
	"band_keys" integer[] NOT NULL,
	CONSTRAINT "value_index_values_generation_id_value_number_pk" PRIMARY KEY("generation_id","value_number")
);
--> statement-breakpoint
ALTER TABLE "value_index_buckets" ADD CONSTRAINT "value_index_buckets_generation_id_value_index_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."value_index_generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_index_generations" ADD CONSTRAINT "value_index_generations_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_index_values" ADD CONSTRAINT "value_index_values_generation_id_value_index_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."value_index_generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "value_index_generations_published_idx" ON "value_index_generations" USING btree ("index_key") WHERE "value_index_generations"."status" = 'published';--> statement-breakpoint
CREATE INDEX "value_index_leases_expires_idx" ON "value_index_leases" USING btree ("expires_at");