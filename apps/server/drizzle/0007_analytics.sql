CREATE TABLE "analytics_daily" (
	"day" date NOT NULL,
	"filter" text NOT NULL,
	"filter_value" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"pageviews" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	"seconds" bigint DEFAULT 0 NOT NULL,
	"timed" integer DEFAULT 0 NOT NULL,
	"bots" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_filter_filter_value_dimension_day_value_pk" PRIMARY KEY("filter","filter_value","dimension","day","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_daily_day_idx" ON "analytics_daily" USING btree ("day");--> statement-breakpoint
-- hand-written: the append-only events table, partitioned by day (PostgreSQL declarative
-- partitioning, on PGlite too). Partitions (analytics_events_YYYYMMDD) are created by the app
-- before it writes a day and dropped whole by the retention setting. kind: 1 page view, 2 leave
-- (time on page, exit), 3 filtered bot hit, 4 game play, 5 locked-card click.
CREATE TABLE "analytics_events" (
	"day" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" smallint NOT NULL,
	"visitor" bigint NOT NULL,
	"path" text NOT NULL,
	"entry_path" text NOT NULL,
	"is_entry" boolean NOT NULL,
	"referrer" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"country" text NOT NULL,
	"device" text NOT NULL,
	"browser" text NOT NULL,
	"os" text NOT NULL,
	"seconds" integer NOT NULL,
	"is_exit" boolean NOT NULL,
	"is_bounce" boolean NOT NULL,
	"game" text NOT NULL
) PARTITION BY RANGE ("day");
--> statement-breakpoint
CREATE INDEX "analytics_events_at_idx" ON "analytics_events" USING btree ("at");
