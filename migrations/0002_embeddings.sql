CREATE TABLE "embedding_collections" (
	"name" text PRIMARY KEY NOT NULL,
	"dimensions" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "embeddings" (
	"collection" text NOT NULL,
	"point_id" text NOT NULL,
	"vector" "bytea" NOT NULL,
	"payload" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embeddings_collection_point_id_pk" PRIMARY KEY("collection","point_id")
);
--> statement-breakpoint
ALTER TABLE "embeddings" ADD CONSTRAINT "embeddings_collection_embedding_collections_name_fk" FOREIGN KEY ("collection") REFERENCES "public"."embedding_collections"("name") ON DELETE cascade ON UPDATE no action;