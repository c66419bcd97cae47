-- A player's rank in a bucket from its bins (0020): the players of the bins before the player's
-- bin, plus the rows of that bin before the player's (a count of a few thousand index entries at
-- most); without a bin (none should be missing), a count of the rows before the player's. One
-- function, so its statements are planned once per connection, and with JIT and parallel
-- workers off: at 10,000,000 scores, planned without the bounds' values, the count inside a bin
-- is estimated at a hundred thousand rows and was compiled (JIT, ~40 ms) or handed to two
-- workers (their start costs more than the count) each time.
CREATE FUNCTION game_score_rank(
  g text, b text, p text, k date, rk double precision, ra timestamp with time zone, ru uuid
) RETURNS integer LANGUAGE plpgsql STABLE
SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
  lk double precision;
  la timestamp with time zone;
  lu uuid;
BEGIN
  SELECT x.lo_key, x.lo_at, x.lo_user INTO lk, la, lu FROM game_score_bins x
    WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
      AND (x.lo_key, x.lo_at, x.lo_user) <= (rk, ra, ru)
    ORDER BY x.lo_key DESC, x.lo_at DESC, x.lo_user DESC LIMIT 1;
  IF NOT FOUND THEN
    RETURN (SELECT count(*) FROM game_scores s
      WHERE s.game_id = g AND s.board = b AND s.period = p AND s.bucket = k
        AND (s.rank_key, s.achieved_at, s.user_id) < (rk, ra, ru)) + 1;
  END IF;
  RETURN (SELECT coalesce(sum(x.players), 0) FROM game_score_bins x
      WHERE x.game_id = g AND x.board = b AND x.period = p AND x.bucket = k
        AND (x.lo_key, x.lo_at, x.lo_user) < (lk, la, lu))
    + (SELECT count(*) FROM game_scores s
      WHERE s.game_id = g AND s.board = b AND s.period = p AND s.bucket = k
        AND (s.rank_key, s.achieved_at, s.user_id) >= (lk, la, lu)
        AND (s.rank_key, s.achieved_at, s.user_id) < (rk, ra, ru))
    + 1;
END $$;
--> statement-breakpoint
-- The bins' upkeep runs with scores: likewise (a bin's split, planned without its bounds'
-- values, is estimated at a hundred thousand rows).
ALTER FUNCTION game_score_ranks_apply(game_score_change[])
  SET jit = off SET max_parallel_workers_per_gather = 0;
--> statement-breakpoint
ALTER FUNCTION game_score_bins_split(
  text, text, text, date, double precision, timestamp with time zone, uuid
) SET jit = off SET max_parallel_workers_per_gather = 0;
--> statement-breakpoint
ALTER FUNCTION game_score_bins_merge(
  text, text, text, date, double precision, timestamp with time zone, uuid
) SET jit = off SET max_parallel_workers_per_gather = 0;
