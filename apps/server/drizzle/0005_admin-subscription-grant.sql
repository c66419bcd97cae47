ALTER TABLE "users" ADD COLUMN "subscription_granted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_granted_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_grant_ends_at" timestamp with time zone;--> statement-breakpoint
-- hand-written: subscribers an admin made before grants were recorded (no subscription held at
-- Stripe) get their grant, dated and signed by the latest audit entry that made them subscriber
UPDATE "users" AS u SET
  "subscription_granted_at" = coalesce(latest."at", now()),
  "subscription_granted_by" = latest."actor_id"
FROM "users" AS target
LEFT JOIN LATERAL (
  SELECT a."at", a."actor_id" FROM "audit_log" AS a
  WHERE a."target_id" = target."id" AND a."action" = 'role-change' AND a."new_value" = 'subscriber'
  ORDER BY a."at" DESC LIMIT 1
) AS latest ON true
WHERE target."id" = u."id"
  AND u."role" = 'subscriber'
  AND (u."subscription_status" IS NULL OR u."subscription_status" NOT IN ('active', 'trialing', 'past_due'));
