CREATE TABLE "content_audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"item_id" text,
	"action" text NOT NULL,
	"actor_id" uuid,
	"actor_username" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_seeds" (
	"name" text PRIMARY KEY NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_projects" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"thumbnail" text NOT NULL,
	"repository_link" text,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_content" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tutorials" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"section" text NOT NULL,
	"type" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"iframe_src" text,
	"position" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tutorials_section_check" CHECK ("tutorials"."section" in ('cpp', 'unreal')),
	CONSTRAINT "tutorials_type_check" CHECK ("tutorials"."type" in ('code', 'markdown', 'iframe')),
	CONSTRAINT "tutorials_iframe_check" CHECK (("tutorials"."type" = 'iframe') = ("tutorials"."iframe_src" is not null))
);
--> statement-breakpoint
CREATE INDEX "content_audit_log_item_idx" ON "content_audit_log" USING btree ("kind","item_id","at");--> statement-breakpoint
CREATE INDEX "gallery_projects_position_idx" ON "gallery_projects" USING btree ("position");--> statement-breakpoint
CREATE INDEX "tutorials_position_idx" ON "tutorials" USING btree ("position");