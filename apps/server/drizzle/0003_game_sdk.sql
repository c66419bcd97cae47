CREATE TABLE "game_achievements" (
	"user_id" uuid NOT NULL,
	"game_id" text NOT NULL,
	"name" text NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_achievements_user_id_game_id_name_pk" PRIMARY KEY("user_id","game_id","name")
);
--> statement-breakpoint
CREATE TABLE "game_stats" (
	"user_id" uuid NOT NULL,
	"game_id" text NOT NULL,
	"playtime_ms" bigint DEFAULT 0 NOT NULL,
	"last_played" timestamp with time zone,
	"session_last_at" timestamp with time zone,
	"save_data" jsonb,
	"save_updated_at" timestamp with time zone,
	CONSTRAINT "game_stats_user_id_game_id_pk" PRIMARY KEY("user_id","game_id")
);
--> statement-breakpoint
ALTER TABLE "game_achievements" ADD CONSTRAINT "game_achievements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_stats" ADD CONSTRAINT "game_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;