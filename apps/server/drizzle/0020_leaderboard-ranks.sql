CREATE TABLE "game_score_bins" (
	"game_id" text NOT NULL,
	"board" text NOT NULL,
	"period" text NOT NULL,
	"bucket" date NOT NULL,
	"lo_key" double precision NOT NULL,
	"lo_at" timestamp with time zone NOT NULL,
	"lo_user" uuid NOT NULL,
	"players" integer NOT NULL,
	CONSTRAINT "game_score_bins_pk" PRIMARY KEY("game_id","board","period","bucket","lo_key","lo_at","lo_user")
);
--> statement-breakpoint
CREATE TABLE "game_score_totals" (
	"game_id" text NOT NULL,
	"board" text NOT NULL,
	"period" text NOT NULL,
	"bucket" date NOT NULL,
	"players" integer NOT NULL,
	CONSTRAINT "game_score_totals_game_id_board_period_bucket_pk" PRIMARY KEY("game_id","board","period","bucket")
);
--> statement-breakpoint
ALTER TABLE "game_score_bins" ADD CONSTRAINT "game_score_bins_game_id_board_game_leaderboards_game_id_board_fk" FOREIGN KEY ("game_id","board") REFERENCES "public"."game_leaderboards"("game_id","board") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_score_totals" ADD CONSTRAINT "game_score_totals_game_id_board_game_leaderboards_game_id_board_fk" FOREIGN KEY ("game_id","board") REFERENCES "public"."game_leaderboards"("game_id","board") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The bins and totals are kept by these triggers, in the transaction of every write to
-- game_scores (a score, a removal, a ban, a board turned or deleted, a user deleted), so no
-- command can forget them. A write locks its buckets' totals rows first (in key order), so a
-- bucket's bins change one transaction at a time and each of its statements sees the last one's.
-- How many rows a bin aims at: split past twice this, merged into the bin before below a quarter.
CREATE FUNCTION game_score_bin_rows() RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN 2048;
END $$;
--> statement-breakpoint
CREATE TYPE "game_score_change" AS (
  "game_id" text, "board" text, "period" text, "bucket" date,
  "rank_key" double precision, "achieved_at" timestamp with time zone, "user_id" uuid,
  "delta" integer
);
--> statement-breakpoint
-- A bucket's bins and total counted again from its scores (a large statement, the backfill).
CREATE FUNCTION game_score_ranks_rebuild(g text, b text, p text, k date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  chunks bigint;
BEGIN
  PERFORM 1 FROM game_score_totals t
    WHERE t.game_id = g AND t.board = b AND t.period = p AND t.bucket = k FOR UPDATE;
  SELECT count(*) INTO n FROM game_scores s
    WHERE s.game_id = g AND s.board = b AND s.period = p AND s.bucket = k;
  DELETE FROM game_score_bins x
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k;
  IF n = 0 THEN
    DELETE FROM game_score_totals t
      WHERE t.game_id = g AND t.board = b AND t.period = p AND t.bucket = k;
    RETURN;
  END IF;
  INSERT INTO game_score_totals AS t (game_id, board, period, bucket, players)
    VALUES (g, b, p, k, n)
    ON CONFLICT (game_id, board, period, bucket) DO UPDATE SET players = excluded.players;
  chunks := greatest(1, n / game_score_bin_rows());
  INSERT INTO game_score_bins (game_id, board, period, bucket, lo_key, lo_at, lo_user, players)
  SELECT g, b, p, k,
    CASE WHEN c.chunk = 0 THEN '-Infinity'::float8 ELSE c.rank_key END,
    CASE WHEN c.chunk = 0 THEN '-infinity'::timestamptz ELSE c.achieved_at END,
    CASE WHEN c.chunk = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE c.user_id END,
    c.players
  FROM (
    SELECT DISTINCT ON (r.chunk) r.chunk, r.rank_key, r.achieved_at, r.user_id,
      count(*) OVER (PARTITION BY r.chunk) AS players
    FROM (
      SELECT s.rank_key, s.achieved_at, s.user_id,
        (row_number() OVER (ORDER BY s.rank_key, s.achieved_at, s.user_id) - 1) * chunks / n
          AS chunk
      FROM game_scores s
      WHERE s.game_id = g AND s.board = b AND s.period = p AND s.bucket = k
    ) r
    ORDER BY r.chunk, r.rank_key, r.achieved_at, r.user_id
  ) c;
END $$;
--> statement-breakpoint
-- One bin cut into bins of about game_score_bin_rows() (its first keeps its start).
CREATE FUNCTION game_score_bins_split(
  g text, b text, p text, k date, lk double precision, la timestamp with time zone, lu uuid
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  nk double precision := 'Infinity';
  na timestamp with time zone := 'infinity';
  nu uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
BEGIN
  DELETE FROM game_score_bins x
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
      AND x.lo_key = lk AND x.lo_at = la AND x.lo_user = lu;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT x.lo_key, x.lo_at, x.lo_user INTO nk, na, nu FROM game_score_bins x
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
      AND (x.lo_key, x.lo_at, x.lo_user) > (lk, la, lu)
    ORDER BY x.lo_key, x.lo_at, x.lo_user LIMIT 1;
  IF NOT FOUND THEN
    nk := 'Infinity';
    na := 'infinity';
    nu := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  END IF;
  INSERT INTO game_score_bins (game_id, board, period, bucket, lo_key, lo_at, lo_user, players)
  SELECT g, b, p, k,
    CASE WHEN c.chunk = 0 THEN lk ELSE c.rank_key END,
    CASE WHEN c.chunk = 0 THEN la ELSE c.achieved_at END,
    CASE WHEN c.chunk = 0 THEN lu ELSE c.user_id END,
    c.players
  FROM (
    SELECT DISTINCT ON (r.chunk) r.chunk, r.rank_key, r.achieved_at, r.user_id,
      count(*) OVER (PARTITION BY r.chunk) AS players
    FROM (
      SELECT s.rank_key, s.achieved_at, s.user_id,
        (row_number() OVER w - 1) * greatest(1, count(*) OVER w2 / game_score_bin_rows())
          / count(*) OVER w2 AS chunk
      FROM game_scores s
      WHERE s.game_id = g AND s.board = b AND s.period = p AND s.bucket = k
        AND (s.rank_key, s.achieved_at, s.user_id) >= (lk, la, lu)
        AND (s.rank_key, s.achieved_at, s.user_id) < (nk, na, nu)
      WINDOW w AS (ORDER BY s.rank_key, s.achieved_at, s.user_id), w2 AS ()
    ) r
    ORDER BY r.chunk, r.rank_key, r.achieved_at, r.user_id
  ) c;
  IF NOT FOUND THEN
    -- no rows left in it: the first bin stays (empty), any other merges into the one before
    IF lk = '-Infinity' THEN
      INSERT INTO game_score_bins VALUES (g, b, p, k, lk, la, lu, 0);
    END IF;
  END IF;
END $$;
--> statement-breakpoint
-- A small bin given to the bin before it (the first bin stays), which is split if it outgrew.
CREATE FUNCTION game_score_bins_merge(
  g text, b text, p text, k date, lk double precision, la timestamp with time zone, lu uuid
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  moved integer;
  prev record;
BEGIN
  IF lk = '-Infinity' THEN
    RETURN;
  END IF;
  DELETE FROM game_score_bins x
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
      AND x.lo_key = lk AND x.lo_at = la AND x.lo_user = lu
    RETURNING x.players INTO moved;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE game_score_bins x SET players = x.players + moved
    FROM (
      SELECT y.lo_key, y.lo_at, y.lo_user FROM game_score_bins y
        WHERE y.game_id = g AND y.board = b AND y.period = p AND y.bucket = k
          AND (y.lo_key, y.lo_at, y.lo_user) < (lk, la, lu)
        ORDER BY y.lo_key DESC, y.lo_at DESC, y.lo_user DESC LIMIT 1
    ) before
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
      AND x.lo_key = before.lo_key AND x.lo_at = before.lo_at AND x.lo_user = before.lo_user
    RETURNING x.lo_key, x.lo_at, x.lo_user, x.players INTO prev;
  IF FOUND AND prev.players > 2 * game_score_bin_rows() THEN
    PERFORM game_score_bins_split(g, b, p, k, prev.lo_key, prev.lo_at, prev.lo_user);
  END IF;
END $$;
--> statement-breakpoint
-- A few changed scores (+1 a row that came, −1 a row that went) into their buckets' bins.
CREATE FUNCTION game_score_ranks_apply(changes game_score_change[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  target integer := game_score_bin_rows();
  r record;
BEGIN
  IF cardinality(changes) = 0 THEN
    RETURN;
  END IF;
  -- a bucket that gains rows has a total and a first bin (below every score)
  INSERT INTO game_score_totals (game_id, board, period, bucket, players)
    SELECT DISTINCT c.game_id, c.board, c.period, c.bucket, 0 FROM unnest(changes) c
      WHERE c.delta > 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT DO NOTHING;
  -- the buckets' totals locked in one order: one transaction at a time changes a bucket's bins
  PERFORM 1 FROM game_score_totals t
    JOIN (SELECT DISTINCT c.game_id, c.board, c.period, c.bucket FROM unnest(changes) c) c
      ON t.game_id = c.game_id AND t.board = c.board AND t.period = c.period
        AND t.bucket = c.bucket
    ORDER BY t.game_id, t.board, t.period, t.bucket
    FOR UPDATE OF t;
  UPDATE game_score_totals t SET players = t.players + c.delta
    FROM (SELECT c.game_id, c.board, c.period, c.bucket, sum(c.delta)::integer AS delta
          FROM unnest(changes) c GROUP BY 1, 2, 3, 4) c
    WHERE t.game_id = c.game_id AND t.board = c.board AND t.period = c.period
      AND t.bucket = c.bucket AND c.delta <> 0;
  INSERT INTO game_score_bins (game_id, board, period, bucket, lo_key, lo_at, lo_user, players)
    SELECT DISTINCT c.game_id, c.board, c.period, c.bucket, '-Infinity'::float8,
      '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid, 0
    FROM unnest(changes) c WHERE c.delta > 0
    ON CONFLICT DO NOTHING;
  -- each change counted in the bin it falls in (the last bin starting at or before it)
  FOR r IN
    UPDATE game_score_bins x SET players = x.players + s.delta
    FROM (
      SELECT c.game_id, c.board, c.period, c.bucket, bin.lo_key, bin.lo_at, bin.lo_user,
        sum(c.delta)::integer AS delta
      FROM unnest(changes) c
      CROSS JOIN LATERAL (
        SELECT y.lo_key, y.lo_at, y.lo_user FROM game_score_bins y
        WHERE y.game_id = c.game_id AND y.board = c.board AND y.period = c.period
          AND y.bucket = c.bucket
          AND (y.lo_key, y.lo_at, y.lo_user) <= (c.rank_key, c.achieved_at, c.user_id)
        ORDER BY y.lo_key DESC, y.lo_at DESC, y.lo_user DESC LIMIT 1
      ) bin
      GROUP BY 1, 2, 3, 4, 5, 6, 7
    ) s
    WHERE x.game_id = s.game_id AND x.board = s.board AND x.period = s.period
      AND x.bucket = s.bucket AND x.lo_key = s.lo_key AND x.lo_at = s.lo_at
      AND x.lo_user = s.lo_user AND s.delta <> 0
    RETURNING x.game_id, x.board, x.period, x.bucket, x.lo_key, x.lo_at, x.lo_user, x.players
  LOOP
    IF r.players > 2 * target THEN
      PERFORM game_score_bins_split(r.game_id, r.board, r.period, r.bucket,
        r.lo_key, r.lo_at, r.lo_user);
    ELSIF r.players < 0 THEN
      PERFORM game_score_ranks_rebuild(r.game_id, r.board, r.period, r.bucket);
    ELSIF r.players * 4 < target THEN
      PERFORM game_score_bins_merge(r.game_id, r.board, r.period, r.bucket,
        r.lo_key, r.lo_at, r.lo_user);
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- A bucket touched by more than this many rows of one statement (a board turned or deleted) is
-- counted again instead of row by row.
CREATE FUNCTION game_score_bulk_rows() RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN 1000;
END $$;
--> statement-breakpoint
CREATE FUNCTION game_scores_ranks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF (SELECT count(*) FROM inserted) <= game_score_bulk_rows() THEN
    PERFORM game_score_ranks_apply(ARRAY(
      SELECT ROW(n.game_id, n.board, n.period, n.bucket, n.rank_key, n.achieved_at, n.user_id,
        1)::game_score_change FROM inserted n));
    RETURN NULL;
  END IF;
  FOR r IN SELECT DISTINCT game_id, board, period, bucket FROM inserted ORDER BY 1, 2, 3, 4 LOOP
    PERFORM game_score_ranks_rebuild(r.game_id, r.board, r.period, r.bucket);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION game_scores_ranks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF (SELECT count(*) FROM deleted) <= game_score_bulk_rows() THEN
    PERFORM game_score_ranks_apply(ARRAY(
      SELECT ROW(o.game_id, o.board, o.period, o.bucket, o.rank_key, o.achieved_at, o.user_id,
        -1)::game_score_change FROM deleted o));
    RETURN NULL;
  END IF;
  FOR r IN SELECT DISTINCT game_id, board, period, bucket FROM deleted ORDER BY 1, 2, 3, 4 LOOP
    PERFORM game_score_ranks_rebuild(r.game_id, r.board, r.period, r.bucket);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION game_scores_ranks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF (SELECT count(*) FROM updated) <= game_score_bulk_rows() THEN
    PERFORM game_score_ranks_apply(ARRAY(
      SELECT ROW(o.game_id, o.board, o.period, o.bucket, o.rank_key, o.achieved_at, o.user_id,
        -1)::game_score_change FROM replaced o
      UNION ALL
      SELECT ROW(n.game_id, n.board, n.period, n.bucket, n.rank_key, n.achieved_at, n.user_id,
        1)::game_score_change FROM updated n));
    RETURN NULL;
  END IF;
  FOR r IN
    SELECT game_id, board, period, bucket FROM replaced
    UNION SELECT game_id, board, period, bucket FROM updated ORDER BY 1, 2, 3, 4
  LOOP
    PERFORM game_score_ranks_rebuild(r.game_id, r.board, r.period, r.bucket);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "game_scores_ranks_insert" AFTER INSERT ON "game_scores"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION game_scores_ranks_inserted();
--> statement-breakpoint
CREATE TRIGGER "game_scores_ranks_delete" AFTER DELETE ON "game_scores"
  REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION game_scores_ranks_deleted();
--> statement-breakpoint
CREATE TRIGGER "game_scores_ranks_update" AFTER UPDATE ON "game_scores"
  REFERENCING OLD TABLE AS replaced NEW TABLE AS updated
  FOR EACH STATEMENT EXECUTE FUNCTION game_scores_ranks_updated();
--> statement-breakpoint
-- the scores already stored, counted once
SELECT game_score_ranks_rebuild(game_id, board, period, bucket)
  FROM (SELECT DISTINCT game_id, board, period, bucket FROM game_scores ORDER BY 1, 2, 3, 4) b;
