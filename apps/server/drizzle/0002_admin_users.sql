-- pg_trgm (a trusted extension: the database owner may create it) backs the username search;
-- PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor_id" uuid,
	"actor_username" text NOT NULL,
	"target_id" uuid,
	"target_username" text NOT NULL,
	"old_value" text,
	"new_value" text,
	CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('role-change', 'delete'))
);
--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_role_username_idx" ON "users" USING btree ("role",lower("username"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_last_login_idx" ON "users" USING btree ("last_login" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "users_total_time_spent_idx" ON "users" USING btree ("total_time_spent","id");