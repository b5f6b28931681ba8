import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (or the browser CHROMIUM_PATH names, e.g. a hosted
 * runner's Chrome), headless, through playwright-core: never a downloaded
 * browser. Without the background-networking flags Chromium floods a closed
 * network with connections to Google's hosts.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
