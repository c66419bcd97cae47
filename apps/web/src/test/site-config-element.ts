import { DEFAULT_SITE_CONFIG, SITE_CONFIG_ELEMENT_ID } from '@portfolio/types/site';

import { SEED_HOME } from '../../../server/src/modules/content/seed-content';

// The server writes the site's settings into every page (the home texts too); the
// tests' document carries the spec's, as a fresh server's page does. Imported before the app.
const element = document.createElement('script');
element.id = SITE_CONFIG_ELEMENT_ID;
element.type = 'application/json';
element.textContent = JSON.stringify({ ...DEFAULT_SITE_CONFIG, home: SEED_HOME });
document.head.append(element);
