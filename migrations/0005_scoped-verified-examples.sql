ALTER TABLE "verified_examples" DROP CONSTRAINT "verified_examples_question_key";--> statement-breakpoint
ALTER TABLE "verified_examples" ADD COLUMN "shared_with_all_roles" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verified_examples" ADD COLUMN "turn_id" uuid;--> statement-breakpoint
ALTER TABLE "verified_examples" ADD CONSTRAINT "verified_examples_turn_id_web_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."web_turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verified_examples_turn_idx" ON "verified_examples" USING btree ("turn_id");--> statement-breakpoint
ALTER TABLE "verified_examples" ADD CONSTRAINT "verified_examples_owner_question_key" UNIQUE("data_source","verified_by","question");