-- Issue 28: until now the web app saved a picked reading as the role's verified example "accepted" (POST
-- /api/verified-examples with picked: true), though the user only chose an answer. Such a pick is source 'accepted'
-- with no turn (a thumbs-up links the turn it rated). Data only, no schema change.
--
-- 1. A pick that can be told apart: a turn of the same role and data source asked that question and offered that SQL
--    as a reading other than nlq's own. It is relabelled as what it was: source 'picked', "picked from N readings by
--    <role>" (N: the readings that turn offered), listed as such on /examples, where its owner can delete it.
UPDATE "verified_examples" AS example
SET "source" = 'picked',
	"provenance" = 'picked from ' || picked.readings || ' reading' || CASE WHEN picked.readings = 1 THEN '' ELSE 's' END || ' by ' || example."verified_by"
FROM (
	SELECT DISTINCT ON (candidate."id") candidate."id", jsonb_array_length(turn."reply" -> 'answer' -> 'interpretations') AS readings
	FROM "verified_examples" AS candidate
	JOIN "web_threads" AS thread ON thread."role" = candidate."verified_by" AND thread."data_source" = candidate."data_source"
	JOIN "web_turns" AS turn ON turn."thread_id" = thread."id" AND btrim(turn."question") = candidate."question"
	CROSS JOIN LATERAL jsonb_array_elements(
		CASE WHEN jsonb_typeof(turn."reply" -> 'answer' -> 'interpretations') = 'array'
			THEN turn."reply" -> 'answer' -> 'interpretations' ELSE '[]'::jsonb END
	) AS reading
	WHERE candidate."source" = 'accepted'
		AND candidate."turn_id" IS NULL
		AND (reading ->> 'chosen') IS DISTINCT FROM 'true'
		AND regexp_replace(btrim(reading ->> 'sql'), '[[:space:];]+$', '') = regexp_replace(candidate."sql", '[[:space:];]+$', '')
	ORDER BY candidate."id", turn."created_at" DESC
) AS picked
WHERE example."id" = picked."id";
--> statement-breakpoint
-- 2. The rest of the turnless 'accepted' pairs cannot be told apart: a pick whose conversation was deleted, or a
--    thumbs-up from before turns were linked (0005) or whose conversation was deleted. They are kept but marked
--    'unconfirmed', which no prompt, suggestion or list reads (VerifiedExampleStore.visibleTo): nothing the user may not
--    have asked for keeps teaching in their name.
UPDATE "verified_examples"
SET "source" = 'unconfirmed',
	"provenance" = 'saved before migration 0010 without a turn: a picked reading or a thumbs-up, not told apart; kept out of prompts'
WHERE "source" = 'accepted' AND "turn_id" IS NULL;
