// What every end-to-end test and browser script shares: where the app is served, and how to start
// the machine's Chromium (never a downloaded browser) with the flags this closed network needs.
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Headless Chromium from /usr/bin (or $CHROMIUM). */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
