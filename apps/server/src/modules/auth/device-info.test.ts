import { describe, expect, it } from 'vitest';

import { describeDevice } from './device-info.js';

const UA = {
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ipadFirefox:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  operaWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
};

describe('describeDevice', () => {
  it.each([
    ['windowsChrome', 'desktop', 'Windows', 'Chrome'],
    ['windowsEdge', 'desktop', 'Windows', 'Microsoft Edge'],
    ['operaWindows', 'desktop', 'Windows', 'Opera'],
    ['macSafari', 'desktop', 'macOS', 'Safari'],
    ['linuxFirefox', 'desktop', 'Linux', 'Firefox'],
    ['chromebook', 'desktop', 'Chrome OS', 'Chrome'],
    ['androidPhone', 'mobile', 'Android', 'Chrome'],
    ['androidTablet', 'tablet', 'Android', 'Chrome'],
    ['iphoneChrome', 'mobile', 'iOS', 'Chrome'],
    ['ipadFirefox', 'tablet', 'iOS', 'Firefox'],
  ] as const)('reads %s as %s / %s / %s', (name, type, os, browser) => {
    expect(describeDevice({ userAgent: UA[name] }, undefined)).toMatchObject({ type, os, browser });
  });

  it('parses the screen resolution and keeps timezone and language', () => {
    expect(
      describeDevice(
        {
          userAgent: UA.windowsChrome,
          screenResolution: '2560x1440',
          timezone: 'UTC',
          language: 'en-US',
        },
        undefined,
      ),
    ).toEqual({
      type: 'desktop',
      os: 'Windows',
      browser: 'Chrome',
      screenWidth: 2560,
      screenHeight: 1440,
      timezone: 'UTC',
      language: 'en-US',
    });
    expect(describeDevice({ screenResolution: '390 × 844' }, UA.androidPhone)).toMatchObject({
      screenWidth: 390,
      screenHeight: 844,
    });
  });

  it('prefers the reported user agent and falls back to the header', () => {
    expect(describeDevice({ userAgent: UA.macSafari }, UA.linuxFirefox).os).toBe('macOS');
    expect(describeDevice(undefined, UA.linuxFirefox).os).toBe('Linux');
  });

  it('answers Unknown and 0 for what it cannot read', () => {
    expect(describeDevice(undefined, undefined)).toEqual({
      type: 'Unknown',
      os: 'Unknown',
      browser: 'Unknown',
      screenWidth: 0,
      screenHeight: 0,
    });
    expect(
      describeDevice({ screenResolution: 'huge', userAgent: 'curl/8.0' }, undefined),
    ).toMatchObject({
      type: 'Unknown',
      os: 'Unknown',
      browser: 'Unknown',
      screenWidth: 0,
      screenHeight: 0,
    });
    expect(describeDevice({ userAgent: '   ' }, undefined)).toMatchObject({ type: 'Unknown' });
  });
});
