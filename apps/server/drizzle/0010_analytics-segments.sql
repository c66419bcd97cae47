CREATE TABLE "analytics_segments" (
	"day" date PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
