-- Bucket rows are grouped by the publisher in batches of values: a bucket may have one row per batch, told apart by
-- its first (lowest) value number. The rows of generations published before were grouped whole and sorted, so their
-- first value number is their first element. The values' band keys were only kept to group the buckets on the server.
ALTER TABLE "value_index_buckets" ADD COLUMN "first_value_number" integer;--> statement-breakpoint
UPDATE "value_index_buckets" SET "first_value_number" = "value_numbers"[1];--> statement-breakpoint
ALTER TABLE "value_index_buckets" ALTER COLUMN "first_value_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "value_index_buckets" DROP CONSTRAINT "value_index_buckets_generation_id_band_bucket_key_pk";--> statement-breakpoint
ALTER TABLE "value_index_buckets" ADD CONSTRAINT "value_index_buckets_pk" PRIMARY KEY("generation_id","band","bucket_key","first_value_number");--> statement-breakpoint
ALTER TABLE "value_index_values" DROP COLUMN "band_keys";
