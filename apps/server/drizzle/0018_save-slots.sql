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
ALTER TABLE "game_save_slots" ADD CONSTRAINT "game_save_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;