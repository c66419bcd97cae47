CREATE TABLE "code_snippets" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"stdin" text DEFAULT '' NOT NULL,
	"standard" text NOT NULL,
	"optimization" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
