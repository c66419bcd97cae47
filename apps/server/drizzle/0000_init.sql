CREATE TABLE "daily_stats" (
	"day" date PRIMARY KEY NOT NULL,
	"new_users" integer DEFAULT 0 NOT NULL,
	"total_users" integer DEFAULT 0 NOT NULL,
	"peak_concurrent" integer DEFAULT 0 NOT NULL,
	"registered_visitors" integer DEFAULT 0 NOT NULL,
	"anonymous_visitors" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_visitors" (
	"day" date NOT NULL,
	"visitor_key" text NOT NULL,
	"is_registered" boolean NOT NULL,
	CONSTRAINT "daily_visitors_day_visitor_key_pk" PRIMARY KEY("day","visitor_key")
);
--> statement-breakpoint
CREATE TABLE "game_clicks_daily" (
	"day" date NOT NULL,
	"game_id" text NOT NULL,
	"authenticated_clicks" integer DEFAULT 0 NOT NULL,
	"anonymous_clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "game_clicks_daily_day_game_id_pk" PRIMARY KEY("day","game_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone,
	"total_time_spent" bigint DEFAULT 0 NOT NULL,
	"device_info" jsonb,
	"subscription_status" text,
	"subscription_start_date" timestamp with time zone,
	"subscription_end_date" timestamp with time zone,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('user', 'subscriber', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));