CREATE TABLE "catalog_columns" (
	"table_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"column_name" text NOT NULL,
	"data_type" text NOT NULL,
	"nullable" boolean NOT NULL,
	"description" text,
	"enum_values" jsonb,
	"sample_values" jsonb,
	"distinct_count" double precision,
	"null_fraction" double precision,
	CONSTRAINT "catalog_columns_table_id_position_pk" PRIMARY KEY("table_id","position")
);
--> statement-breakpoint
CREATE TABLE "catalog_tables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"data_source_id" uuid NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"kind" text NOT NULL,
	"description" text,
	"primary_key" jsonb NOT NULL,
	"foreign_keys" jsonb NOT NULL,
	"row_count" double precision,
	"row_count_exact" boolean DEFAULT false NOT NULL,
	"fingerprint" text NOT NULL,
	"indexed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_columns" ADD CONSTRAINT "catalog_columns_table_id_catalog_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."catalog_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_tables" ADD CONSTRAINT "catalog_tables_data_source_id_data_sources_id_fk" FOREIGN KEY ("data_source_id") REFERENCES "public"."data_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_tables_name_idx" ON "catalog_tables" USING btree ("data_source_id","schema_name","table_name");