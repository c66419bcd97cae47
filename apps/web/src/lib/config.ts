function readUrl(value: string | undefined, fallback: string): string {
  const trimmed = value?.trim();
  return trimmed ? trimmed : fallback;
}

/** Site settings taken from the Vite environment at build time. */
export const siteConfig = {
  siteName: 'GameDev Portfolio',
  githubUrl: readUrl(import.meta.env.VITE_GITHUB_URL, 'https://github.com/'),
  linkedinUrl: readUrl(import.meta.env.VITE_LINKEDIN_URL, 'https://www.linkedin.com/'),
} as const;
