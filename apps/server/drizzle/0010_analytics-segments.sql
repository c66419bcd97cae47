CREATE TABLE "analytics_segments" (
	"day" date PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL
);
