// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The summary call of a /health deep link: index.html's inline script may have started it before
 * api/preload.ts loaded (it leaves window.__watchdeckSummary), the router's preload may start it,
 * and the page's query takes it. Each case loads the module afresh: it adopts the early call at load.
 */
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function earlyCall(url: string) {
  const controller = new AbortController();
  const w = window as unknown as Record<string, unknown>;
  w.__watchdeckSummary = { url, at: Date.now(), controller, response: Promise.resolve(json({ early: true })) };
  return controller;
}

const loadPreload = async () => {
  vi.resetModules();
  return import('../src/features/health/api/preload.ts');
};

describe('/health summary preload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as unknown as Record<string, unknown>).__watchdeckSummary;
  });

  it('adopts the call index.html started, so the router and the page send none of their own', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const controller = earlyCall('/api/canary/api/summary?start=1h');
    const { preloadHealthSummary, summaryUrl, takePreloaded } = await loadPreload();
    expect((window as unknown as Record<string, unknown>).__watchdeckSummary).toBeUndefined();

    preloadHealthSummary('');
    const url = summaryUrl({ timeRange: '1h' });
    const taken = takePreloaded(url, new AbortController().signal);
    expect(await taken).toEqual({ early: true });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts an early call for a URL the app does not ask for and sends its own', async () => {
    const fetchSpy = vi.fn().mockResolvedValue(json({ own: true }));
    vi.stubGlobal('fetch', fetchSpy);
    // a timeRange the app does not know: the inline script sent it as it was, the app asks for 1h
    const controller = earlyCall('/api/canary/api/summary?start=bogus');
    const { preloadHealthSummary, summaryUrl, takePreloaded } = await loadPreload();

    preloadHealthSummary('?timeRange=bogus');
    expect(controller.signal.aborted).toBe(true);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(String(fetchSpy.mock.calls[0][0])).toContain('/api/canary/api/summary?start=1h');
    expect(await takePreloaded(summaryUrl({ timeRange: '1h' }), new AbortController().signal)).toEqual({
      own: true,
    });
  });

  it('hands a preload over once, and aborts it when the page asks for another URL', async () => {
    const fetchSpy = vi.fn().mockResolvedValue(json({ own: true }));
    vi.stubGlobal('fetch', fetchSpy);
    const { preloadSummary, summaryUrl, takePreloaded } = await loadPreload();

    preloadSummary({ timeRange: '2d' });
    const signal = (fetchSpy.mock.calls[0][1] as RequestInit).signal!;
    expect(takePreloaded(summaryUrl({ timeRange: '1h' }), new AbortController().signal)).toBeUndefined();
    expect(signal.aborted).toBe(true);
    expect(takePreloaded(summaryUrl({ timeRange: '2d' }), new AbortController().signal)).toBeUndefined();
  });
});
