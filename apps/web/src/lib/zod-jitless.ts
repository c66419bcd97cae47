// zod compiles object parsers with `new Function`, probing for it as each schema is built; the
// site's Content-Security-Policy forbids eval, so the probe would log a CSP violation in the
// console (and an inspector issue) on every page that loads a schema. zod reads its global
// configuration from `globalThis.__zod_globalConfig` (shared by every copy of zod), so the
// entry sets `jitless` there without loading zod itself; main.tsx imports this module first,
// before any chunk builds a schema. Parsing without the compiled fast path costs nothing a
// visitor notices.
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
