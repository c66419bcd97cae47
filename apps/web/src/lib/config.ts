import {
  DEFAULT_SITE_CONFIG,
  isSiteConfig,
  SITE_CONFIG_ELEMENT_ID,
  SITE_NAME,
  type SiteConfig,
} from '@portfolio/types/site';

/**
 * The settings the server writes into the page (footer links, from its environment), checked;
 * the defaults when the page has none (the Vite dev server) or they are unreadable.
 */
export function readSiteConfig(doc: Document = document): SiteConfig {
  const text = doc.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) {
    return DEFAULT_SITE_CONFIG;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isSiteConfig(parsed) ? parsed : DEFAULT_SITE_CONFIG;
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}

const runtime = readSiteConfig();

/**
 * Site settings: the owner's site name and home texts and the other runtime settings
 * the server gave this page. `home` is absent only without a server (the Vite dev server).
 */
export const siteConfig = {
  ...runtime,
  siteName: runtime.siteName ?? SITE_NAME,
} as const;
