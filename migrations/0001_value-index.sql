CREATE TABLE "value_index_chunks" (
	"column_id" uuid NOT NULL,
	"chunk_number" integer NOT NULL,
	"value_count" integer NOT NULL,
	"values" "bytea" NOT NULL,
	"band_keys" "bytea" NOT NULL,
	CONSTRAINT "value_index_chunks_column_id_chunk_number_pk" PRIMARY KEY("column_id","chunk_number")
);
--> statement-breakpoint
CREATE TABLE "value_index_columns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"data_source_id" uuid NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"column_name" text NOT NULL,
	"parameters_key" text NOT NULL,
	"value_count" integer NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL,
	"skip_reason" text,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "value_index_chunks" ADD CONSTRAINT "value_index_chunks_column_id_value_index_columns_id_fk" FOREIGN KEY ("column_id") REFERENCES "public"."value_index_columns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_index_columns" ADD CONSTRAINT "value_index_columns_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "value_index_columns_column_idx" ON "value_index_columns" USING btree ("data_source_id","schema_name","table_name","column_name");