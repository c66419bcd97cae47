CREATE TABLE "game_achievement_defs" (
	"game_id" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"icon" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_achievement_defs_game_id_key_pk" PRIMARY KEY("game_id","key"),
	CONSTRAINT "game_achievement_defs_points_check" CHECK ("game_achievement_defs"."points" between 0 and 1000)
);
--> statement-breakpoint
ALTER TABLE "game_achievement_defs" ADD CONSTRAINT "game_achievement_defs_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;