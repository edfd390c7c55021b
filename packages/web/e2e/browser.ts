import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { expect, inject } from 'vitest';

// Debian's chromium, never a downloaded build; flags keep it off the (closed) network.
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

export const baseUrl = () => inject('baseUrl');

/** Screenshots land in .e2e/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string) {
  mkdirSync('.e2e/screenshots', { recursive: true });
  await page.screenshot({ path: `.e2e/screenshots/${name}.png`, fullPage: true });
}

/**
 * expect.poll with a wait that fits a loaded CI machine: vitest's default of one second is
 * shorter than a save round trip on the single-connection PGlite server under load.
 */
export function poll<T>(fn: () => T | Promise<T>, timeout = 15_000, message?: string) {
  return expect.poll(fn, { timeout, interval: 100, message });
}

/** Waits until `fn` answers true, for hooks (expect.poll works inside tests only). */
export async function waitUntil(fn: () => Promise<boolean>, timeout: number, what: string): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeout / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
