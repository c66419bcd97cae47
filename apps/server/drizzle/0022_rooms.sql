CREATE TABLE "chat_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" text NOT NULL,
	"room_code" text NOT NULL,
	"message_id" text NOT NULL,
	"message_text" text NOT NULL,
	"message_at" timestamp with time zone NOT NULL,
	"author_user_id" uuid,
	"author_name" text NOT NULL,
	"reporter_user_id" uuid,
	"reporter_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "room_settings" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "chat_status" text DEFAULT 'allowed' NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_reports_created_at_idx" ON "chat_reports" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_reports_once_idx" ON "chat_reports" USING btree ("message_id","reporter_name");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('role-change', 'delete', 'grant-end', '2fa-enable', '2fa-disable', '2fa-recovery-code', 'reset-link', 'chat-status'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_chat_status_check" CHECK ("users"."chat_status" in ('allowed', 'muted', 'banned'));