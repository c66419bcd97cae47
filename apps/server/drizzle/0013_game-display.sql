ALTER TABLE "games" ADD COLUMN "frame_mode" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "frame_width" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "frame_height" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "touch" text DEFAULT 'playable' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "orientation" text DEFAULT 'any' NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_frame_check" CHECK (("games"."frame_mode" = 'default' and "games"."frame_width" is null and "games"."frame_height" is null) or ("games"."frame_mode" in ('fixed', 'aspect') and "games"."frame_width" > 0 and "games"."frame_height" > 0));--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_touch_check" CHECK ("games"."touch" in ('playable', 'keyboard-only'));--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_orientation_check" CHECK ("games"."orientation" in ('any', 'landscape', 'portrait'));--> statement-breakpoint
-- the built-in games on a database seeded before this migration (seed.ts inserts new ones so):
-- all are landscape, and the ones that need keys say so on touch screens
UPDATE "games" SET "orientation" = 'landscape' WHERE "is_built_in";--> statement-breakpoint
UPDATE "games" SET "touch" = 'keyboard-only' WHERE "is_built_in" AND "id" IN ('RocketGame', 'Pong', 'TopDownRogueLike', 'CoopAdventure', 'CompMultiplayerUCCS');
