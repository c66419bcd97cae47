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
CREATE TABLE "game_leaderboard_bans" (
	"game_id" text NOT NULL,
	"board" text NOT NULL,
	"user_id" uuid NOT NULL,
	"banned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"banned_by" text NOT NULL,
	CONSTRAINT "game_leaderboard_bans_game_id_board_user_id_pk" PRIMARY KEY("game_id","board","user_id")
);
--> statement-breakpoint
CREATE TABLE "game_leaderboards" (
	"game_id" text NOT NULL,
	"board" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" text NOT NULL,
	"format" text NOT NULL,
	"suffix" text DEFAULT '' NOT NULL,
	"min_value" double precision,
	"max_value" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_leaderboards_game_id_board_pk" PRIMARY KEY("game_id","board"),
	CONSTRAINT "game_leaderboards_order_check" CHECK ("game_leaderboards"."sort_order" in ('desc', 'asc')),
	CONSTRAINT "game_leaderboards_format_check" CHECK ("game_leaderboards"."format" in ('number', 'time', 'suffix'))
);
--> statement-breakpoint
CREATE TABLE "game_save_slots" (
	"user_id" uuid NOT NULL,
	"game_id" text NOT NULL,
	"slot" integer NOT NULL,
	"data" jsonb,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "game_save_slots_user_id_game_id_slot_pk" PRIMARY KEY("user_id","game_id","slot"),
	CONSTRAINT "game_save_slots_slot_check" CHECK ("game_save_slots"."slot" between 1 and 9)
);
--> statement-breakpoint
CREATE TABLE "game_scores" (
	"game_id" text NOT NULL,
	"board" text NOT NULL,
	"period" text NOT NULL,
	"bucket" date NOT NULL,
	"user_id" uuid NOT NULL,
	"value" double precision NOT NULL,
	"rank_key" double precision NOT NULL,
	"achieved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "game_scores_game_id_board_period_bucket_user_id_pk" PRIMARY KEY("game_id","board","period","bucket","user_id")
);
--> statement-breakpoint
ALTER TABLE "game_achievement_defs" ADD CONSTRAINT "game_achievement_defs_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_leaderboard_bans" ADD CONSTRAINT "game_leaderboard_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_leaderboard_bans" ADD CONSTRAINT "game_leaderboard_bans_game_id_board_game_leaderboards_game_id_board_fk" FOREIGN KEY ("game_id","board") REFERENCES "public"."game_leaderboards"("game_id","board") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_leaderboards" ADD CONSTRAINT "game_leaderboards_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_save_slots" ADD CONSTRAINT "game_save_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_scores" ADD CONSTRAINT "game_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_scores" ADD CONSTRAINT "game_scores_game_id_board_game_leaderboards_game_id_board_fk" FOREIGN KEY ("game_id","board") REFERENCES "public"."game_leaderboards"("game_id","board") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_scores_rank_idx" ON "game_scores" USING btree ("game_id","board","period","bucket","rank_key","achieved_at","user_id");