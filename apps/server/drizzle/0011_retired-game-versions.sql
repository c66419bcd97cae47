CREATE TABLE "retired_game_versions" (
	"game_id" text PRIMARY KEY NOT NULL,
	"last_version" integer NOT NULL
);
